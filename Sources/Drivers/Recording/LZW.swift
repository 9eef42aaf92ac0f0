/// The LZW compression of GIF image data (GIF89a, appendix F): variable-width codes from
/// `minimumCodeSize + 1` up to 12 bits, packed least significant bit first.
enum LZW {
  /// Compresses color indices (each below `1 << minimumCodeSize`).
  static func compress(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
    let clear = 1 << minimumCodeSize
    let end = clear + 1
    var output: [UInt8] = []
    output.reserveCapacity(indices.count / 2 + 16)
    var bitBuffer: UInt32 = 0
    var bitCount = 0
    var codeSize = minimumCodeSize + 1
    func emit(_ code: Int) {
      bitBuffer |= UInt32(code) << UInt32(bitCount)
      bitCount += codeSize
      while bitCount >= 8 {
        output.append(UInt8(truncatingIfNeeded: bitBuffer))
        bitBuffer >>= 8
        bitCount -= 8
      }
    }
    // The dictionary: (prefix code, next index) -> code.
    var table: [Int: Int] = [:]
    table.reserveCapacity(4096)
    var nextCode = end + 1
    emit(clear)
    guard var prefix = indices.first.map(Int.init) else {
      emit(end)
      if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: bitBuffer)) }
      return output
    }
    for index in indices.dropFirst() {
      let key = prefix << 8 | Int(index)
      if let code = table[key] {
        prefix = code
        continue
      }
      emit(prefix)
      if nextCode < 4096 {
        table[key] = nextCode
        nextCode += 1
        // A new code that needs one more bit widens the codes from now on.
        if nextCode > (1 << codeSize) && codeSize < 12 { codeSize += 1 }
      } else {
        emit(clear)
        table.removeAll(keepingCapacity: true)
        nextCode = end + 1
        codeSize = minimumCodeSize + 1
      }
      prefix = Int(index)
    }
    emit(prefix)
    emit(end)
    if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: bitBuffer)) }
    return output
  }
}

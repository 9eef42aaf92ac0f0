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
    // The dictionary as a table: the code of (prefix code, next index) at
    // `prefix * alphabet + index`, 0 where there is none (no string's code is 0). A small
    // palette keeps it small: 16 K entries for the two colours of a one-bit sign.
    let alphabet = 1 << minimumCodeSize
    var table = [UInt16](repeating: 0, count: 4096 * alphabet)
    var nextCode = end + 1
    emit(clear)
    guard var prefix = indices.first.map(Int.init) else {
      emit(end)
      if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: bitBuffer)) }
      return output
    }
    precondition(prefix < alphabet, "colour index \(prefix) past a palette of \(alphabet)")
    var position = 1
    while position < indices.count {
      let index = Int(indices[position])
      position += 1
      precondition(index < alphabet, "colour index \(index) past a palette of \(alphabet)")
      let key = prefix * alphabet + index
      let code = table[key]
      if code != 0 {
        prefix = Int(code)
        continue
      }
      emit(prefix)
      if nextCode < 4096 {
        table[key] = UInt16(nextCode)
        nextCode += 1
        // A new code that needs one more bit widens the codes from now on.
        if nextCode > (1 << codeSize) && codeSize < 12 { codeSize += 1 }
      } else {
        emit(clear)
        table.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        nextCode = end + 1
        codeSize = minimumCodeSize + 1
      }
      prefix = index
    }
    emit(prefix)
    emit(end)
    if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: bitBuffer)) }
    return output
  }
}

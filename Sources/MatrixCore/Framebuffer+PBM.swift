/// The framebuffer as Netpbm bitmaps (PBM): 1 is black in PBM, a lit LED here.
extension Framebuffer {
  /// The raw form (`P4`): a text header, then each row's bits packed into bytes, the
  /// leftmost pixel in the most significant bit, each row padded to a whole byte.
  public var pbm: [UInt8] {
    var bytes = Array("P4\n\(width) \(height)\n".utf8)
    bytes.reserveCapacity(bytes.count + height * ((width + 7) / 8))
    for y in 0..<height {
      var byte: UInt8 = 0
      for x in 0..<width {
        if self[x, y] { byte |= 0x80 >> UInt8(x % 8) }
        if x % 8 == 7 || x == width - 1 {
          bytes.append(byte)
          byte = 0
        }
      }
    }
    return bytes
  }

  /// The plain form (`P1`): the header and one line of `0` and `1` per row.
  public var pbmPlain: String {
    var text = "P1\n\(width) \(height)\n"
    for y in 0..<height {
      text += (0..<width).map { self[$0, y] ? "1" : "0" }.joined(separator: " ") + "\n"
    }
    return text
  }
}

import MatrixCore

/// PBM bitmaps, plain (P1: `0` and `1` as text) and raw (P4: rows of bits, the most
/// significant first, each row to a whole byte); a 1 bit lights.
enum NetpbmDecoder {
  static func decode(_ bytes: [UInt8]) throws(PictureFormatError) -> Framebuffer {
    var position = 2
    /// The next header number, past whitespace and `#` comments.
    func number(_ what: String) throws(PictureFormatError) -> Int {
      while position < bytes.count {
        if bytes[position] == 0x23 {
          while position < bytes.count && bytes[position] != 0x0A { position += 1 }
        } else if isSpace(bytes[position]) {
          position += 1
        } else {
          break
        }
      }
      var value = 0, digits = 0
      while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
        value = value * 10 + Int(bytes[position] - 0x30)
        guard value <= 1 << 20 else { throw PictureFormatError("the \(what) is too large") }
        position += 1
        digits += 1
      }
      guard digits > 0 else { throw PictureFormatError("the header has no \(what)") }
      return value
    }
    let width = try number("width"), height = try number("height")
    if let refusal = PictureLimits.refusal(width: width, height: height) { throw PictureFormatError(refusal) }
    var picture = Framebuffer(width: width, height: height)
    if bytes[1] == 0x34 {
      // One whitespace byte, then the rows.
      position += 1
      let stride = (width + 7) / 8
      guard position + stride * height <= bytes.count else {
        throw PictureFormatError("truncated: \(stride * height) bytes of pixels expected, \(max(0, bytes.count - position)) found")
      }
      for y in 0..<height {
        for x in 0..<width where bytes[position + y * stride + x / 8] & (0x80 >> (x % 8)) != 0 { picture[x, y] = true }
      }
    } else {
      var index = 0
      while index < width * height {
        guard position < bytes.count else { throw PictureFormatError("truncated: \(width * height) pixels expected, \(index) found") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case 0x30, 0x31:
          if byte == 0x31 { picture[index % width, index / width] = true }
          index += 1
        case 0x23:
          while position < bytes.count && bytes[position] != 0x0A { position += 1 }
        default:
          guard isSpace(byte) else { throw PictureFormatError("pixel \(index + 1) is '\(Character(Unicode.Scalar(byte)))', not 0 or 1") }
        }
      }
    }
    return picture
  }

  static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}

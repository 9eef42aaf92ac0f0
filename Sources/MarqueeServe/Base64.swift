/// Reads base64 (RFC 4648, with padding), for the gzipped page files the binary carries.
enum Base64 {
  /// The bytes `text` encodes, or nil when it is not base64.
  static func decode(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count / 4 * 3)
    var group: UInt32 = 0, count = 0, padding = 0
    for character in text.utf8 {
      let value: UInt32
      switch character {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(character - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(character - UInt8(ascii: "a")) + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(character - UInt8(ascii: "0")) + 52
      case UInt8(ascii: "+"): value = 62
      case UInt8(ascii: "/"): value = 63
      case UInt8(ascii: "="): value = 0; padding += 1
      default: return nil
      }
      if padding > 0 && character != UInt8(ascii: "=") { return nil }
      group = group << 6 | value
      count += 1
      if count == 4 {
        bytes.append(UInt8(truncatingIfNeeded: group >> 16))
        if padding < 2 { bytes.append(UInt8(truncatingIfNeeded: group >> 8)) }
        if padding < 1 { bytes.append(UInt8(truncatingIfNeeded: group)) }
        group = 0
        count = 0
      }
    }
    return count == 0 && padding <= 2 ? bytes : nil
  }
}

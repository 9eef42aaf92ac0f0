import MatrixCore

/// X bitmaps: C source with `#define NAME_width W`, `#define NAME_height H` and
/// `static unsigned char NAME_bits[] = { 0x.., … };`, rows to whole bytes (X10's `short`
/// words: 16 bits), the least significant bit leftmost; a 1 bit lights.
enum XBMDecoder {
  static func looksLikeXBM(_ bytes: [UInt8]) -> Bool {
    let head = String(decoding: bytes.prefix(16_384), as: UTF8.self)
    return head.contains("#define") && head.contains("_width")
  }

  static func decode(_ bytes: [UInt8]) throws(PictureFormatError) -> Framebuffer {
    let text = String(decoding: bytes, as: UTF8.self)
    func define(_ suffix: String) throws(PictureFormatError) -> Int {
      for line in text.split(whereSeparator: \.isNewline) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if words.count == 3, words[0] == "#define", words[1].hasSuffix(suffix), let value = Int(words[2]) { return value }
      }
      throw PictureFormatError("no '#define …\(suffix)' line")
    }
    let width = try define("_width"), height = try define("_height")
    if let refusal = PictureLimits.refusal(width: width, height: height) { throw PictureFormatError(refusal) }
    guard let open = text.firstIndex(of: "{") else { throw PictureFormatError("no '{' before the bits") }
    guard let close = text[open...].firstIndex(of: "}") else { throw PictureFormatError("truncated: no '}' after the bits") }
    let values = text[text.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters() }.filter { !$0.isEmpty }
    // X10 bitmaps are 16-bit words ("short"), X11 ones bytes.
    let bits = text[..<open].contains("short") ? 16 : 8
    let stride = (width + bits - 1) / bits
    guard values.count >= stride * height else {
      throw PictureFormatError("truncated: \(stride * height) words of bits expected, \(values.count) found")
    }
    var picture = Framebuffer(width: width, height: height)
    for y in 0..<height {
      for column in 0..<stride {
        let word = values[y * stride + column]
        let hex = word.lowercased().hasPrefix("0x")
        guard let value = Int(hex ? word.dropFirst(2) : Substring(word), radix: hex ? 16 : 10), value >= 0, value < 1 << bits else {
          throw PictureFormatError("'\(word.prefix(20))' is not a \(bits)-bit word (row \(y + 1))")
        }
        for bit in 0..<bits where value & (1 << bit) != 0 && column * bits + bit < width { picture[column * bits + bit, y] = true }
      }
    }
    return picture
  }
}

extension Substring {
  fileprivate func trimmingCharacters() -> String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}

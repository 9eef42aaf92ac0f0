/// An error in the text form of a framebuffer.
public struct FramebufferTextError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The 1-based line the problem is on.
  public var line: Int
  /// What is wrong there.
  public var reason: String

  public var description: String { "line \(line): \(reason)" }
}

extension Framebuffer {
  /// The character of a lit pixel in the text form.
  public static let litCharacter: Character = "#"
  /// The character of a dark pixel in the text form.
  public static let darkCharacter: Character = "."

  /// The text form: one line per row, `#` for a lit pixel and `.` for a dark one,
  /// each line ending in a newline.
  public var text: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity((width + 1) * height)
    appendText(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the text form to a byte buffer (so a frame loop can reuse the buffer).
  public func appendText(to bytes: inout [UInt8]) {
    for y in 0..<height {
      let rowStart = y * wordsPerRow
      for x in 0..<width {
        let lit = words[rowStart + (x >> 6)] & (1 << (63 - UInt64(x & 63))) != 0
        bytes.append(lit ? UInt8(ascii: "#") : UInt8(ascii: "."))
      }
      bytes.append(UInt8(ascii: "\n"))
    }
  }

  /// Parses the text form: lines of `#` (lit) and `.` (dark), all of one length.
  ///
  /// A trailing newline is optional; a final empty line is ignored. Any other character,
  /// or lines of different lengths, are an error naming the line.
  public init(text: String) throws(FramebufferTextError) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if let last = lines.last, last.isEmpty { lines.removeLast() }
    let rows = lines.map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
    let width = rows.first?.count ?? 0
    if let problem = Framebuffer.validateSize(width: width, height: rows.count) {
      throw FramebufferTextError(line: 1, reason: problem)
    }
    self.init(width: width, height: rows.count)
    for (y, row) in rows.enumerated() {
      guard row.count == width else {
        throw FramebufferTextError(
          line: y + 1, reason: "row has \(row.count) pixels, expected \(width)")
      }
      for (x, character) in row.enumerated() {
        switch character {
        case Framebuffer.litCharacter: self[x, y] = true
        case Framebuffer.darkCharacter: break
        default:
          throw FramebufferTextError(
            line: y + 1,
            reason: "unexpected character '\(character)' at column \(x + 1) (use '#' or '.')")
        }
      }
    }
  }
}

extension Framebuffer: CustomStringConvertible {
  public var description: String { text }
}

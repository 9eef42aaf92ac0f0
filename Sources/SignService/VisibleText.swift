extension String {
  /// This text with every character that steers a terminal or a log written as escapes a
  /// person can read (`\n`, `\x1B`, `\u{202E}`): text from the network (an MQTT payload, a
  /// sign's name or state) shown in a terminal or a log line then can neither start a line
  /// of its own, move the cursor, set the window's title, write the clipboard, nor turn the
  /// text after it around. Control characters (C0, DEL, C1), the line and paragraph
  /// separators and the bidirectional embeddings, overrides and isolates are escaped; a
  /// backslash stays as it is.
  public var controlsMadeVisible: String {
    guard unicodeScalars.contains(where: String.steers) else { return self }
    var shown = ""
    for scalar in unicodeScalars {
      guard String.steers(scalar) else {
        shown.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": shown += "\\n"
      case "\r": shown += "\\r"
      case "\t": shown += "\\t"
      default:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        shown += scalar.value < 0x100 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{" + hex + "}"
      }
    }
    return shown
  }

  /// Whether a character steers a terminal or a log line rather than showing.
  static func steers(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}

/// How an icon travels inside text: `{icon:train}` becomes one character, a private-use
/// marker (U+10FF00) followed by the name's UTF-8 bytes, each as a character that extends
/// the one before (an ASCII byte as a tag character, U+E0020–U+E007E; a byte of another
/// script's letter, 0x80–0xFF, as a variation selector, U+E0100–U+E017F), and a cancel tag
/// (U+E007F). The whole is one `Character`: it counts, lays out, scrolls and cuts as one
/// glyph, and the renderer finds the icon by the name it carries.
public enum IconText {
  /// The scalar that starts an icon's character.
  public static let marker: Unicode.Scalar = "\u{10FF00}"
  static let cancel: Unicode.Scalar = "\u{E007F}"

  /// The character that shows icon `name` (a valid ``Icon/isValidName(_:)`` name).
  public static func character(_ name: some StringProtocol) -> String {
    var scalars = String.UnicodeScalarView()
    scalars.append(marker)
    for byte in name.utf8 { scalars.append(Unicode.Scalar((byte < 0x80 ? 0xE0000 : 0xE0080) + UInt32(byte))!) }
    scalars.append(cancel)
    return String(scalars)
  }

  /// The icon name a character's scalars carry, or nil when they are not an icon.
  public static func name(_ scalars: some Collection<Unicode.Scalar>) -> String? {
    guard scalars.first == marker else { return nil }
    var bytes: [UInt8] = []
    for scalar in scalars.dropFirst() {
      if scalar == cancel { break }
      switch scalar.value {
      case 0xE0020...0xE007E: bytes.append(UInt8(scalar.value - 0xE0000))
      case 0xE0100...0xE017F: bytes.append(UInt8(scalar.value - 0xE0080))
      default: return nil
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The names of the icons a text shows, in order.
  public static func names(in text: String) -> [String] {
    guard text.unicodeScalars.contains(marker) else { return [] }
    return text.compactMap { name($0.unicodeScalars) }
  }
}

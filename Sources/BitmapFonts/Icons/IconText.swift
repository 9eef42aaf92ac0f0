/// How an icon travels inside text: `{icon:train}` becomes one character, a private-use
/// marker (U+10FF00) followed by the name in Unicode tag characters (U+E0020–U+E007E, one
/// per ASCII letter) and a cancel tag (U+E007F). Tag characters extend the character they
/// follow, so the whole is one `Character`: it counts, lays out, scrolls and cuts as one
/// glyph, and the renderer finds the icon by the name it carries.
public enum IconText {
  /// The scalar that starts an icon's character.
  public static let marker: Unicode.Scalar = "\u{10FF00}"
  static let cancel: Unicode.Scalar = "\u{E007F}"

  /// The character that shows icon `name` (a valid ``Icon/isValidName(_:)`` name).
  public static func character(_ name: some StringProtocol) -> String {
    var scalars = String.UnicodeScalarView()
    scalars.append(marker)
    for byte in name.utf8 { scalars.append(Unicode.Scalar(0xE0000 + UInt32(byte))!) }
    scalars.append(cancel)
    return String(scalars)
  }

  /// The icon name a character's scalars carry, or nil when they are not an icon.
  public static func name(_ scalars: some Collection<Unicode.Scalar>) -> String? {
    guard scalars.first == marker else { return nil }
    var name = ""
    for scalar in scalars.dropFirst() {
      if scalar == cancel { break }
      guard (0xE0020...0xE007E).contains(scalar.value) else { return nil }
      name.unicodeScalars.append(Unicode.Scalar(scalar.value - 0xE0000)!)
    }
    return name
  }

  /// The names of the icons a text shows, in order.
  public static func names(in text: String) -> [String] {
    guard text.unicodeScalars.contains(marker) else { return [] }
    return text.compactMap { name($0.unicodeScalars) }
  }
}

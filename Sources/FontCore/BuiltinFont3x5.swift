import MatrixCore

/// The built-in tiny font: capitals, digits and punctuation 3 pixels wide and 5 tall, for
/// signs of 5 or 6 rows. Small letters are drawn as capitals.
public final class BuiltinFont3x5: Font {
  public let name = "3x5"
  public let ascent = 5
  public let descent = 1

  /// Creates the font (its pixels are constant data, `BuiltinFont3x5+Data.swift`).
  public init() {}

  /// The glyph, drawn from the font's constant data at each call (nothing is kept).
  public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
    var code = scalar.value
    if code == 0x20 { return Glyph(bitmap: Framebuffer(width: 0, height: 0), advance: 2, top: 0) }
    // Small letters are drawn as capitals.
    if (0x61...0x7A).contains(code) { code -= 0x20 }
    guard let index = SortedSearch.index(of: code, in: BuiltinFont3x5.drawnCodes) else { return nil }
    return Glyph.drawn(fromRows: BuiltinFont3x5.drawnRows[index], width: 3, height: 6, top: 5, fullWidth: (0x30...0x39).contains(code))
  }

  public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
    let code = scalar.value
    return code == 0x20 || SortedSearch.index(of: (0x61...0x7A).contains(code) ? code - 0x20 : code, in: BuiltinFont3x5.drawnCodes) != nil
  }

  /// All code points the font has, in ascending order.
  public var scalars: [Unicode.Scalar] {
    let smallLetters = BuiltinFont3x5.drawnCodes.filter { (0x41...0x5A).contains($0) }.map { $0 + 0x20 }
    return (BuiltinFont3x5.drawnCodes + smallLetters + [0x20]).sorted().compactMap(Unicode.Scalar.init)
  }
}

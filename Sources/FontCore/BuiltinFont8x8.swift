import MatrixCore

/// The built-in 8x8 font: the 5x7 font's letters drawn bold (each stroke two pixels wide),
/// in the style of the 8x8 computer fonts that read well on large modules from afar.
///
/// Same coverage as the 5x7 (ASCII, Latin-1 letters and symbols), proportional with digits
/// all 6 pixels wide; 7 rows above the baseline and one below, in an 8-row line.
public final class BuiltinFont8x8: Font {
  public let name = "8x8"
  public let ascent = 7
  public let descent = 1

  /// Creates the font.
  public init() {}

  /// The 5x7 font's glyph drawn bold, at each call (nothing is kept).
  public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
    guard let glyph = BuiltinFont5x7().glyph(for: scalar) else { return nil }
    let source = glyph.bitmap
    guard source.width > 0 else { return Glyph(bitmap: source, advance: glyph.advance + 1, top: glyph.top) }
    // Embolden: every lit pixel also lights its right neighbour.
    var bold = Framebuffer(width: source.width + 1, height: source.height)
    bold.draw(source, atX: 0, y: 0, mode: .or)
    bold.draw(source, atX: 1, y: 0, mode: .or)
    return Glyph(bitmap: bold, advance: bold.width, xOffset: 0, top: glyph.top)
  }

  public func hasGlyph(for scalar: Unicode.Scalar) -> Bool { BuiltinFont5x7().hasGlyph(for: scalar) }

  /// All code points the font has, in ascending order: the 5x7 font's.
  public var scalars: [Unicode.Scalar] { BuiltinFont5x7().scalars }
}

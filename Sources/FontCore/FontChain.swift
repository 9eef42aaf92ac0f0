/// An ordered list of fonts: each character is drawn with the first font that has it.
///
/// Characters that no font has get the fallback glyph: U+FFFD from the first font that has
/// one, else a hollow box as tall as the first font's capitals. Nothing is dropped.
public struct FontChain: Sendable, Equatable {
  /// The fonts, most preferred first.
  public var fonts: [any Font]
  /// The icons messages can show (`{icon:NAME}`), sized to the first font's line.
  public var icons: IconSet

  /// Creates a chain; it must hold at least one font.
  public init(_ fonts: [any Font], icons: IconSet = .builtIn) {
    precondition(!fonts.isEmpty, "a font chain needs at least one font")
    self.fonts = fonts
    self.icons = icons
  }

  /// A chain of one font.
  public init(_ font: any Font, icons: IconSet = .builtIn) {
    self.init([font], icons: icons)
  }

  /// The rows above the common baseline: the largest ascent of the fonts.
  public var ascent: Int { fonts.map { $0.ascent }.max() ?? 0 }
  /// The rows below the common baseline: the largest descent of the fonts.
  public var descent: Int { fonts.map { $0.descent }.max() ?? 0 }
  /// The height of a line of text in this chain.
  public var lineHeight: Int { ascent + descent }

  /// This chain for a line at most `height` pixels tall: the largest font whose line fits
  /// first, then the other fonts that fit, in their order; the smallest font alone if none
  /// fits.
  public func fitting(height: Int) -> FontChain {
    let fits = fonts.filter { $0.lineHeight <= height }
    guard let largest = fits.indices.max(by: { fits[$0].lineHeight < fits[$1].lineHeight }) else {
      let smallest = fonts.min { $0.lineHeight < $1.lineHeight }!
      return FontChain([smallest], icons: icons)
    }
    var ordered = fits
    ordered.insert(ordered.remove(at: largest), at: 0)
    return FontChain(ordered, icons: icons)
  }

  /// The glyph for a scalar from the first font that has it, or `nil`.
  public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
    source(for: scalar)?.glyph
  }

  /// Whether a font of the chain has a glyph for a scalar (nothing is drawn).
  public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
    fonts.contains { $0.hasGlyph(for: scalar) }
  }

  /// The glyph for a scalar and the index of the font it came from, or `nil`.
  public func source(for scalar: Unicode.Scalar) -> (glyph: Glyph, font: Int)? {
    for (index, font) in fonts.enumerated() {
      if let glyph = font.glyph(for: scalar) { return (glyph, index) }
    }
    return nil
  }

  /// The glyph drawn for characters that no font has.
  public var fallbackGlyph: Glyph {
    fallback.glyph
  }

  /// The fallback glyph and the index of the font it came from.
  var fallback: (glyph: Glyph, font: Int) {
    if let replacement = source(for: "\u{FFFD}") { return replacement }
    let primary = fonts[0]
    let height = max(3, primary.ascent)
    return (Glyph.box(width: max(3, (height * 5 + 6) / 7), height: height), 0)
  }
}

extension FontChain {
  /// Two chains are equal when they hold the fonts of the same names in the same order,
  /// and the same icons.
  public static func == (lhs: FontChain, rhs: FontChain) -> Bool {
    lhs.fonts.map { $0.name } == rhs.fonts.map { $0.name } && lhs.icons == rhs.icons
  }
}

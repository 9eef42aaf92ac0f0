import MatrixCore

/// Turns a string into a strip: a framebuffer one line of text tall and as wide as the text.
///
/// One glyph is drawn per grapheme cluster (what a reader sees as one character): its base
/// scalar from the font chain, with any combining marks drawn over it. Control and
/// zero-width format characters take no room; a character no font has is drawn as the
/// chain's fallback glyph.
public struct TextRenderer: Sendable {
  /// The fonts to draw with.
  public var fonts: FontChain
  /// Dark columns between neighbouring glyphs.
  public var letterSpacing: Int

  /// Creates a renderer.
  public init(fonts: FontChain = FontChain(BuiltinFont5x7()), letterSpacing: Int = 1) {
    self.fonts = fonts
    self.letterSpacing = letterSpacing
  }

  /// The height of the strips this renderer makes.
  public var lineHeight: Int { fonts.lineHeight }

  /// A glyph placed on the line: drawn at `x` (its bitmap's left edge) with the bitmap's top
  /// at row `y` of the strip.
  public struct PlacedGlyph: Sendable {
    /// The glyph.
    public var glyph: Glyph
    /// The strip column of the bitmap's left edge.
    public var x: Int
    /// The strip row of the bitmap's top edge.
    public var y: Int
    /// The index of the grapheme cluster in the string this glyph draws.
    public var characterIndex: Int
  }

  /// The result of laying a string out: where each glyph goes, and the strip's width.
  public struct Layout: Sendable {
    /// The glyphs in drawing order.
    public var glyphs: [PlacedGlyph]
    /// The strip's width in pixels.
    public var width: Int
    /// The strip's height in pixels.
    public var height: Int
  }

  /// Lays a string out without drawing it.
  public func layout(_ text: String) -> Layout {
    let baseline = fonts.ascent
    var placed: [PlacedGlyph] = []
    var pen = 0
    var right = 0
    var drawnAny = false
    for (index, character) in text.enumerated() {
      let scalars = Array(character.unicodeScalars)
      guard let (base, marks) = resolve(scalars) else { continue }
      if drawnAny { pen += letterSpacing }
      drawnAny = true
      placed.append(PlacedGlyph(
        glyph: base, x: pen + base.xOffset, y: baseline - base.top, characterIndex: index))
      right = max(right, pen + base.xOffset + base.bitmap.width)
      for mark in marks {
        // A combining mark is centred over its base unless the font places it itself.
        let x = mark.advance == 0
          ? pen + mark.xOffset
          : pen + (base.advance - mark.bitmap.width) / 2
        placed.append(PlacedGlyph(
          glyph: mark, x: x, y: baseline - mark.top, characterIndex: index))
      }
      pen += base.advance
      right = max(right, pen)
    }
    return Layout(glyphs: placed, width: right, height: fonts.lineHeight)
  }

  /// The width in pixels the string takes, without drawing it.
  public func measure(_ text: String) -> Int {
    layout(text).width
  }

  /// Draws the string into a new strip.
  public func render(_ text: String) -> Framebuffer {
    draw(layout(text))
  }

  /// Draws a layout into a new strip.
  public func draw(_ layout: Layout) -> Framebuffer {
    var strip = Framebuffer(width: layout.width, height: layout.height)
    for placed in layout.glyphs {
      strip.draw(placed.glyph.bitmap, atX: placed.x, y: placed.y, mode: .or)
    }
    return strip
  }

  /// The base glyph and mark glyphs for one grapheme cluster, or `nil` if it draws nothing.
  func resolve(_ scalars: [Unicode.Scalar]) -> (Glyph, [Glyph])? {
    guard let first = scalars.first else { return nil }
    if TextRenderer.isInvisible(first) && scalars.count == 1 { return nil }
    var base = first
    var rest = scalars.dropFirst()
    // Prefer a precomposed letter (e + U+0301 -> é) when the font has one.
    if let mark = rest.first, let composed = BuiltinFont5x7.precomposed(first, mark),
      fonts.glyph(for: composed) != nil
    {
      base = composed
      rest = rest.dropFirst()
    }
    let baseGlyph = fonts.glyph(for: base) ?? fonts.fallbackGlyph
    var marks: [Glyph] = []
    // Marks are drawn over the base when a font has them; marks no font has, and the
    // joined parts of emoji sequences, add nothing: the base already shows the character.
    for scalar in rest where scalar.properties.generalCategory.isMark {
      if let glyph = fonts.glyph(for: scalar) { marks.append(glyph) }
    }
    return (baseGlyph, marks)
  }

  /// Whether a scalar takes no room: controls, format characters (zero-width joiners,
  /// direction marks, BOM) and variation selectors.
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format: return true
    default: return scalar.properties.isVariationSelector
    }
  }
}

extension Unicode.GeneralCategory {
  /// Whether this is a combining mark category.
  var isMark: Bool {
    self == .nonspacingMark || self == .spacingMark || self == .enclosingMark
  }
}

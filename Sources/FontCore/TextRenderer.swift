import MatrixCore

/// Turns a string into a strip: a framebuffer one line of text tall and as wide as the text.
///
/// The text is first made ready as ``ReadingOrder`` does it: normalised (NFC), Arabic
/// letters joined into their presentation forms, and put in reading order by the Unicode
/// Bidirectional Algorithm, so Arabic and Hebrew read right to left beside Latin and
/// numbers. Then one glyph is drawn per grapheme cluster (what a reader sees as one
/// character): its base scalar from the font chain, with any combining marks drawn over it.
/// Control and zero-width format characters take no room; a character no font has is drawn
/// as the chain's fallback glyph.
public struct TextRenderer: Sendable, Equatable {
  /// The fonts to draw with.
  public var fonts: FontChain
  /// Dark columns between neighbouring glyphs.
  public var letterSpacing: Int
  /// The direction each paragraph reads in: found from its first strong letter by default.
  public var direction: TextDirection

  /// Creates a renderer.
  public init(fonts: FontChain = FontChain(BuiltinFont5x7()), letterSpacing: Int = 1, direction: TextDirection = .auto) {
    self.fonts = fonts
    self.letterSpacing = letterSpacing
    self.direction = direction
  }

  /// The height of a line in the first font (a line that uses other fonts may be taller).
  public var lineHeight: Int { fonts.fonts[0].lineHeight }

  /// A glyph placed on the line: drawn at `x` (its bitmap's left edge) with the bitmap's top
  /// at row `y` of the strip.
  public struct PlacedGlyph: Sendable {
    /// The glyph.
    public var glyph: Glyph
    /// The strip column of the bitmap's left edge.
    public var x: Int
    /// The strip row of the bitmap's top edge.
    public var y: Int
    /// The index, in drawing order, of the character (grapheme cluster of the prepared
    /// text, ``ReadingOrder/characters``) this glyph draws.
    public var characterIndex: Int
  }

  /// An animated icon placed on the line: its frames are drawn over its place in the strip
  /// as time goes on (the strip itself holds the first).
  public struct PlacedAnimation: Sendable {
    /// The strip column and row of the picture's top left corner.
    public var x: Int, y: Int
    /// The frames and their delays.
    public var picture: Picture

    public init(x: Int, y: Int, picture: Picture) {
      self.x = x
      self.y = y
      self.picture = picture
    }

    /// This placement moved by `dx`, `dy`.
    public func moved(_ dx: Int, _ dy: Int) -> PlacedAnimation { PlacedAnimation(x: x + dx, y: y + dy, picture: picture) }
  }

  /// The result of laying a string out: where each glyph goes, and the strip's width.
  public struct Layout: Sendable {
    /// The glyphs in drawing order.
    public var glyphs: [PlacedGlyph]
    /// The animated icons among them.
    public var animations: [PlacedAnimation] = []
    /// The strip's width in pixels.
    public var width: Int
    /// The strip's height in pixels.
    public var height: Int
    /// The direction the text reads (``ReadingOrder/direction``).
    public var direction: TextDirection = .auto
    /// Letters drawn unjoined because no font in the chain has the form they need.
    public var unshaped: [Unicode.Scalar] = []
  }

  /// Lays a string out without drawing it.
  ///
  /// The line is as tall as the fonts that drew something need (the first font always
  /// counts), with every glyph on one baseline: fonts of different heights line up. Ink
  /// that reaches above a font's declared ascent or below its descent (accents on
  /// capitals in many X11 fonts) makes the line taller, so nothing drawn is ever cut.
  public func layout(_ text: String) -> Layout {
    // First pass: resolve glyphs and find the line's ascent and descent.
    let order = readingOrder(text)
    var resolved: [(base: Glyph, marks: [Glyph], index: Int)] = []
    var ascent = fonts.fonts[0].ascent, descent = fonts.fonts[0].descent
    func holdInk(of glyph: Glyph) {
      guard let rows = glyph.bitmap.litRows else { return }
      ascent = max(ascent, glyph.top - rows.lowerBound)
      descent = max(descent, rows.upperBound + 1 - glyph.top)
    }
    // A letter met again is not looked up again (fonts may draw a glyph at each lookup).
    var seen: [Unicode.Scalar: (Glyph, [Glyph], [Int])] = [:]
    for (index, character) in order.characters.enumerated() {
      let single = character.count == 1 ? character[0] : nil
      let found = single.flatMap { seen[$0] } ?? resolve(character)
      guard let (base, marks, used) = found else { continue }
      if let single, seen[single] == nil { seen[single] = found }
      for font in used {
        ascent = max(ascent, fonts.fonts[font].ascent)
        descent = max(descent, fonts.fonts[font].descent)
      }
      holdInk(of: base)
      marks.forEach(holdInk)
      resolved.append((base, marks, index))
    }
    // Second pass: place them on the baseline.
    var placed: [PlacedGlyph] = []
    var pen = 0, left = 0, right = 0
    for (number, item) in resolved.enumerated() {
      if number > 0 { pen += letterSpacing }
      let base = item.base
      placed.append(PlacedGlyph(glyph: base, x: pen + base.xOffset, y: ascent - base.top, characterIndex: item.index))
      left = min(left, pen + base.xOffset)
      right = max(right, pen + base.xOffset + base.bitmap.width)
      let after = pen + base.advance
      for mark in item.marks {
        // A mark that takes no room is placed from the end of its base, as BDF and Unifont
        // define it; a mark with its own cell is centred over the base.
        // Where a font's offset would leave the mark beside its base (Unifont gives Hebrew
        // points 0, meant for a renderer that moves leftwards), it is centred over it.
        let centred = pen + (base.advance - mark.bitmap.width) / 2
        var x = mark.advance == 0 ? after + mark.xOffset : centred
        if let ink = mark.bitmap.litColumns, x + ink.upperBound < pen || x + ink.lowerBound >= after { x = centred }
        placed.append(PlacedGlyph(glyph: mark, x: x, y: ascent - mark.top, characterIndex: item.index))
        left = min(left, x)
        right = max(right, x + mark.bitmap.width)
      }
      pen = after
      right = max(right, pen)
    }
    // Ink that reaches left of the first pen position moves the whole line right.
    if left < 0 {
      for index in placed.indices { placed[index].x -= left }
      right -= left
    }
    var layout = Layout(glyphs: placed, width: right, height: ascent + descent, direction: order.direction, unshaped: order.unshaped)
    if text.unicodeScalars.contains(IconText.marker) {
      for glyph in placed {
        guard let name = IconText.name(order.characters[glyph.characterIndex]), let animation = fonts.icons[name]?.animation,
          glyph.glyph.bitmap == animation.frames[0]
        else { continue }
        layout.animations.append(PlacedAnimation(x: glyph.x, y: glyph.y, picture: animation))
      }
    }
    return layout
  }

  /// The string prepared for drawing with this renderer's fonts and direction.
  public func readingOrder(_ text: String) -> ReadingOrder {
    ReadingOrder(text, direction: direction) { fonts.hasGlyph(for: $0) }
  }

  /// The direction a paragraph of `text` reads with this renderer: its ``direction`` when
  /// that is set, else from the first strong letter (``TextDirection/auto`` if none).
  public func paragraphDirection(_ text: String) -> TextDirection {
    direction == .auto ? BidiParagraph.firstStrongDirection(of: Array(text.unicodeScalars)) : direction
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

  /// The base glyph, the mark glyphs and the fonts they came from for one grapheme cluster,
  /// or `nil` if it draws nothing.
  func resolve(_ scalars: [Unicode.Scalar]) -> (Glyph, [Glyph], [Int])? {
    guard let first = scalars.first else { return nil }
    if TextRenderer.isInvisible(first) && scalars.count == 1 { return nil }
    if first == IconText.marker {
      // An icon, sized for the line of the first font; one the set lacks shows as the
      // fallback glyph (content checks the names before it gets here).
      let primary = fonts.fonts[0]
      guard let name = IconText.name(scalars), let icon = fonts.icons[name] else { return (fonts.fallback.glyph, [], [fonts.fallback.font]) }
      return (icon.glyph(ascent: primary.ascent, descent: primary.descent), [], [0])
    }
    var base = first
    var rest = Array(scalars.dropFirst())
    // A precomposed letter (NFC made é of e + U+0301) that no font has is drawn as its
    // letter with the marks over it, when a font has the letter.
    if !fonts.hasGlyph(for: first) {
      let parts = Normalization.decompose([first]).compactMap(Unicode.Scalar.init)
      if parts.count > 1, fonts.hasGlyph(for: parts[0]) {
        base = parts[0]
        rest = Array(parts.dropFirst()) + rest
      }
    }
    let (baseGlyph, baseFont) = fonts.source(for: base) ?? fonts.fallback
    var marks: [Glyph] = []
    var used = [baseFont]
    // Marks are drawn over the base when a font has them; marks no font has, and the
    // joined parts of emoji sequences, add nothing: the base already shows the character.
    for scalar in rest where scalar.properties.generalCategory.isMark {
      if let (glyph, font) = fonts.source(for: scalar) {
        marks.append(glyph)
        used.append(font)
      }
    }
    return (baseGlyph, marks, used)
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

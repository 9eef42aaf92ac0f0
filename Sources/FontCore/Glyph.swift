import MatrixCore

/// One character's bitmap and how it sits on the line.
///
/// Coordinates follow the usual bitmap-font model: the pen starts at the glyph's origin on
/// the baseline; the bitmap's left edge is `xOffset` pixels right of the pen, its top row is
/// `top` pixels above the baseline, and the pen then moves right by `advance`.
public struct Glyph: Sendable, Hashable {
  /// The glyph's pixels (its bounding box).
  public var bitmap: Framebuffer
  /// How far the pen moves after this glyph, in pixels.
  public var advance: Int
  /// The bitmap's left edge relative to the pen (negative: it reaches back).
  public var xOffset: Int
  /// The number of rows of the bitmap above the baseline (its top edge's height).
  public var top: Int

  /// Creates a glyph.
  public init(bitmap: Framebuffer, advance: Int, xOffset: Int = 0, top: Int) {
    self.bitmap = bitmap
    self.advance = advance
    self.xOffset = xOffset
    self.top = top
  }

  /// The number of bitmap rows below the baseline.
  public var descent: Int { bitmap.height - top }

  /// A hollow box `width` x `height` sitting on the baseline: the glyph drawn for a
  /// character no font has, so that nothing is dropped silently.
  public static func box(width: Int, height: Int) -> Glyph {
    var bitmap = Framebuffer(width: width, height: height)
    bitmap.fill(x: 0, y: 0, width: width, height: height, lit: true)
    bitmap.fill(x: 1, y: 1, width: width - 2, height: height - 2, lit: false)
    return Glyph(bitmap: bitmap, advance: width, top: height)
  }

  /// A glyph drawn from row bytes (bit x of byte y: pixel x of row y) of a cell `width` x
  /// `height`, trimmed to its lit columns unless `fullWidth` (digits, so clocks do not
  /// jiggle), its top row `top` rows above the baseline.
  static func drawn(fromRows word: UInt64, width: Int, height: Int, top: Int, fullWidth: Bool) -> Glyph {
    var columns: UInt64 = 0
    for y in 0..<height { columns |= word >> (8 * y) & (1 << width - 1) }
    var first = 0, last = width - 1
    if !fullWidth && columns != 0 {
      first = columns.trailingZeroBitCount
      last = 63 - columns.leadingZeroBitCount
    }
    var bitmap = Framebuffer(width: last - first + 1, height: height)
    for y in 0..<height {
      for x in first...last where word >> (8 * y + x) & 1 == 1 { bitmap[x - first, y] = true }
    }
    return Glyph(bitmap: bitmap, advance: bitmap.width, top: top)
  }
}

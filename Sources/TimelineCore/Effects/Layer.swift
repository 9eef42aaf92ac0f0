import MatrixCore

/// One side of a transition (the old text leaving or the new text entering) while effects
/// work on it.
///
/// A layer starts as its card (the message as it stands on the sign) fully covering the
/// area. Effects move its pixels, take away coverage (what the layer hides of the other),
/// dim it, or draw an overlay (cursors, blinds, sprites) on top of both layers.
public struct Layer: Sendable {
  /// The layer's pixels, the size of the animated area.
  public var pixels = Framebuffer(width: 0, height: 0)
  /// The pixels this layer owns: where it covers, its pixels are shown (lit or dark).
  public var coverage = Framebuffer(width: 0, height: 0)
  /// Pixels drawn over both layers where ``overlayCoverage`` is set.
  public var overlay = Framebuffer(width: 0, height: 0)
  /// Where the overlay is drawn.
  public var overlayCoverage = Framebuffer(width: 0, height: 0)
  /// Brightness of the layer's lit pixels, 0...1.
  public var brightness = 1.0

  /// The width of the area.
  public var width: Int { pixels.width }
  /// The height of the area.
  public var height: Int { pixels.height }

  /// Resets the layer to `card`, fully covering, with no overlay, at full brightness.
  mutating func load(_ card: Framebuffer) {
    FrameWorkspace.prepare(&pixels, width: card.width, height: card.height)
    FrameWorkspace.prepare(&coverage, width: card.width, height: card.height)
    FrameWorkspace.prepare(&overlay, width: card.width, height: card.height)
    FrameWorkspace.prepare(&overlayCoverage, width: card.width, height: card.height)
    pixels.assign(card)
    coverage.fill(true)
    overlay.clear()
    overlayCoverage.clear()
    brightness = 1
  }

  /// For effects that leave a layer as it is at its resting end (entering at 1, exiting at 0)
  /// and gone at the other: settles those two cases and returns whether the effect still
  /// has to draw the in-between.
  mutating func settle(progress q: Double, role: TransitionRole) -> Bool {
    if role == .entering ? q >= 1 : q <= 0 { return false }
    if role == .entering ? q <= 0 : q >= 1 {
      hide()
      return false
    }
    return true
  }

  /// Hides the whole layer.
  public mutating func hide() {
    pixels.clear()
    coverage.clear()
  }

  /// Keeps only the pixels where `visible(x, y)` holds: elsewhere the layer neither shows
  /// nor covers.
  public mutating func mask(_ visible: (Int, Int) -> Bool) {
    for y in 0..<height {
      for x in 0..<width where !visible(x, y) {
        pixels[x, y] = false
        coverage[x, y] = false
      }
    }
  }

  /// Keeps only the columns where `visible(x)` holds (a word-wise fill per column run).
  public mutating func maskColumns(_ visible: (Int) -> Bool) {
    var x = 0
    while x < width {
      let keep = visible(x)
      var end = x + 1
      while end < width, visible(end) == keep { end += 1 }
      if !keep {
        pixels.fill(x: x, y: 0, width: end - x, height: height, lit: false)
        coverage.fill(x: x, y: 0, width: end - x, height: height, lit: false)
      }
      x = end
    }
  }

  /// Keeps only the columns of `range` (with `inside` false, only those outside it).
  public mutating func keepColumns(_ range: Range<Int>, inside: Bool) {
    if inside {
      pixels.keepColumns(range)
      coverage.keepColumns(range)
    } else {
      pixels.fill(x: range.lowerBound, y: 0, width: range.count, height: height, lit: false)
      coverage.fill(x: range.lowerBound, y: 0, width: range.count, height: height, lit: false)
    }
  }

  /// Keeps only the rows where `visible(y)` holds.
  public mutating func maskRows(_ visible: (Int) -> Bool) {
    for y in 0..<height where !visible(y) {
      pixels.fill(x: 0, y: y, width: width, height: 1, lit: false)
      coverage.fill(x: 0, y: y, width: width, height: 1, lit: false)
    }
  }

  /// Keeps only the pixels whose ordered-dither rank is below `level` (0...64; with
  /// `inverted`, at or above it): a dissolve a word at a time.
  public mutating func keepDithered(below level: Double, inverted: Bool = false) {
    pixels.keepDithered(below: level, inverted: inverted)
    coverage.keepDithered(below: level, inverted: inverted)
  }

  /// Keeps only the pixels whose rank in `ranks` (one per pixel, row by row) is below
  /// `threshold` (with `inverted`, at or above it).
  public mutating func keepRanked(_ ranks: [Int32], below threshold: Double, inverted: Bool = false) {
    if coverage.litCount == width * height {
      // A full coverage becomes the mask itself: work it out once, apply it to the pixels.
      coverage.keepRanked(ranks, below: threshold, inverted: inverted)
      pixels.draw(coverage, atX: 0, y: 0, mode: .and)
    } else {
      pixels.keepRanked(ranks, below: threshold, inverted: inverted)
      coverage.keepRanked(ranks, below: threshold, inverted: inverted)
    }
  }

  /// Moves the layer (pixels and coverage) by `dx`, `dy`; what moves out is lost.
  public mutating func offset(dx: Int, dy: Int) {
    guard dx != 0 || dy != 0 else { return }
    pixels.shift(dx: dx, dy: dy)
    coverage.shift(dx: dx, dy: dy)
  }

  /// Scales the layer about the area's centre by `factor` (nearest neighbour).
  public mutating func scale(by factor: Double, scratch: inout Framebuffer) {
    guard factor != 1 else { return }
    guard factor > 0 else {
      hide()
      return
    }
    Layer.scale(&pixels, by: factor, scratch: &scratch)
    if coverage.litCount == width * height {
      coverage.fillScaledExtent(by: factor)  // a full coverage scales to a rectangle
    } else {
      Layer.scale(&coverage, by: factor, scratch: &scratch)
    }
  }

  static func scale(_ buffer: inout Framebuffer, by factor: Double, scratch: inout Framebuffer) {
    FrameWorkspace.prepare(&scratch, width: buffer.width, height: buffer.height)
    scratch.assign(buffer)
    buffer.drawScaled(scratch, by: factor)
  }

  /// Draws a lit overlay column (a cursor bar) at `x`, clipped to the area.
  public mutating func cursorColumn(at x: Int) {
    guard x >= 0, x < width else { return }
    overlay.fill(x: x, y: 0, width: 1, height: height, lit: true)
    overlayCoverage.fill(x: x, y: 0, width: 1, height: height, lit: true)
  }
}

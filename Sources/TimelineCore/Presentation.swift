import MatrixCore

/// How finished content is turned before it reaches the sign: inverted, mirrored or both.
///
/// Applied last, to the whole area, so every mode and every effect honours it.
public struct Presentation: Sendable, Equatable {
  /// Lit pixels become dark and dark ones lit.
  public var inverted: Bool
  /// Mirrored left to right.
  public var flippedHorizontally: Bool
  /// Mirrored top to bottom.
  public var flippedVertically: Bool

  /// Creates a presentation; the default changes nothing.
  public init(inverted: Bool = false, flippedHorizontally: Bool = false, flippedVertically: Bool = false) {
    self.inverted = inverted
    self.flippedHorizontally = flippedHorizontally
    self.flippedVertically = flippedVertically
  }

  /// Whether this presentation changes anything.
  public var isIdentity: Bool { !inverted && !flippedHorizontally && !flippedVertically }

  /// Applies the presentation to `pixels` in place, using `scratch` for mirroring.
  public func apply(to pixels: inout Framebuffer, scratch: inout Framebuffer) {
    if flippedHorizontally || flippedVertically {
      FrameWorkspace.prepare(&scratch, width: pixels.width, height: pixels.height)
      scratch.assign(pixels)
      let w = pixels.width, h = pixels.height
      for y in 0..<h {
        let sy = flippedVertically ? h - 1 - y : y
        for x in 0..<w {
          pixels[x, y] = scratch[flippedHorizontally ? w - 1 - x : x, sy]
        }
      }
    }
    if inverted { pixels.invert() }
  }
}

import FontCore
import MatrixCore

/// Animated icons over a drawn line: each shows the frame of its own delays at sign time
/// `t`, whatever the line is doing (standing, scrolling), so a spinning icon spins while
/// its text scrolls by.
enum IconAnimation {
  /// Draws each animation's frame at time `t`, offset by `x`, `y`, over what is there.
  static func draw(_ animations: [TextRenderer.PlacedAnimation], atX x: Int, y: Int, time t: Double, into pixels: inout Framebuffer) {
    for animation in animations {
      let frame = animation.picture.frames[animation.picture.frameIndex(at: t)]
      pixels.draw(frame, atX: x + animation.x, y: y + animation.y, mode: .copy)
    }
  }

  /// The first time after `t` at which one of the animations shows another frame.
  package static func nextChange(_ animations: [TextRenderer.PlacedAnimation], after t: Double) -> Double? {
    animations.compactMap { $0.picture.nextFrameChange(after: t) }.min()
  }

  /// The earlier of two change times.
  static func earlier(_ a: Double?, _ b: Double?) -> Double? {
    switch (a, b) {
    case (let a?, let b?): min(a, b)
    default: a ?? b
    }
  }
}

import TotalConversion
import MatrixCore

/// How new content takes over a zone from what it showed: the bridge between two contents.
public enum LeadIn: Sendable {
  /// No bridge: the new content starts at once.
  case cut
  /// The old picture scrolls away and the new content follows it in, at the speed of
  /// the scroll. `prefix` is what stays in front of the new content (the old picture and any
  /// gap), in the direction of travel.
  case scroll(prefix: Framebuffer, direction: ScrollDirection, speed: Double)
  /// A transition from the old picture to the new content's first frame.
  case transition(from: Framebuffer, Transition, EffectContext)

  /// How long the bridge lasts, in seconds.
  public var duration: Double {
    switch self {
    case .cut: 0
    case .scroll(let prefix, _, let speed): speed > 0 ? Double(prefix.width) / speed : 0
    case .transition(_, let transition, _): max(0, transition.duration)
    }
  }

  /// Draws the bridge at `u` seconds into it, ending on `target` (the new content's frame at
  /// its time 0).
  package func render(
    at u: Double, target: Framebuffer, into frame: inout Frame, workspace: inout FrameWorkspace
  ) {
    frame.brightness = 1
    switch self {
    case .cut:
      frame.pixels.assign(target)
    case .scroll(let prefix, let direction, let speed):
      let offset = min(prefix.width, Int(saturating: (speed * u + 1e-9).rounded(.down)))
      frame.pixels.clear()
      switch direction {
      case .left, .auto:
        frame.pixels.draw(prefix, atX: -offset, y: 0)
        frame.pixels.draw(target, atX: prefix.width - offset, y: 0)
      case .right:
        frame.pixels.draw(prefix, atX: frame.width - prefix.width + offset, y: 0)
        frame.pixels.draw(target, atX: offset - prefix.width, y: 0)
      }
    case .transition(let from, let transition, let context):
      let duration = max(transition.duration, 1e-9)
      frame.brightness = transition.render(
        from: from, to: target, progress: min(1, u / duration), context: context,
        into: &frame.pixels, workspace: &workspace)
    }
  }
}

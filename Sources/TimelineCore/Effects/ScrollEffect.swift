import MatrixCore

/// Scroll (push) in one of eight directions: the old content leaves one way while the new
/// content follows it in from the other side, both moving together.
///
/// Straight scrolls travel the area's width (left, right) or height (up, down); diagonals
/// travel the height along both axes, as MD_Parola's do, but never draw outside the area.
public final class ScrollEffect: TransitionEffect {
  /// Horizontal direction of travel: -1 left, 0 none, 1 right.
  public let dx: Int
  /// Vertical direction of travel: -1 up, 0 none, 1 down.
  public let dy: Int
  public let name: String

  init(dx: Int, dy: Int, name: String) {
    (self.dx, self.dy, self.name) = (dx, dy, name)
  }
  public var summary: String {
    "the new text pushes the old one out, both moving \(name.dropFirst("scroll-".count))"
  }
  public var timing: EffectTiming { .together }
  public var stage: EffectStage { .geometry }

  /// The eight scrolls.
  public static let all: [ScrollEffect] = [
    ScrollEffect(dx: 0, dy: -1, name: "scroll-up"),
    ScrollEffect(dx: 0, dy: 1, name: "scroll-down"),
    ScrollEffect(dx: -1, dy: 0, name: "scroll-left"),
    ScrollEffect(dx: 1, dy: 0, name: "scroll-right"),
    ScrollEffect(dx: -1, dy: -1, name: "scroll-up-left"),
    ScrollEffect(dx: 1, dy: -1, name: "scroll-up-right"),
    ScrollEffect(dx: -1, dy: 1, name: "scroll-down-left"),
    ScrollEffect(dx: 1, dy: 1, name: "scroll-down-right"),
  ]

  /// The distance travelled along each moving axis.
  func distance(_ context: EffectContext) -> (x: Int, y: Int) {
    if dy == 0 { return (context.width, 0) }
    if dx == 0 { return (0, context.height) }
    return (context.height, context.height)
  }

  public func apply(
    to layer: inout Layer, progress q: Double, role: TransitionRole, context: EffectContext,
    scratch: inout Framebuffer
  ) {
    let (distanceX, distanceY) = distance(context)
    let travelledX = Int((Double(distanceX) * q).rounded())
    let travelledY = Int((Double(distanceY) * q).rounded())
    switch role {
    case .exiting:
      layer.offset(dx: dx * travelledX, dy: dy * travelledY)
      if q >= 1 { layer.hide() }
    case .entering:
      if q <= 0 {
        layer.hide()
      } else {
        layer.offset(dx: -dx * (distanceX - travelledX), dy: -dy * (distanceY - travelledY))
      }
    }
  }
}

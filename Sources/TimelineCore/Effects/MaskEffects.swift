import MatrixCore

/// Effects that reveal the new content and hide the old through a moving mask, both at
/// once: the entering layer shows where the mask is open and the exiting layer where it is
/// closed, so together they always fill the area.
public final class MaskEffect: TransitionEffect {
  /// The shapes of mask.
  public enum Shape: Sendable {
    /// A vertical edge moving right (`true`) or left, with a lit bar at the edge if `cursor`.
    case wipe(towardsRight: Bool, cursor: Bool)
    /// Revealed from the centre outwards, with lit bars at both edges if `cursor`.
    case opening(cursor: Bool)
    /// Revealed from both ends inwards, with lit bars at both edges if `cursor`.
    case closing(cursor: Bool)
    /// Revealed row by row from the bottom (`true`) or the top.
    case grow(up: Bool)
    /// Pixels trade places in a fixed ordered-dither order.
    case dissolve
    /// Pixels trade places in a seeded random order, fixed per area.
    case random
  }

  public let shape: Shape
  public let name: String
  public let summary: String

  init(shape: Shape, name: String, summary: String) {
    (self.shape, self.name, self.summary) = (shape, name, summary)
  }
  public var timing: EffectTiming { .together }
  public var stage: EffectStage { .mask }

  /// The mask effects of the catalog.
  public static let all: [MaskEffect] = [
    MaskEffect(shape: .wipe(towardsRight: true, cursor: false), name: "wipe-right",
               summary: "an edge moving right reveals the new text column by column"),
    MaskEffect(shape: .wipe(towardsRight: false, cursor: false), name: "wipe-left",
               summary: "an edge moving left reveals the new text column by column"),
    MaskEffect(shape: .wipe(towardsRight: true, cursor: true), name: "wipe-cursor-right",
               summary: "a lit bar moving right wipes the old text into the new"),
    MaskEffect(shape: .wipe(towardsRight: false, cursor: true), name: "wipe-cursor-left",
               summary: "a lit bar moving left wipes the old text into the new"),
    MaskEffect(shape: .opening(cursor: false), name: "opening",
               summary: "the new text opens from the centre outwards"),
    MaskEffect(shape: .opening(cursor: true), name: "opening-cursor",
               summary: "lit bars move from the centre outwards, opening on the new text"),
    MaskEffect(shape: .closing(cursor: false), name: "closing",
               summary: "the new text closes in from both ends towards the centre"),
    MaskEffect(shape: .closing(cursor: true), name: "closing-cursor",
               summary: "lit bars move from both ends to the centre, closing on the new text"),
    MaskEffect(shape: .grow(up: true), name: "grow-up",
               summary: "the new text grows row by row from the bottom"),
    MaskEffect(shape: .grow(up: false), name: "grow-down",
               summary: "the new text grows row by row from the top"),
    MaskEffect(shape: .dissolve, name: "cross-fade",
               summary: "a 1-bit cross fade: pixels dissolve into the new text in a fixed dither order"),
    MaskEffect(shape: .random, name: "random",
               summary: "pixels of the new text appear in a seeded random order"),
  ]

  public func apply(
    to layer: inout Layer, progress q: Double, role: TransitionRole, context: EffectContext,
    scratch: inout Framebuffer
  ) {
    let w = context.width, h = context.height
    // `open(...)` is where the entering layer shows; the exiting layer shows elsewhere.
    let entering = role == .entering
    switch shape {
    case .wipe(let towardsRight, let cursor):
      let edge = Int((Double(w) * q).rounded())
      let boundary = towardsRight ? edge : w - edge
      layer.maskColumns { x in (towardsRight ? x < boundary : x >= boundary) == entering }
      if cursor, q > 0, q < 1 { layer.cursorColumn(at: towardsRight ? boundary : boundary - 1) }
    case .opening(let cursor), .closing(let cursor):
      let isOpening = if case .opening = shape { true } else { false }
      let half = Double(w) / 2
      let reach = isOpening ? q * half : (1 - q) * half
      // The middle columns, within `reach` of the centre: open when opening, closed when
      // closing.
      var low = w, high = 0
      for x in 0..<w where abs(Double(x) + 0.5 - half) < reach {
        low = min(low, x)
        high = x + 1
      }
      let middle = low < high ? low..<high : 0..<0
      // The entering layer shows where it is open, the exiting one elsewhere.
      layer.keepColumns(middle, inside: isOpening == entering)
      if cursor, q > 0, q < 1, !middle.isEmpty {
        // Bars just outside the middle, where open meets closed.
        if middle.lowerBound > 0 { layer.cursorColumn(at: middle.lowerBound - 1) }
        if middle.upperBound < w { layer.cursorColumn(at: middle.upperBound) }
      }
    case .grow(let up):
      let rows = Int((Double(h) * q).rounded())
      layer.maskRows { y in (up ? y >= h - rows : y < rows) == entering }
    case .dissolve:
      layer.keepDithered(below: q * 64, inverted: !entering)
    case .random:
      layer.keepRanked(context.randomRank, below: q * Double(w * h), inverted: !entering)
    }
  }
}

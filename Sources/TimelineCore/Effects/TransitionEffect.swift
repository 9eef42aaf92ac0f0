import MatrixCore

/// Which side of a transition an effect works on.
public enum TransitionRole: Sendable {
  /// The new content coming in.
  case entering
  /// The old content going out.
  case exiting
}

/// When, within a transition, an effect does its work.
public enum EffectTiming: Sendable {
  /// Over the whole transition, at the same time as the other side (pushes, wipes,
  /// dissolves): the new text replaces the old as the effect runs.
  case together
  /// The exit in the first half, the entry in the second (fades, zooms, scans, blinds,
  /// sprites): the old text goes, then the new text comes.
  case halves

  /// The effect's own progress for the transition's progress `p`: 0 where the effect starts,
  /// 1 where it is done.
  public func phase(_ p: Double, role: TransitionRole) -> Double {
    switch (self, role) {
    case (.together, _): return p
    case (.halves, .exiting): return min(1, 2 * p)
    case (.halves, .entering): return max(0, 2 * p - 1)
    }
  }
}

/// What effects may read besides the layer: the area's size and the per-area tables
/// (random order, dither order, sprite) built once with the timeline.
public struct EffectContext: Sendable {
  /// The width of the animated area.
  public let width: Int
  /// The height of the animated area.
  public let height: Int
  /// A seeded random rank for every pixel (row-major), 0..<width*height.
  public let randomRank: [Int32]
  /// The sprite that walks across in the sprite effect.
  public let sprite: Sprite

  /// Builds the tables for a `width` x `height` area; `seed` makes random effects
  /// reproducible (and different per zone when zones use different seeds).
  public init(width: Int, height: Int, seed: UInt64 = 0x5EED, sprite: Sprite = .pacman) {
    self.width = width
    self.height = height
    self.sprite = sprite
    // Counted by hand: a content change builds this, and a debug build's ranges and
    // enumerations cost more than the shuffle.
    let count = width * height
    var order = [Int](repeating: 0, count: count)
    var index = 0
    while index < count {
      order[index] = index
      index += 1
    }
    var random = SplitMix64(seed: seed)
    order.shuffle(using: &random)
    var ranks = [Int32](repeating: 0, count: count)
    index = 0
    while index < count {
      ranks[order[index]] = Int32(truncatingIfNeeded: index)
      index += 1
    }
    randomRank = ranks
  }
}

/// One transition effect: it changes a layer for a progress and a role.
///
/// An effect is used on its own (`--in wipe-right`) or combined with others
/// (`--out fade+scroll-up`): each option of a combination applies to the same layer, each
/// with its own timing, in the order geometry, masks, light, overlays.
public protocol TransitionEffect: AnyObject, Sendable {
  /// The name used on the command line (`scroll-up`).
  var name: String { get }
  /// One line saying what the pixels do.
  var summary: String { get }
  /// When the effect works within a transition.
  var timing: EffectTiming { get }
  /// Where the effect stands in a combination (lower applies first).
  var stage: EffectStage { get }
  /// Changes `layer` at the effect's own progress `q` (0...1, from ``timing``).
  ///
  /// Entering at `q = 0` must leave nothing of the layer visible; entering at `q = 1` must
  /// leave the card as it was. Exiting is the reverse.
  func apply(
    to layer: inout Layer, progress q: Double, role: TransitionRole, context: EffectContext,
    scratch: inout Framebuffer)
}

/// The order in which combined effects apply.
public enum EffectStage: Int, Sendable, Comparable {
  case geometry, mask, light, overlay

  public static func < (a: EffectStage, b: EffectStage) -> Bool { a.rawValue < b.rawValue }
}

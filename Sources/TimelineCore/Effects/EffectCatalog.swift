import MatrixCore

/// Every built-in transition effect, by name.
public enum EffectCatalog {
  /// All effects, in the order `marquee effects` lists them.
  public static let all: [any TransitionEffect] = {
    // Each effect wrapped one by one (an array's upcast is a dynamic cast, which Embedded
    // Swift lacks).
    var pool: [any TransitionEffect] = PhasedEffect.all.map { $0 as any TransitionEffect }
    pool += ScrollEffect.all.map { $0 as any TransitionEffect }
    pool += MaskEffect.all.map { $0 as any TransitionEffect }
    pool += [BlindsEffect(), MeshEffect(), SliceEffect(), SpriteEffect()] as [any TransitionEffect]
    let order = [
      "print", "scroll-up", "scroll-down", "scroll-left", "scroll-right", "scroll-up-left",
      "scroll-up-right", "scroll-down-left", "scroll-down-right", "fade", "cross-fade", "random",
      "zoom-in", "zoom-out", "scale-fade-in", "scale-fade-out", "wipe-right", "wipe-left",
      "wipe-cursor-right", "wipe-cursor-left", "opening", "opening-cursor", "closing",
      "closing-cursor", "blinds", "mesh", "slice", "scan-horizontal", "scan-horizontal-x",
      "scan-vertical", "scan-vertical-x", "grow-up", "grow-down", "sprite",
    ]
    precondition(order.count == pool.count, "every effect must be listed once")
    return order.map { name in pool.first { $0.name == name }! }
  }()

  /// Other names users know effects by.
  public static let aliases: [String: String] = [
    "cut": "print", "dissolve": "cross-fade", "crossfade": "cross-fade",
    "wipe": "wipe-right", "wipe-cursor": "wipe-cursor-right",
    "scan-horiz": "scan-horizontal", "scan-vert": "scan-vertical",
  ]

  /// The effect with this name (or alias), or `nil`.
  public static func effect(named name: String) -> (any TransitionEffect)? {
    let name = name.lowercased()
    let canonical = aliases[name] ?? name
    return all.first { $0.name == canonical }
  }

  /// Why an effect list could not be read.
  public struct UnknownEffect: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name that is not an effect.
    public var name: String
    /// A close name, if there is one.
    public var suggestion: String?

    public var description: String {
      "unknown effect '\(name)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
        + "; 'marquee effects' lists them"
    }
  }

  /// Parses `name[+name...]` into the effects to combine.
  public static func parse(_ list: String) throws(UnknownEffect) -> [any TransitionEffect] {
    var effects: [any TransitionEffect] = []
    for part in list.split(separator: "+", omittingEmptySubsequences: false) {
      let name = part.trimmingSpaces()
      guard let effect = effect(named: name) else {
        throw UnknownEffect(name: name, suggestion: closest(to: name))
      }
      effects.append(effect)
    }
    return effects
  }

  static func closest(to name: String) -> String? {
    closestName(to: name, among: all.map { $0.name })
  }
}

extension Substring {
  func trimmingSpaces() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}

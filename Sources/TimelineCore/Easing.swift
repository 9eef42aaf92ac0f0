/// How a transition's progress follows time.
public enum Easing: String, Sendable, CaseIterable {
  /// Constant speed.
  case linear
  /// Starts slowly, ends fast.
  case easeIn = "ease-in"
  /// Starts fast, ends slowly.
  case easeOut = "ease-out"
  /// Slow at both ends.
  case easeInOut = "ease-in-out"

  /// The eased progress for linear progress `p` in 0...1; 0 and 1 are kept exactly.
  public func apply(_ p: Double) -> Double {
    let p = min(1, max(0, p))
    switch self {
    case .linear: return p
    case .easeIn: return p * p
    case .easeOut: return 1 - (1 - p) * (1 - p)
    case .easeInOut: return p < 0.5 ? 2 * p * p : 1 - 2 * (1 - p) * (1 - p)
    }
  }
}

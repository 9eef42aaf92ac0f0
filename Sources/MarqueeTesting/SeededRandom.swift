import MatrixCore

/// A deterministic random generator for tests (the engine's own SplitMix64): the same seed
/// gives the same sequence on every machine, so a failing randomized test reproduces.
public typealias SeededRandom = SplitMix64

extension SplitMix64 {
  /// Creates a generator from a seed (the name tests use).
  public init(state: UInt64) { self.init(seed: state) }
}

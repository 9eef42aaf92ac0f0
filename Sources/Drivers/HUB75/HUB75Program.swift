/// One refresh of a HUB75 sign as the GPIO registers see it: words for the set and clear
/// registers, in order, and output-enable pulses, each lighting the latched row pair for its
/// bitplane's time. The scanning loop runs it again and again; `--hub75-dump` writes it.
///
/// Each step is one 32-bit word: the GPIO mask in bits 0-27 and the kind in bits 30-31.
public struct HUB75Program: ByteBatch, Sendable, Equatable {
  /// One step.
  public enum Step: Equatable, Sendable {
    /// A word written to the set register: the lines of the mask go high.
    case set(UInt32)
    /// A word written to the clear register: the lines of the mask go low.
    case clear(UInt32)
    /// One output-enable pulse: the latched row pair lights for 2^plane time units.
    case pulse(plane: Int)
  }

  static let setTag: UInt32 = 0, clearTag: UInt32 = 1 << 30, pulseTag: UInt32 = 2 << 30
  static let tagMask: UInt32 = 3 << 30

  /// The steps, encoded.
  public internal(set) var words: [UInt32] = []
  /// The share of each pulse's time the LEDs are lit (brightness by the OE duty), 0 for a
  /// dark sign (nothing to run).
  public internal(set) var onFraction = 0.0
  /// The refreshes the program holds: 1, or 2^d with d dither bits (each shows the low
  /// bits of the levels in its turn).
  public internal(set) var refreshes = 1

  public init() {}

  /// Makes room for `count` words, so that writing that many allocates nothing.
  public mutating func reserveCapacity(_ count: Int) {
    words.reserveCapacity(count)
  }

  /// An empty program, dark, keeping its storage.
  public mutating func removeAll() {
    words.removeAll(keepingCapacity: true)
    onFraction = 0
    refreshes = 1
  }

  /// The steps, decoded.
  public var steps: [Step] { words.map(HUB75Program.step) }

  /// A step's meaning.
  @inline(__always)
  static func step(_ word: UInt32) -> Step {
    switch word & tagMask {
    case setTag: .set(word & ~tagMask)
    case clearTag: .clear(word & ~tagMask)
    default: .pulse(plane: Int(word & ~tagMask))
    }
  }

  mutating func set(_ mask: UInt32) {
    if mask != 0 { words.append(HUB75Program.setTag | mask) }
  }

  mutating func clear(_ mask: UInt32) {
    if mask != 0 { words.append(HUB75Program.clearTag | mask) }
  }

  /// Drives the lines of `mask` to the levels of `high`: the clear word, then the set word.
  mutating func write(high: UInt32, mask: UInt32) {
    clear(mask & ~high)
    set(high & mask)
  }

  mutating func pulse(plane: Int) {
    words.append(HUB75Program.pulseTag | UInt32(plane))
  }

  /// Appends a step.
  public mutating func append(_ step: Step) {
    switch step {
    case .set(let mask): set(mask)
    case .clear(let mask): clear(mask)
    case .pulse(let plane): pulse(plane: plane)
    }
  }

  /// Makes this program a copy of `other`, reusing its storage.
  mutating func assign(_ other: HUB75Program) {
    words.removeAll(keepingCapacity: true)
    // The other's room, not only its words: a copy of the encoder's output then has the
    // room of the longest refresh from the first frame on.
    words.reserveCapacity(other.words.capacity)
    words.append(contentsOf: other.words)
    onFraction = other.onFraction
    refreshes = other.refreshes
  }
}

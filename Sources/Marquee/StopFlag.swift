import Synchronization

/// A flag that asks a running player to stop, or to wake up and draw, settable from any
/// thread (a signal handler's queue, a feed reader, a test).
public final class StopFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  private let signal = Atomic<Int32>(0)
  private let wakes = Atomic<UInt64>(0)
  /// The flag this one follows: set when it is, woken when it is.
  private let parent: StopFlag?

  /// Creates a flag that is not set.
  public init() { parent = nil }

  /// Creates a flag that is set when `parent` is (a stop of the whole program) or when set
  /// itself (a stop of one part of it: the display loop, while a finder borrows the panel),
  /// and wakes when either wakes.
  public init(following parent: StopFlag) { self.parent = parent }

  /// Asks the player to stop; `signal` records which signal asked, if any.
  public func set(signal number: Int32 = 0) {
    signal.store(number, ordering: .relaxed)
    flag.store(true, ordering: .releasing)
  }

  /// Whether stopping was asked for.
  public var isSet: Bool { flag.load(ordering: .acquiring) || parent?.isSet == true }

  /// The signal that asked to stop, or 0.
  public var signalNumber: Int32 {
    let own = signal.load(ordering: .relaxed)
    return own != 0 ? own : parent?.signalNumber ?? 0
  }

  /// Wakes a sleeping player without stopping it (the content changed: draw now).
  public func wake() {
    wakes.add(1, ordering: .releasing)
  }

  /// How many times ``wake()`` was called; a sleep ends when it changes.
  public var wakeCount: UInt64 { wakes.load(ordering: .acquiring) &+ (parent?.wakeCount ?? 0) }
}

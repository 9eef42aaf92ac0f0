import Synchronization

/// A flag that asks a running player to stop, or to wake up and draw, settable from any
/// thread (a signal handler's queue, a feed reader, a test).
public final class StopFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  private let signal = Atomic<Int32>(0)
  private let wakes = Atomic<UInt64>(0)

  /// Creates a flag that is not set.
  public init() {}

  /// Asks the player to stop; `signal` records which signal asked, if any.
  public func set(signal number: Int32 = 0) {
    signal.store(number, ordering: .relaxed)
    flag.store(true, ordering: .releasing)
  }

  /// Whether stopping was asked for.
  public var isSet: Bool { flag.load(ordering: .acquiring) }

  /// The signal that asked to stop, or 0.
  public var signalNumber: Int32 { signal.load(ordering: .relaxed) }

  /// Wakes a sleeping player without stopping it (the content changed: draw now).
  public func wake() {
    wakes.add(1, ordering: .releasing)
  }

  /// How many times ``wake()`` was called; a sleep ends when it changes.
  public var wakeCount: UInt64 { wakes.load(ordering: .acquiring) }
}

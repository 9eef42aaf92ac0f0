import Platform

/// The time source a player paces frames with, in nanoseconds on a monotonic scale.
public protocol PlayerClock {
  /// The current time in nanoseconds.
  func now() -> Int64
  /// Sleeps until `deadline` (absolute, in the clock's nanoseconds), until `stop` is set or
  /// until it is woken (``StopFlag/wake()``), whichever comes first.
  func sleep(until deadline: Int64, stop: StopFlag)
  /// Sleeps like ``sleep(until:stop:)`` while nothing is shown (the display asleep), where
  /// a stop or a wake may be noticed a little later in exchange for fewer wake-ups.
  func rest(until deadline: Int64, stop: StopFlag)
}

extension PlayerClock {
  public func rest(until deadline: Int64, stop: StopFlag) { sleep(until: deadline, stop: stop) }
}

/// The system's monotonic clock (Platform's `SystemClock`, the kernel's `CLOCK_MONOTONIC`,
/// as `SignClock.system` reads it), slept on with absolute deadlines so that time spent
/// rendering never adds up into drift.
public struct MonotonicClock: PlayerClock {
  /// The longest single sleep, so that a stop request is noticed promptly even while
  /// the sign is still.
  public var stopCheckInterval: Int64 = 50_000_000

  /// Creates the clock.
  public init() {}

  public func now() -> Int64 {
    SystemClock.monotonicNanoseconds()
  }

  /// The longest single sleep while the display is asleep: four wake-ups a second.
  public var restCheckInterval: Int64 = 250_000_000

  public func sleep(until deadline: Int64, stop: StopFlag) {
    sleep(until: deadline, stop: stop, slice: stopCheckInterval)
  }

  public func rest(until deadline: Int64, stop: StopFlag) {
    sleep(until: deadline, stop: stop, slice: restCheckInterval)
  }

  func sleep(until deadline: Int64, stop: StopFlag, slice: Int64) {
    let wakes = stop.wakeCount
    while !stop.isSet && stop.wakeCount == wakes {
      let current = now()
      if current >= deadline { return }
      SystemClock.sleep(until: min(deadline, current + slice))
    }
  }
}

/// A clock that only moves when told: sleeping jumps straight to the deadline. Tests and
/// offline rendering use it to run a player without waiting.
public final class ManualClock: PlayerClock, @unchecked Sendable {
  /// The current time in nanoseconds.
  public private(set) var current: Int64
  /// Every deadline slept until, in order (what the player asked for).
  public private(set) var sleeps: [Int64] = []

  /// Creates a clock reading `start`.
  public init(start: Int64 = 0) {
    current = start
  }

  public func now() -> Int64 { current }

  public func sleep(until deadline: Int64, stop: StopFlag) {
    sleeps.append(deadline)
    if deadline > current { current = deadline }
  }

  /// Moves the clock forward, as if work took `nanoseconds`.
  public func advance(by nanoseconds: Int64) {
    current += nanoseconds
  }
}

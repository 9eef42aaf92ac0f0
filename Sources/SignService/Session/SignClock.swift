import Platform
import Synchronization

/// The one clock a running sign reads, apart from the player's frame pacing: the wall
/// clock (Unix time: schedules, `{time}`, what is kept until when) and the monotonic clock
/// (lifetimes, wakes, how long things last), named apart so that an NTP jump at boot moves
/// the one and not the other. Tests give a ``ManualSignClock`` and advance it by hand.
public struct SignClock: Sendable {
  /// Unix time, in seconds.
  public var wall: @Sendable () -> Double
  /// Seconds since some fixed moment, never set back.
  public var monotonic: @Sendable () -> Double
  /// Whether the wall clock looks set (the kernel's NTP state).
  public var wallIsSet: @Sendable () -> Bool

  public init(wall: @escaping @Sendable () -> Double, monotonic: @escaping @Sendable () -> Double, wallIsSet: @escaping @Sendable () -> Bool) {
    self.wall = wall
    self.monotonic = monotonic
    self.wallIsSet = wallIsSet
  }

  /// The system's clocks: `CLOCK_REALTIME`, `CLOCK_MONOTONIC` and the kernel's NTP state.
  public static let system = SignClock(
    wall: { SystemClock.wallSeconds() }, monotonic: { SystemClock.monotonicSeconds() }, wallIsSet: { KernelClock.isSynchronized() })

  /// The monotonic clock in nanoseconds, saturating.
  public var monotonicNanoseconds: Int64 { monotonic().saturatingNanoseconds }
}

/// A clock a test sets and advances: both clocks move together unless the wall clock is
/// set apart (`setWall`), as NTP does at boot.
public final class ManualSignClock: Sendable {
  let now: Mutex<(wall: Double, monotonic: Double, set: Bool)>

  public init(wall: Double, monotonic: Double = 1000, wallIsSet: Bool = true) {
    now = Mutex((wall, monotonic, wallIsSet))
  }

  /// Moves both clocks on by `seconds`.
  public func advance(by seconds: Double) {
    now.withLock { now in
      now.wall += seconds
      now.monotonic += seconds
    }
  }

  /// Sets the wall clock alone (a clock jump), and whether it looks set.
  public func setWall(_ wall: Double, isSet: Bool = true) {
    now.withLock { now in
      now.wall = wall
      now.set = isSet
    }
  }

  public var wall: Double { now.withLock { $0.wall } }
  public var monotonic: Double { now.withLock { $0.monotonic } }

  /// The sign's clock reading this one.
  public var clock: SignClock {
    SignClock(wall: { self.wall }, monotonic: { self.monotonic }, wallIsSet: { self.now.withLock { $0.set } })
  }
}

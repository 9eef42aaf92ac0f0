import Synchronization
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one clock a running sign reads: the wall clock (Unix time: schedules, `{time}`, what
/// is kept until when) and the monotonic clock (lifetimes, wakes, MQTT's keep-alive and
/// pauses, how long things last), named apart so that an NTP jump at boot
/// moves the one and not the other, and a sleep on the monotonic clock. Tests give a
/// ``ManualSignClock`` and move it by hand; nothing then waits for real time to pass.
///
/// The player paces frames through its own seam (`PlayerClock`, with `ManualClock` for
/// tests) and the HUB12 and HUB75 scanners time their light on the kernel's clock: both
/// drive hardware in real time.
public struct SignClock: Sendable {
  /// Unix time, in seconds.
  public var wall: @Sendable () -> Double
  /// Seconds since some fixed moment, never set back.
  public var monotonic: @Sendable () -> Double
  /// Whether the wall clock looks set (the kernel's NTP state).
  public var wallIsSet: @Sendable () -> Bool
  /// Waits `seconds` on the monotonic clock (at most; a caller that must notice a stop
  /// sleeps in short steps).
  public var sleep: @Sendable (_ seconds: Double) -> Void

  public init(
    wall: @escaping @Sendable () -> Double, monotonic: @escaping @Sendable () -> Double, wallIsSet: @escaping @Sendable () -> Bool,
    sleep: @escaping @Sendable (_ seconds: Double) -> Void = SignClock.kernelSleep
  ) {
    self.wall = wall
    self.monotonic = monotonic
    self.wallIsSet = wallIsSet
    self.sleep = sleep
  }

  /// The system's clocks: `CLOCK_REALTIME`, `CLOCK_MONOTONIC` and the kernel's NTP state.
  public static let system = SignClock(
    wall: { SystemClock.wallSeconds() }, monotonic: { SystemClock.monotonicSeconds() }, wallIsSet: { KernelClock.isSynchronized() })

  /// Sleeps `seconds` on the kernel's monotonic clock.
  @Sendable public static func kernelSleep(_ seconds: Double) {
    guard seconds > 0 else { return }
    SystemClock.sleep(until: SystemClock.monotonicNanoseconds() &+ seconds.saturatingNanoseconds)
  }

  /// The monotonic clock in nanoseconds, saturating.
  public var monotonicNanoseconds: Int64 { monotonic().saturatingNanoseconds }
}

/// A clock a test sets and advances: both clocks move together unless the wall clock is
/// set apart (`setWall`), as NTP does at boot. A sleep on it returns once the test has
/// moved the clock past its end, so a test knows a thread is waiting (``sleepers``) and
/// wakes it by moving time, never by waiting for it.
public final class ManualSignClock: Sendable {
  let now: Mutex<(wall: Double, monotonic: Double, set: Bool, sleepers: Int, free: Bool)>

  public init(wall: Double, monotonic: Double = 1000, wallIsSet: Bool = true) {
    now = Mutex((wall, monotonic, wallIsSet, 0, false))
  }

  /// From now on no sleep waits, so that threads asleep on the clock notice a stop (a
  /// test's teardown).
  public func runFree() { now.withLock { $0.free = true } }

  /// Whether ``runFree()`` was called.
  public var runsFree: Bool { now.withLock { $0.free } }

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
  /// How many threads sleep on the clock now.
  public var sleepers: Int { now.withLock { $0.sleepers } }

  /// Blocks until the clock has moved `seconds` on (checking each millisecond of real time).
  public func sleep(_ seconds: Double) {
    let end = now.withLock { now in
      now.sleepers += 1
      return now.monotonic + seconds
    }
    while monotonic < end && !runsFree { SignClock.kernelSleep(0.001) }
    now.withLock { $0.sleepers -= 1 }
  }

  /// The sign's clock reading this one.
  public var clock: SignClock {
    SignClock(wall: { self.wall }, monotonic: { self.monotonic }, wallIsSet: { self.now.withLock { $0.set } }, sleep: { self.sleep($0) })
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The kernel's clocks in one place: the monotonic clock the frame loop, the scanner and the
/// timeouts run on, the wall clock the schedule reads, and a thread's CPU time.
public enum SystemClock {
  /// Nanoseconds of CLOCK_MONOTONIC: never set, never jumps, stops in suspend.
  @inlinable
  public static func monotonicNanoseconds() -> Int64 {
    nanoseconds(CLOCK_MONOTONIC)
  }

  /// Seconds of CLOCK_MONOTONIC.
  @inlinable
  public static func monotonicSeconds() -> Double {
    Double(monotonicNanoseconds()) / 1e9
  }

  /// Nanoseconds of the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID).
  @inlinable
  public static func threadCPUNanoseconds() -> Int64 {
    nanoseconds(CLOCK_THREAD_CPUTIME_ID)
  }

  /// Seconds since the Unix epoch on the wall clock (CLOCK_REALTIME), which can be set.
  @inlinable
  public static func wallSeconds() -> Double {
    Double(nanoseconds(CLOCK_REALTIME)) / 1e9
  }

  /// Sleeps until the monotonic clock reads `deadline` (nanoseconds); a signal does not cut
  /// it short.
  public static func sleep(until deadline: Int64) {
    var spec = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    _ = retryingWhileErrorCodeIsInterrupted { clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) }
  }

  @usableFromInline
  static func nanoseconds(_ clock: clockid_t) -> Int64 {
    var spec = timespec()
    clock_gettime(clock, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
  }
}

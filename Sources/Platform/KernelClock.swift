import CPlatform
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the kernel knows of the wall clock: whether NTP has set it, and a notice when
/// anyone sets it.
public enum KernelClock {
  /// Whether the wall clock looks set: the kernel's NTP state (`adjtimex`) is synchronized,
  /// as `timedatectl` shows it ("System clock synchronized: yes"). A Pi without a real-time
  /// clock boots unsynchronized and stays so until NTP (or a person) sets the time.
  public static func isSynchronized() -> Bool {
    marquee_clock_synchronized() != 0
  }
}

/// A timerfd that becomes readable when the wall clock is set (`TFD_TIMER_CANCEL_ON_SET`):
/// the kernel's own notice of a jump, on top of comparing the wall clock with the monotonic
/// one. Closed when released.
public final class ClockSetNotice {
  let owner: FileDescriptor
  var descriptor: Int32 { owner.raw }

  /// Arms the notice; nil where the kernel has no timerfd (then only the comparison sees a jump).
  public init?() {
    let descriptor = marquee_clock_set_notice()
    guard descriptor >= 0 else { return nil }
    owner = FileDescriptor(owning: descriptor)
  }


  /// Waits up to `milliseconds` for the clock to be set; true when it was (and re-arms).
  public func wait(milliseconds: Int32) -> Bool {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, milliseconds) > 0 else { return false }
    var expirations: UInt64 = 0
    let result = read(descriptor, &expirations, 8)
    let set = result < 0 && errno == ECANCELED
    _ = marquee_clock_set_notice_arm(descriptor)
    return set
  }
}

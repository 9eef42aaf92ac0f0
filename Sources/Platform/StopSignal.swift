import CPlatform
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's stop signal, as the command line's signal handler records it: code that
/// blocks in a system call asks it whether an interruption (EINTR) means "stop" rather than
/// "try again".
public enum StopSignal {
  /// SIGINT (Ctrl-C).
  public static let interrupt = SIGINT
  /// SIGTERM (systemd's, `kill`'s).
  public static let terminate = SIGTERM
  /// SIGHUP (the terminal closed; a reload under a service manager).
  public static let hangUp = SIGHUP

  /// Ignores SIGPIPE and SIGXFSZ: a reader that went away, or a file at its size limit,
  /// makes a write fail with its error instead of ending the program.
  public static func ignoreWriteSignals() {
    signal(SIGPIPE, SIG_IGN)
    signal(SIGXFSZ, SIG_IGN)
  }

  /// The first stop signal caught (SIGINT, SIGTERM, SIGHUP), or 0.
  public static var pending: Int32 { marquee_stop_signal() }

  /// Installs the handler for `signals`; returns the read end of a pipe that gets one byte
  /// per signal caught (for a thread that turns signals into a stop request), or -1.
  public static func install(_ signals: [Int32]) -> Int32 {
    signals.withUnsafeBufferPointer { marquee_install_stop_handler($0.baseAddress, Int32($0.count)) }
  }

  /// `open(2)` retried on EINTR until a stop signal is pending: a FIFO nobody opens from the
  /// other side blocks, and Ctrl-C must still end the program.
  public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    retryingOnInterrupt(unless: { pending != 0 }) { LibC.open(path, flags, mode) }
  }

  /// Waits until `descriptor` takes a write, at most `milliseconds`: once a stop is pending,
  /// a reader that stopped reading must not hold the program.
  public static func waitWritable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    return poll(&entry, 1, milliseconds) == 1
  }
}

/// Terminal resizes (SIGWINCH), counted by the command line's handler: a display that lays
/// itself out for the terminal's size compares the count with the one it last saw.
public enum TerminalResize {
  /// How many resizes have been caught (0 when nothing installed the handler).
  public static var count: UInt { UInt(marquee_resize_count()) }

  /// Catches SIGWINCH from now on; each resize also wakes the stop handler's pipe.
  public static func install() { marquee_install_resize_handler() }
}

/// SIGHUP as a reload request (`marquee serve` with a config file).
public enum HangupSignal {
  /// How many reload requests have been caught.
  public static var count: UInt { UInt(marquee_hangup_count()) }

  /// Catches SIGHUP from now on as a reload request, not a stop.
  public static func install() { marquee_install_hangup_handler() }
}

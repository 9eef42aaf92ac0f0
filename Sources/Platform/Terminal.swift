#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Facts about, and settings of, the terminal on a file descriptor.
public enum Terminal {
  /// A terminal's settings as ``disableEcho(_:)`` found them, to give back.
  public struct Settings: Sendable {
    var saved: termios
  }

  /// Whether `descriptor` is a terminal.
  public static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
  }

  /// Whether the terminal can show the simulated sign: not `TERM=dumb` (no cursor
  /// movement), and a UTF-8 locale (`LC_ALL`, else `LC_CTYPE`, else `LANG`) for the dots.
  public static var drawsTheSimulator: Bool {
    let variable = Environment.nonEmpty
    if variable("TERM") == "dumb" { return false }
    let locale = (variable("LC_ALL") ?? variable("LC_CTYPE") ?? variable("LANG") ?? "").lowercased()
    return locale.contains("utf-8") || locale.contains("utf8")
  }

  /// The terminal's size in character cells, or `nil` if it is not a terminal.
  public static func size(of descriptor: Int32) -> (columns: Int, rows: Int)? {
    var size = winsize()
    guard Descriptor.control(descriptor, UInt(TIOCGWINSZ), &size), size.ws_col > 0 else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// Turns off echo of typed keys (so Ctrl-C does not print `^C` over the sign) and returns
  /// the previous settings to restore, or `nil` if `descriptor` is not a terminal.
  public static func disableEcho(_ descriptor: Int32) -> Settings? {
    var saved = termios()
    guard tcgetattr(descriptor, &saved) == 0 else { return nil }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    _ = tcsetattr(descriptor, TCSANOW, &quiet)
    return Settings(saved: saved)
  }

  /// Restores settings saved by ``disableEcho(_:)``.
  public static func restore(_ settings: Settings, on descriptor: Int32) {
    var saved = settings.saved
    _ = tcsetattr(descriptor, TCSANOW, &saved)
  }
}

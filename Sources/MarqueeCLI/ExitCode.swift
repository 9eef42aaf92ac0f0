import SignService

/// A mistake in the command line, or in a file or value it names: the usage line and exit
/// code 64. The service layer's ``InputError`` is one.
public typealias UsageError = InputError

/// A failure while running: `Error: …` and exit code 1. The service layer's
/// ``SignFailure`` is one.
public typealias RuntimeError = SignFailure

/// The exit codes of `marquee`, as the sysexits convention and swift-argument-parser use them.
public enum ExitCode {
  /// Success.
  public static let success: Int32 = 0
  /// A runtime failure (a device, a file, the terminal).
  public static let failure: Int32 = 1
  /// A usage error (`EX_USAGE`).
  public static let usage: Int32 = 64
}

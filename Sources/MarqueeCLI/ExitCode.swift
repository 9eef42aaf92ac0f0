import SignService

/// The exit codes of `marquee`, as the sysexits convention and swift-argument-parser use them.
public enum ExitCode {
  /// Success.
  public static let success: Int32 = 0
  /// A runtime failure (a device, a file, the terminal).
  public static let failure: Int32 = 1
  /// A usage error (`EX_USAGE`).
  public static let usage: Int32 = 64
}

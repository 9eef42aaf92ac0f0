/// A mistake in the command line: reported with the usage line and exit code 64.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was wrong, as one sentence.
  public var message: String

  /// Creates an error.
  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}

/// A failure while running: reported as `Error: …` with exit code 1.
public struct RuntimeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, naming the input or device involved.
  public var message: String

  /// Creates an error.
  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}

/// The exit codes of `marquee`, as the sysexits convention and swift-argument-parser use them.
public enum ExitCode {
  /// Success.
  public static let success: Int32 = 0
  /// A runtime failure (a device, a file, the terminal).
  public static let failure: Int32 = 1
  /// A usage error (`EX_USAGE`).
  public static let usage: Int32 = 64
}

/// A value someone gave is wrong: an option, a file's field, a request's field. Its message
/// names the place (`--speed`, `sign.json:3:14: zones[1].font`). The front end says how:
/// the command line exits 64 with the usage line, the API answers 400.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was wrong, as one sentence.
  public var message: String

  /// Creates an error.
  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}

/// Something the sign needs failed: a file that cannot be read or written, a font, the
/// state file. The command line reports it as `Error: …` and exits 1.
public struct SignFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, naming the input or device involved.
  public var message: String

  /// Creates an error.
  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}

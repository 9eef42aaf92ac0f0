/// A mistake in the command line or in a file it names: an option, a config's field, a
/// layout. Its message names the place (`--speed`, `sign.json:3:14: zones[1].font`).
///
/// One of the three errors of the house: this one, ``SignRefusal`` (what a person or a
/// broker sent to a running sign, with its field) and ``SignFailure`` (the machine). The
/// command line exits 64 with the usage line; a reload that meets it refuses the reload.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was wrong, as one sentence.
  public var message: String

  /// Creates an error.
  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}

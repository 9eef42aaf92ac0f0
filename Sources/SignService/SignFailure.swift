/// Something the sign needs failed on the machine: a file that cannot be read or written,
/// a font, the state file, a device. Nothing the sender did wrong.
///
/// The command line reports it as `Error: …` and exits 1; the HTTP API answers 500; MQTT
/// logs it.
public struct SignFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, naming the input or device involved.
  public var message: String

  /// Creates an error.
  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}

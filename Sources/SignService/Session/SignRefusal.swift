import SimpleJSON

/// Why a command to a ``SignSession`` changed nothing: what kind of refusal it is, the field
/// it is about (`zones[1].font`) and what was wrong.
///
/// Front ends translate the kind: the HTTP routes to a status (400, 404, 413, 500, 503;
/// a failure of the machine, ``SignFailure``, is a 500, never a 400),
/// MQTT to a line in the log and `/api/stats`, the command line to an exit code.
public struct SignRefusal: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of refusal: each front end maps it to its own answer.
  public enum Kind: Sendable, Equatable {
    /// The command is malformed or a value is out of its range.
    case invalid
    /// It names something the sign does not have: a program, a notification.
    case notFound
    /// This sign does not do that (no schedule, no notifications).
    case unsupported
    /// Keeping it would make the state file larger than its limit.
    case tooLarge
    /// The sign is full (the notification queue).
    case busy
    /// It could not be written to the disk, so it was not made.
    case notSaved
    /// The machine failed it (a file that cannot be read, a device): nothing the sender
    /// did wrong.
    case failed
  }

  public var kind: Kind
  /// The field's path in the command's document, if the refusal is about one.
  public var field: String?
  /// What was wrong, without the field.
  public var reason: String

  public init(_ kind: Kind = .invalid, field: String? = nil, _ reason: String) {
    self.kind = kind
    self.field = field
    self.reason = reason
  }

  /// A malformed command, not about one field.
  public init(_ reason: String) {
    self.init(.invalid, field: nil, reason)
  }

  /// `field: reason`, as the API answers it.
  public var description: String { field.map { "\($0): \(reason)" } ?? reason }

  /// The refusal an error from the option model, a document or the state file stands for.
  public init(from error: any Error) {
    switch error {
    case let refusal as SignRefusal: self = refusal
    case let error as JSONFieldError: self.init(.invalid, field: error.field, error.reason)
    case let error as StateFile.TooLarge: self.init(.tooLarge, field: nil, "the change was not made: \(error)")
    case let error as SignFailure: self.init(.failed, field: nil, error.message)
    case let error as UsageError: self.init(.invalid, field: nil, error.message)
    default: self.init(.invalid, field: nil, "\(error)")
    }
  }
}

/// A value a sign's hardware cannot take, naming the parameter (and board-file field).
public struct InvalidBoardValue: Error, Sendable, Equatable, CustomStringConvertible {
  /// The parameter (and board-file field) at fault.
  public var field: String
  /// What is wrong with it.
  public var reason: String

  public var description: String { "\(field): \(reason)" }

  /// Creates the error.
  public init(field: String, reason: String) {
    self.field = field
    self.reason = reason
  }

  /// Fails unless `range` holds `value`.
  package static func check(_ value: Int, _ range: ClosedRange<Int>, _ field: String) throws(InvalidBoardValue) {
    guard range.contains(value) else {
      throw InvalidBoardValue(field: field, reason: "\(value) is outside \(range.lowerBound)...\(range.upperBound)")
    }
  }
}

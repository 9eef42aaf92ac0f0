/// A parsed JSON value.
///
/// The libraries read board files, layout files and feed lines with this small parser
/// instead of Foundation, which keeps the binary's memory low and gives errors with the line
/// and column of the problem.
public enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  /// An object, keeping its keys' order as written.
  case object([(key: String, value: JSONValue)])

  public static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }

  /// The value of `key` in an object, or `nil`.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.key == key }?.value
  }

  /// A short name of the value's type, for error messages.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// A syntax error in JSON text, with where it is.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The 1-based line of the problem.
  public var line: Int
  /// The 1-based column (in bytes) of the problem.
  public var column: Int
  /// What is wrong.
  public var reason: String

  public var description: String { "line \(line), column \(column): \(reason)" }
}

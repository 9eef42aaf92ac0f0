/// A problem with one field of a JSON document: which field, and what is wrong.
public struct JSONFieldError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The field's path, like `grid.columns` or `zones[1].width`.
  public var field: String
  /// What is wrong with it.
  public var reason: String

  public var description: String { "field '\(field)': \(reason)" }

  /// Creates an error for `field`.
  public init(field: String, reason: String) {
    self.field = field
    self.reason = reason
  }
}

/// Reads typed fields out of a JSON object, naming the field's full path in errors.
public struct JSONFields {
  /// The object being read.
  public let value: JSONValue
  /// The path of this object (empty at the top).
  public let path: String

  /// Wraps an object found at `path`; anything else is an error naming the path.
  public init(_ value: JSONValue, path: String = "") throws(JSONFieldError) {
    guard case .object = value else {
      throw JSONFieldError(field: path.isEmpty ? "(top level)" : path, reason: "expected an object, got \(value.typeName)")
    }
    self.value = value
    self.path = path
  }

  /// The full path of `key`.
  public func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  /// Fails if the object has a key not in `known` (a typo would otherwise be ignored).
  public func rejectUnknownKeys(_ known: [String]) throws(JSONFieldError) {
    guard case .object(let members) = value else { return }
    for member in members where !known.contains(member.key) {
      throw JSONFieldError(field: name(member.key), reason: "unknown field (known: \(known.joined(separator: ", ")))")
    }
  }

  /// The raw value of `key`, if present and not null.
  public func optional(_ key: String) -> JSONValue? {
    guard let field = value[key], field != .null else { return nil }
    return field
  }

  /// A whole number in `range`, or `nil` when absent.
  public func integer(_ key: String, in range: ClosedRange<Int>) throws(JSONFieldError) -> Int? {
    guard let field = optional(key) else { return nil }
    // Every whole number up to 2^53 - 1 is exact in a JSON (double) number.
    guard case .number(let number) = field, number == number.rounded(), abs(number) <= 9_007_199_254_740_991 else {
      throw JSONFieldError(field: name(key), reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(describe(field))")
    }
    guard range.contains(Int(number)) else {
      throw JSONFieldError(field: name(key), reason: "\(Int(number)) is out of range (\(range.lowerBound) to \(range.upperBound))")
    }
    return Int(number)
  }

  /// A required whole number in `range`.
  public func requiredInteger(_ key: String, in range: ClosedRange<Int>) throws(JSONFieldError) -> Int {
    guard let number = try integer(key, in: range) else { throw missing(key) }
    return number
  }

  /// A number in `range`, or `nil` when absent.
  public func number(_ key: String, in range: ClosedRange<Double>) throws(JSONFieldError) -> Double? {
    guard let field = optional(key) else { return nil }
    guard case .number(let number) = field else {
      throw JSONFieldError(field: name(key), reason: "expected a number from \(format(range.lowerBound)) to \(format(range.upperBound)), got \(describe(field))")
    }
    guard range.contains(number) else {
      throw JSONFieldError(field: name(key), reason: "\(format(number)) is out of range (\(format(range.lowerBound)) to \(format(range.upperBound)))")
    }
    return number
  }

  /// A string, or `nil` when absent.
  public func string(_ key: String) throws(JSONFieldError) -> String? {
    guard let field = optional(key) else { return nil }
    guard case .string(let text) = field else {
      throw JSONFieldError(field: name(key), reason: "expected a string, got \(describe(field))")
    }
    return text
  }

  /// A required string.
  public func requiredString(_ key: String) throws(JSONFieldError) -> String {
    guard let text = try string(key) else { throw missing(key) }
    return text
  }

  /// A string that must be one of `choices`, or `nil` when absent.
  public func choice(_ key: String, _ choices: [String]) throws(JSONFieldError) -> String? {
    guard let text = try string(key) else { return nil }
    guard choices.contains(text) else {
      throw JSONFieldError(field: name(key), reason: "'\(text)' is not one of \(choices.joined(separator: ", "))")
    }
    return text
  }

  /// A boolean, or `nil` when absent.
  public func bool(_ key: String) throws(JSONFieldError) -> Bool? {
    guard let field = optional(key) else { return nil }
    guard case .bool(let flag) = field else {
      throw JSONFieldError(field: name(key), reason: "expected true or false, got \(describe(field))")
    }
    return flag
  }

  /// A nested object, or `nil` when absent.
  public func object(_ key: String) throws(JSONFieldError) -> JSONFields? {
    guard let field = optional(key) else { return nil }
    return try JSONFields(field, path: name(key))
  }

  /// An array of strings, or `nil` when absent.
  public func strings(_ key: String) throws(JSONFieldError) -> [String]? {
    guard let field = optional(key) else { return nil }
    guard case .array(let elements) = field else {
      throw JSONFieldError(field: name(key), reason: "expected an array of strings, got \(describe(field))")
    }
    var result: [String] = []
    for (index, element) in elements.enumerated() {
      guard case .string(let text) = element else {
        throw JSONFieldError(field: "\(name(key))[\(index)]", reason: "expected a string, got \(describe(element))")
      }
      result.append(text)
    }
    return result
  }

  /// An array of objects, each wrapped with its path (`key[i]`), or `nil` when absent.
  public func objects(_ key: String) throws(JSONFieldError) -> [JSONFields]? {
    guard let field = optional(key) else { return nil }
    guard case .array(let elements) = field else {
      throw JSONFieldError(field: name(key), reason: "expected an array of objects, got \(describe(field))")
    }
    var result: [JSONFields] = []
    for (index, element) in elements.enumerated() {
      result.append(try JSONFields(element, path: "\(name(key))[\(index)]"))
    }
    return result
  }

  /// The error for a required field that is absent.
  public func missing(_ key: String) -> JSONFieldError {
    JSONFieldError(field: name(key), reason: "missing (it is required)")
  }

  func describe(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): "the string \"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
    case .number(let number): format(number)
    case .bool(let flag): "\(flag)"
    default: value.typeName
    }
  }

  func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}

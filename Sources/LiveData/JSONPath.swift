import SimpleJSON

/// A place in a JSON document, written as a JSON Pointer (RFC 6901: `/current/temperature_2m`,
/// `/list/0/name`, `~1` for `/` and `~0` for `~` in a key) or as a dotted path
/// (`current.temperature_2m`, `list[0].name`, `list.0.name`).
public struct JSONPath: Sendable, Equatable, CustomStringConvertible {
  /// One step: a key of an object, or an index of an array (a key that is all digits is
  /// either, as the document has it).
  public enum Step: Sendable, Equatable {
    case key(String)
    case index(Int)
  }

  public let steps: [Step]
  /// The path as written.
  public let description: String

  /// Why a path cannot be read.
  public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// Reads a pointer (starting with `/`; empty: the whole document) or a dotted path.
  ///
  /// - Throws: ``Invalid`` for a bad escape in a pointer, or a bracket that is not `[N]`.
  public init(_ text: String) throws(Invalid) {
    description = text
    if text.isEmpty {
      steps = []
      return
    }
    if text.hasPrefix("/") {
      var steps: [Step] = []
      for token in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
        var key = ""
        var escaped = false
        for character in token {
          if escaped {
            guard character == "0" || character == "1" else {
              throw Invalid(description: "'\(text)': '~' in a JSON Pointer is '~0' or '~1', not '~\(character)'")
            }
            key.append(character == "0" ? "~" : "/")
            escaped = false
          } else if character == "~" {
            escaped = true
          } else {
            key.append(character)
          }
        }
        if escaped { throw Invalid(description: "'\(text)': a JSON Pointer cannot end in '~'") }
        steps.append(.key(key))
      }
      self.steps = steps
      return
    }
    var steps: [Step] = []
    for part in text.split(separator: ".", omittingEmptySubsequences: false) {
      var rest = Substring(part)
      if let bracket = rest.firstIndex(of: "[") {
        let key = rest[..<bracket]
        if !key.isEmpty { steps.append(.key(String(key))) }
        rest = rest[bracket...]
        while !rest.isEmpty {
          guard rest.first == "[", let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]), index >= 0
          else { throw Invalid(description: "'\(text)': expected [N] with a whole number N in '\(part)'") }
          steps.append(.index(index))
          rest = rest[rest.index(after: close)...]
        }
      } else {
        guard !part.isEmpty else { throw Invalid(description: "'\(text)': an empty name between dots") }
        steps.append(.key(String(part)))
      }
    }
    self.steps = steps
  }

  /// The value at this path in `document`, or nil when a step finds nothing.
  public func value(in document: JSONValue) -> JSONValue? {
    var current = document
    for step in steps {
      switch (step, current) {
      case (.key(let key), .object):
        guard let next = current[key] else { return nil }
        current = next
      case (.key(let key), .array(let items)):
        // A pointer's "0" is an index into an array (RFC 6901); "-" and the rest find nothing.
        guard key.allSatisfy(\.isASCII), key.allSatisfy(\.isNumber), !key.isEmpty, key == "0" || !key.hasPrefix("0"),
          let index = Int(key), index < items.count
        else { return nil }
        current = items[index]
      case (.index(let index), .array(let items)):
        guard index < items.count else { return nil }
        current = items[index]
      default:
        return nil
      }
    }
    return current
  }
}

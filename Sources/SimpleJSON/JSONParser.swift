/// Parses JSON text (RFC 8259) into a ``JSONValue``.
///
/// Nesting is limited (``maximumDepth``) so hostile input cannot exhaust the stack.
public struct JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  public static let maximumDepth = 64

  let bytes: [UInt8]
  var index = 0
  var depth = 0
  /// With ``parseLocated(_:)``: the path being read (`zones[1].speed`) and where each
  /// field's key starts.
  var path: [String] = []
  var offsets: [String: Int]?

  /// Parses a whole document; anything but white space after the value is an error.
  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try parse(bytes: Array(text.utf8))
  }

  /// Parses a whole document from UTF-8 bytes.
  public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    parser.skipSpace()
    let value = try parser.parseValue()
    parser.skipSpace()
    if parser.index < bytes.count { throw parser.error("unexpected text after the JSON value") }
    return value
  }

  /// Parses a whole document and says where each field's key stands, by the field paths
  /// ``JSONFields`` names in errors (`speed`, `zones[1].font`), so an error can point at
  /// its line and column.
  public static func parseLocated(_ text: String) throws(JSONSyntaxError) -> (value: JSONValue, locations: JSONLocations) {
    var parser = JSONParser(bytes: Array(text.utf8))
    parser.offsets = [:]
    parser.skipSpace()
    let value = try parser.parseValue()
    parser.skipSpace()
    if parser.index < parser.bytes.count { throw parser.error("unexpected text after the JSON value") }
    return (value, JSONLocations(bytes: parser.bytes, offsets: parser.offsets ?? [:]))
  }

  func error(_ reason: String) -> JSONSyntaxError {
    let (line, column) = JSONParser.lineAndColumn(of: index, in: bytes)
    return JSONSyntaxError(line: line, column: column, reason: reason)
  }

  /// The 1-based line and column (in bytes) of `offset`.
  static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
    var line = 1, column = 1
    for byte in bytes[0..<min(offset, bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    return (line, column)
  }

  /// The path of the field or element being read.
  var currentPath: String { path.joined().hasPrefix(".") ? String(path.joined().dropFirst()) : path.joined() }

  mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
    guard index < bytes.count else { throw error("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
    }
  }

  mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
    let expected = Array(word.utf8)
    guard index + expected.count <= bytes.count,
      Array(bytes[index..<(index + expected.count)]) == expected
    else { throw error("invalid literal (expected '\(word)')") }
    index += expected.count
    return value
  }

  mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    func digits() -> Int {
      let from = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      return index - from
    }
    guard digits() > 0 else { throw error("a number needs digits") }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { throw error("a number needs digits after '.'") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { throw error("a number needs digits in its exponent") }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      index = start
      throw error("number '\(text)' is out of range")
    }
    return .number(value)
  }

  mutating func parseString() throws(JSONSyntaxError) -> String {
    index += 1  // opening quote
    var scalars = String.UnicodeScalarView()
    var run = index
    func flush(_ end: Int) {
      scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        flush(index)
        index += 1
        return String(scalars)
      }
      if byte < 0x20 { throw error("control character in a string (escape it)") }
      if byte == UInt8(ascii: "\\") {
        flush(index)
        index += 1
        guard index < bytes.count else { break }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var code = try parseHex4()
          if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count,
            bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
          {
            index += 2
            let low = try parseHex4()
            if (0xDC00..<0xE000).contains(low) {
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else {
              scalars.append("\u{FFFD}")
              code = low
            }
          }
          scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
        default:
          index -= 1
          throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
        }
        run = index
        continue
      }
      index += 1
    }
    throw error("unterminated string")
  }

  /// Exactly four hexadecimal digits (JSON has no sign, no shorter or longer form).
  mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("invalid \\u escape (expected four hex digits)") }
    var value: UInt32 = 0
    for byte in bytes[index..<(index + 4)] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw error("invalid \\u escape (expected four hex digits)")
      }
      value = value << 4 | UInt32(digit)
    }
    index += 4
    return value
  }

  mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > JSONParser.maximumDepth { throw error("nested deeper than \(JSONParser.maximumDepth) levels") }
  }

  mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var elements: [JSONValue] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipSpace()
      if offsets != nil {
        path.append("[\(elements.count)]")
        let element = currentPath
        offsets?[element] = index
      }
      elements.append(try parseValue())
      if offsets != nil { path.removeLast() }
      skipSpace()
      guard index < bytes.count else { throw error("unterminated array (expected ']')") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      throw error("expected ',' or ']' in an array")
    }
  }

  mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var members: [(key: String, value: JSONValue)] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a key in quotes")
      }
      let keyStart = index
      let key = try parseString()
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
      index += 1
      skipSpace()
      if offsets != nil {
        path.append("." + key)
        let field = currentPath
        offsets?[field] = keyStart
      }
      members.append((key, try parseValue()))
      if offsets != nil { path.removeLast() }
      skipSpace()
      guard index < bytes.count else { throw error("unterminated object (expected '}')") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      throw error("expected ',' or '}' in an object")
    }
  }
}

/// Where the fields of a parsed document stand, by field path.
public struct JSONLocations: Sendable {
  let bytes: [UInt8]
  let offsets: [String: Int]

  /// The 1-based line and column of the key of `field` (`zones[1].speed`), if it is there.
  public func position(of field: String) -> (line: Int, column: Int)? {
    offsets[field].map { JSONParser.lineAndColumn(of: $0, in: bytes) }
  }

  /// `file:line:column` for `field`; for a field that is missing, where the object that
  /// lacks it starts; `file` alone when neither is in the document.
  public func place(of field: String, in file: String) -> String {
    var path = Substring(field)
    while !path.isEmpty {
      if let (line, column) = position(of: String(path)) { return "\(file):\(line):\(column)" }
      guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
      path = path[..<cut]
    }
    return file
  }
}

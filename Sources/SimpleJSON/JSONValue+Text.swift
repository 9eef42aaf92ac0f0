extension JSONValue {
  /// The value as compact JSON text: strings escaped as RFC 8259 requires, whole numbers
  /// without a fraction, keys in their order.
  public var text: String {
    var output = ""
    self.write(into: &output)
    return output
  }

  func write(into output: inout String) {
    switch self {
    case .null: output += "null"
    case .bool(let flag): output += flag ? "true" : "false"
    case .number(let number):
      if !number.isFinite {
        output += "null"
      } else if number == number.rounded() && abs(number) < 1e15 {
        output += String(Int(number))
      } else {
        output += String(number)
      }
    case .string(let string): JSONValue.writeString(string, into: &output)
    case .array(let elements):
      output += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { output += "," }
        element.write(into: &output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { output += "," }
        JSONValue.writeString(member.key, into: &output)
        output += ":"
        member.value.write(into: &output)
      }
      output += "}"
    }
  }

  static func writeString(_ string: String, into output: inout String) {
    output += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}

extension JSONValue {
  /// The value as JSON text a person edits: a member a line, indented by two spaces, with
  /// an object or array that fits in `width` characters kept on one line
  /// (`"panel": {"columns": 64, "rows": 32}`), and a newline at the end.
  public func editableText(width: Int = 72) -> String {
    var output = ""
    writeEditable(into: &output, indent: "", width: width)
    return output + "\n"
  }

  func writeEditable(into output: inout String, indent: String, width: Int) {
    let inline = inlineText
    guard inline.count > width - indent.count else {
      output += inline
      return
    }
    let inner = indent + "  "
    switch self {
    case .array(let elements):
      output += "[\n"
      for (index, element) in elements.enumerated() {
        output += inner
        element.writeEditable(into: &output, indent: inner, width: width)
        output += index + 1 < elements.count ? ",\n" : "\n"
      }
      output += indent + "]"
    case .object(let members):
      output += "{\n"
      for (index, member) in members.enumerated() {
        output += inner
        JSONValue.writeString(member.key, into: &output)
        output += ": "
        member.value.writeEditable(into: &output, indent: inner, width: width)
        output += index + 1 < members.count ? ",\n" : "\n"
      }
      output += indent + "}"
    default:
      output += inline
    }
  }

  /// One line, with a space after each comma and colon.
  var inlineText: String {
    switch self {
    case .array(let elements): return "[" + elements.map(\.inlineText).joined(separator: ", ") + "]"
    case .object(let members):
      return "{" + members.map { member in
        var key = ""
        JSONValue.writeString(member.key, into: &key)
        return key + ": " + member.value.inlineText
      }.joined(separator: ", ") + "}"
    default: return text
    }
  }
}

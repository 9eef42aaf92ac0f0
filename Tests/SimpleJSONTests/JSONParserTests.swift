import Testing

@testable import SimpleJSON

@Suite struct JSONParserTests {
  @Test func parsesEveryKindOfValue() throws {
    let value = try JSONParser.parse(#"{"a": [1, -2.5e2, true, false, null], "b": "x\"\u00e9\ud83d\ude00\n"}"#)
    #expect(value["a"] == .array([.number(1), .number(-250), .bool(true), .bool(false), .null]))
    #expect(value["b"] == .string("x\"é😀\n"))
  }

  @Test(arguments: [
    ("{\"a\": }", 1, 7, "unexpected character '}'"),
    ("{\"a\": 1,\n \"b\" 2}", 2, 6, "expected ':' after a key"),
    ("[1, 2", 1, 6, "unterminated array (expected ']')"),
    ("\"abc", 1, 5, "unterminated string"),
    ("{} x", 1, 4, "unexpected text after the JSON value"),
    ("tru", 1, 1, "invalid literal (expected 'true')"),
    ("1e999", 1, 1, "number '1e999' is out of range"),
    ("", 1, 1, "unexpected end of input"),
    (#""\u+123""#, 1, 4, "invalid \\u escape (expected four hex digits)"),
    (#""\u-123""#, 1, 4, "invalid \\u escape (expected four hex digits)"),
    (#""\u12 4""#, 1, 4, "invalid \\u escape (expected four hex digits)"),
    (#""\u12""#, 1, 4, "invalid \\u escape (expected four hex digits)"),
  ])
  func syntaxErrorsSayWhere(text: String, line: Int, column: Int, reason: String) {
    #expect(throws: JSONSyntaxError(line: line, column: column, reason: reason)) { try JSONParser.parse(text) }
  }

  @Test func deepNestingIsRefusedNotACrash() {
    let text = String(repeating: "[", count: 100_000)
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
  }

  @Test func fieldsNameTheirPathInErrors() throws {
    let fields = try JSONFields(try JSONParser.parse(#"{"grid": {"columns": "four"}, "x": 3.5, "y": 99}"#))
    let grid = try #require(try fields.object("grid"))
    #expect(throws: JSONFieldError(field: "grid.columns", reason: "expected a whole number from 1 to 64, got the string \"four\"")) {
      try grid.integer("columns", in: 1...64)
    }
    #expect(throws: JSONFieldError(field: "x", reason: "expected a whole number from 0 to 9, got 3.5")) {
      try fields.integer("x", in: 0...9)
    }
    #expect(throws: JSONFieldError(field: "y", reason: "99 is out of range (0 to 9)")) {
      try fields.integer("y", in: 0...9)
    }
    #expect(throws: JSONFieldError(field: "grid.rows", reason: "missing (it is required)")) {
      try grid.requiredInteger("rows", in: 1...9)
    }
    #expect(throws: JSONFieldError.self) { try fields.rejectUnknownKeys(["grid", "x"]) }
  }
}

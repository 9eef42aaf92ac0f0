import Testing

@testable import SimpleJSON

/// JSON written for a person to edit (a board file the panel finder rewrites).
@Suite struct EditableTextTests {
  @Test func membersGoOnLinesOfTheirOwnAndShortOnesStayWhole() throws {
    let board = JSONValue.object([
      ("name", .string("shop \"window\"")), ("panel", .object([("columns", .number(64)), ("rows", .number(32))])),
      ("chains", .array([.number(1), .number(2)])), ("empty", .object([])),
      ("long", .array((0..<30).map { .string("item\($0)") })),
    ])
    let text = board.editableText()
    #expect(text.hasPrefix("{\n  \"name\": \"shop \\\"window\\\"\",\n  \"panel\": {\"columns\": 64, \"rows\": 32},\n  \"chains\": [1, 2],\n  \"empty\": {},\n  \"long\": [\n    \"item0\",\n"))
    #expect(text.hasSuffix("    \"item29\"\n  ]\n}\n"))
    // It reads back as the same value.
    #expect(try JSONParser.parse(text) == board)
  }
}

import SimpleJSON

extension SignCommand {
  /// The commands one feed line stands for (`--stdin`, Docs/feeds.md), read once for every
  /// front end that takes lines: plain text is the first zone's messages (that line alone);
  /// a JSON object is a content document (`PATCH /api/content`'s), or `{"notify": {…}}` and
  /// `{"dismiss": ID}` / `{"dismiss": true}` (both may stand in one line: the notice first).
  /// A carriage return before the line's end is not part of it.
  ///
  /// - Throws: ``SignRefusal`` for a line that is not JSON where it starts as JSON, or a
  ///   notice line with other keys or a bad number (the field named).
  public static func commands(feedLine line: String) throws(SignRefusal) -> [SignCommand] {
    let trimmed = line.hasSuffix("\r") ? String(line.dropLast()) : line
    guard trimmed.first == "{" else {
      return [.content(.object([("messages", .array([.string(trimmed)]))]), replacing: false)]
    }
    let value: JSONValue
    do {
      value = try JSONParser.parse(trimmed)
    } catch {
      throw SignRefusal("\(error)")
    }
    guard value["notify"] != nil || value["dismiss"] != nil else { return [.content(value, replacing: false)] }
    do throws(JSONFieldError) {
      return try notices(JSONFields(value))
    } catch {
      throw SignRefusal(.invalid, field: error.field, error.reason)
    }
  }

  /// A line's notice and dismissal, the notice first.
  private static func notices(_ fields: JSONFields) throws(JSONFieldError) -> [SignCommand] {
    try fields.rejectUnknownKeys(["notify", "dismiss"])
    var commands: [SignCommand] = []
    if let document = try fields.object("notify") { commands.append(.notify(document.value)) }
    if fields.value["dismiss"] == .bool(true) {
      commands.append(.dismiss(id: nil))
    } else if let id = try fields.integer("dismiss", in: 1...Int(Int32.max)) {
      commands.append(.dismiss(id: id))
    }
    return commands
  }
}

extension CommandSource {
  /// A feed's lines (`--stdin`): live data, shown and never kept; any topic may be named
  /// (the operator's own input).
  public static let feed = CommandSource(keeps: false)
}

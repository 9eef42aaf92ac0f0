import SimpleJSON

/// The sign's brightness level as people and the schedule set it: 16 levels, 0 (the
/// dimmest) to 15 (the board's step at full brightness, `--intensity` or its board file's `intensity`). Not the
/// board's own step: a level is turned into one by the board family.
public enum BrightnessLevel {
  /// The levels, declared once for every reader: the API, MQTT, the state file, the schedule.
  public static let range = 0...15
}

/// Each command's document read once, for every front end: the HTTP API's bodies, MQTT's
/// payloads (a bare number or word is first written as the document it stands for), feed
/// lines. A field that is wrong is refused at its path.
extension SignCommand {
  /// `{"brightness": 0-15}`.
  public static func brightness(_ document: JSONValue) throws(JSONFieldError) -> SignCommand {
    let fields = try JSONFields(document)
    try fields.rejectUnknownKeys(["brightness"])
    return .brightness(try fields.requiredInteger("brightness", in: BrightnessLevel.range))
  }

  /// `{"on": true|false}`.
  public static func power(_ document: JSONValue) throws(JSONFieldError) -> SignCommand {
    let fields = try JSONFields(document)
    try fields.rejectUnknownKeys(["on"])
    guard let on = try fields.bool("on") else { throw fields.missing("on") }
    return .power(on: on)
  }

  /// `{}` or `{"zone": "name"}`: every zone, or one, paused or resumed.
  public static func pause(_ document: JSONValue, pausing: Bool) throws(JSONFieldError) -> SignCommand {
    let fields = try JSONFields(document)
    try fields.rejectUnknownKeys(["zone"])
    return .pause(zone: try fields.string("zone"), pausing)
  }

  /// `{"name": "offers"}`, or `{"name": null}` for the schedule's own.
  public static func program(_ document: JSONValue) throws(JSONFieldError) -> SignCommand {
    let fields = try JSONFields(document)
    try fields.rejectUnknownKeys(["name"])
    guard fields.value["name"] != nil else { throw fields.missing("name") }
    return .chooseProgram(try fields.string("name"))
  }
}

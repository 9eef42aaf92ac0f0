import Marquee
import SimpleJSON

/// Notification documents, as `POST /api/notify`, a feed line's `notify` and MQTT's notify
/// topic take them: a zone's content keys (`messages`, `mode`, `font`, …, as the zone's own
/// content with these changes) and `zone` (none: the whole sign), `duration` (seconds,
/// default 5) or `passes`, `priority`, `in` and `out` (effects over what the zone shows) and
/// `wake` (light the sign in an off period while it shows).
extension Feed {
  /// The keys a notification document takes besides a zone's content keys.
  package static let notifyKeys = ["zone", "duration", "passes", "priority", "in", "out", "wake"]

  /// The notification a document asks for, checked whole; and whether it wakes the sign.
  package func notification(_ fields: JSONFields) throws -> (notification: Notification, wakes: Bool) {
    try fields.rejectUnknownKeys(LayoutFile.contentKeys.filter { $0 != "duration" && $0 != "in" && $0 != "out" } + ["message"] + Feed.notifyKeys)
    guard case .object(let members) = fields.value else { throw JSONFieldError(field: fields.path.isEmpty ? "(top level)" : fields.path, reason: "expected a notification") }
    let zone = try fields.string("zone")
    if let zone, !zoneNames.contains(zone) {
      throw SignRefusal.noSuchZone(field: fields.name("zone"), name: zone, zones: zoneNames)
    }
    if fields.value["messages"] == nil && fields.value["message"] == nil { throw fields.missing("messages") }
    let length: Notification.Length
    if let passes = try fields.integer("passes", in: 1...100) {
      guard fields.value["duration"] == nil else {
        throw JSONFieldError(field: fields.name("passes"), reason: "give \"duration\" or \"passes\", not both")
      }
      length = .passes(passes)
    } else {
      length = .seconds(try fields.number("duration", in: 0.1...86_400) ?? 5)
    }
    let priority = try fields.integer("priority", in: -100...100) ?? 0
    let entering = try Feed.transition(fields, "in"), leaving = try Feed.transition(fields, "out")
    // The content as the zone's own (its font and style), with the document's changes.
    let content = members.filter { !Feed.notifyKeys.contains($0.key) }
    let update = try prepare(try JSONFields(.object([("zone", .string(zone ?? firstZone))] + content), path: fields.path))
    guard let prepared = update.content else { throw fields.missing("messages") }
    return (Notification(zone: zone, content: prepared, length: length, priority: priority, entering: entering, leaving: leaving),
            try fields.bool("wake") ?? false)
  }

  /// An effect list as a notification's way in or out, or nil when not given.
  static func transition(_ fields: JSONFields, _ key: String) throws(JSONFieldError) -> Transition? {
    guard let text = try fields.string(key) else { return nil }
    do {
      return Transition(entry: try EffectCatalog.parse(text))
    } catch {
      throw JSONFieldError(field: fields.name(key), reason: "\(error)")
    }
  }
}

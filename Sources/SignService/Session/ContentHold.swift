import Platform
import SimpleJSON

/// How long a person's content holds over the programs: a content document's `"hold"`.
///
/// - `"program"` (the default): until the program playing now ends; on a sign without
///   programs, until changed.
/// - `"always"`: until changed, over every program that comes.
/// - `"HH:MM"`: until the sign's local clock next shows that time (today, or tomorrow when
///   it has passed).
public enum ContentHold: Equatable, Sendable {
  case program
  case always
  /// Until the next such minute of the local day (0...1439).
  case until(minute: Int)

  /// The document without its `"hold"`, and the hold it asked for (nil: none given).
  ///
  /// - Throws: ``SignRefusal`` naming `hold` for a value that is none of the three.
  static func split(_ document: JSONValue) throws(SignRefusal) -> (document: JSONValue, hold: ContentHold?) {
    guard case .object(let members) = document, let given = document["hold"] else { return (document, nil) }
    let rest = JSONValue.object(members.filter { $0.key != "hold" })
    guard case .string(let text) = given else {
      throw SignRefusal(field: "hold", "expected \"program\", \"always\" or a time HH:MM, got \(given.typeName)")
    }
    switch text {
    case "program": return (rest, .program)
    case "always": return (rest, .always)
    default:
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
        (0...23).contains(hour), (0...59).contains(minute)
      else {
        throw SignRefusal(field: "hold", "expected \"program\", \"always\" or a time HH:MM (24-hour), got \"\(text)\"")
      }
      return (rest, .until(minute: hour * 60 + minute))
    }
  }

  /// Until when a change made at wall time `now` holds: `stretchEnd` is when the program
  /// playing ends (nil: no programs); nil is until changed.
  func end(at now: Double, stretchEnd: Double?) -> Double? {
    switch self {
    case .program: return stretchEnd
    case .always: return nil
    case .until(let minute):
      let today = LocalTime.date(at: now).date
      let at = LocalTime.instant(of: today, minute: minute)
      return at > now ? at : LocalTime.instant(of: today.adding(days: 1), minute: minute)
    }
  }
}

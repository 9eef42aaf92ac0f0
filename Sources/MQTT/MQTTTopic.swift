/// Topic names and filters as MQTT 3.1.1 allows them (section 4.7): checked before a sign
/// subscribes, so that a bad one is refused where it was written instead of making the
/// broker drop the connection.
public enum MQTTTopic {
  /// The longest topic in UTF-8 bytes (its length is a 16-bit number).
  public static let maximumBytes = 65_535

  /// Why `topic` is not a topic name (`filter` false: no `+` or `#`) or a topic filter, or
  /// nil when it is one.
  ///
  /// Refused: the empty topic, more than 65,535 bytes of UTF-8, U+0000 (the spec forbids it)
  /// and the control characters U+0001–U+001F and U+007F–U+009F (the spec says a topic
  /// should not hold them, and brokers drop a client that sends them); in a filter, `+` and
  /// `#` must stand alone between slashes, and `#` only last.
  public static func problem(_ topic: String, filter: Bool) -> String? {
    if topic.isEmpty { return "an empty topic" }
    let bytes = topic.utf8.count
    if bytes > maximumBytes { return "a topic of \(bytes) bytes; MQTT allows \(maximumBytes)" }
    for scalar in topic.unicodeScalars where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
      return "the control character U+\(hex(scalar.value)), which MQTT topics may not hold"
    }
    let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
    for (index, level) in levels.enumerated() where level.contains("+") || level.contains("#") {
      guard filter else { return "'+' or '#', wildcards that a topic name (as opposed to a subscription) may not hold" }
      if level.count != 1 { return "'\(level)': a wildcard must fill its whole level between slashes" }
      if level == "#" && index != levels.count - 1 { return "'#' anywhere but at the end" }
    }
    return nil
  }

  /// Why `prefix` is not a topic prefix (names joined by `/`, no wildcard, no `/` at either
  /// end, no empty level), or nil.
  public static func prefixProblem(_ prefix: String) -> String? {
    if let problem = problem(prefix, filter: false) { return problem }
    guard !prefix.hasPrefix("/"), !prefix.hasSuffix("/"), !prefix.contains("//") else {
      return "not a topic prefix: use names joined by '/', like signs/all, without a '/' at either end"
    }
    return nil
  }

  /// Whether topic name `topic` matches filter `filter` (`+` one level, `#` the rest).
  public static func matches(_ topic: String, filter: String) -> Bool {
    let names = topic.split(separator: "/", omittingEmptySubsequences: false)
    let parts = filter.split(separator: "/", omittingEmptySubsequences: false)
    // Topics starting with '$' are the broker's own: wildcards at the first level skip them.
    if topic.hasPrefix("$"), let first = parts.first, first == "+" || first == "#" { return false }
    for (index, part) in parts.enumerated() {
      if part == "#" { return true }
      guard index < names.count else { return false }
      if part != "+" && part != names[index] { return false }
    }
    return names.count == parts.count
  }

  static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

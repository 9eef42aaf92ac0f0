/// An iCalendar file (RFC 5545): its events, with their recurrences (RRULE: DAILY,
/// WEEKLY, MONTHLY and YEARLY, with INTERVAL, COUNT, UNTIL, BYDAY (with ordinals in a
/// month), BYMONTHDAY and BYMONTH), EXDATE, and RECURRENCE-ID overrides; times in UTC, in
/// a named zone of the tz database, floating, or whole days.
public struct CalendarFile: Sendable {
  /// A moment as a calendar writes it.
  public enum Moment: Sendable, Equatable {
    /// A whole day (`VALUE=DATE`).
    case date(year: Int, month: Int, day: Int)
    /// A wall time, in `zone` (a TZID) or floating (nil: the sign's own zone).
    case local(year: Int, month: Int, day: Int, seconds: Int, zone: String?)
    /// A UTC time (`…Z`), in Unix seconds.
    case utc(Int64)
  }

  struct Rule: Sendable, Equatable {
    var frequency: String
    var interval = 1
    var count: Int?
    var until: Moment?
    /// (ordinal, weekday 0 Sunday): 0 for every such weekday.
    var byDay: [(ordinal: Int, weekday: Int)] = []
    var byMonthDay: [Int] = []
    var byMonth: [Int] = []

    static func == (a: Rule, b: Rule) -> Bool {
      a.frequency == b.frequency && a.interval == b.interval && a.count == b.count && a.until == b.until && a.byMonthDay == b.byMonthDay
        && a.byMonth == b.byMonth && a.byDay.map { [$0.ordinal, $0.weekday] } == b.byDay.map { [$0.ordinal, $0.weekday] }
    }
  }

  /// One VEVENT.
  public struct Event: Sendable, Equatable {
    public var uid = ""
    public var summary = ""
    public var start: Moment?
    var end: Moment?
    /// DURATION, in seconds.
    var duration: Int?
    var rule: Rule?
    var exceptions: [Moment] = []
    var recurrenceID: Moment?
    var cancelled = false
  }

  /// One occurrence of an event.
  public struct Occurrence: Sendable, Equatable {
    public var summary: String
    /// UTC seconds (for a whole day, the sign's local midnight).
    public var start: Double
    public var end: Double
    public var allDay: Bool
  }

  /// Why a file cannot be read.
  public struct Unreadable: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  public let events: [Event]

  /// The most occurrences a recurrence is followed through.
  static let maximumSteps = 100_000

  /// Reads `bytes` (UTF-8, lines folded or not).
  ///
  /// - Throws: ``Unreadable`` for text that is not a calendar.
  public init(_ bytes: [UInt8]) throws(Unreadable) {
    guard let text = String(validating: bytes, as: UTF8.self) else { throw Unreadable(description: "the calendar is not UTF-8") }
    // Unfold: a line starting with a space or tab continues the one before.
    var lines: [String] = []
    for raw in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
      if let first = raw.first, first == " " || first == "\t", !lines.isEmpty { lines[lines.count - 1] += raw.dropFirst() } else { lines.append(String(raw)) }
    }
    guard lines.first?.uppercased().hasPrefix("BEGIN:VCALENDAR") == true else { throw Unreadable(description: "not an iCalendar file (no BEGIN:VCALENDAR)") }
    var events: [Event] = []
    var current: Event?
    var depth = 0
    for line in lines {
      guard let colon = CalendarFile.valueStart(line) else { continue }
      let head = line[..<colon], value = String(line[line.index(after: colon)...])
      let parts = head.split(separator: ";")
      let name = parts.first.map { $0.uppercased() } ?? ""
      var parameters: [String: String] = [:]
      for part in parts.dropFirst() {
        let pair = part.split(separator: "=", maxSplits: 1)
        if pair.count == 2 { parameters[pair[0].uppercased()] = pair[1].trimmingQuotes }
      }
      switch name {
      case "BEGIN":
        if value.uppercased() == "VEVENT" && current == nil { current = Event() } else if current != nil { depth += 1 }
      case "END":
        if current != nil && depth > 0 {
          depth -= 1
        } else if value.uppercased() == "VEVENT", let event = current {
          if event.start != nil { events.append(event) }
          current = nil
        }
      default:
        guard current != nil, depth == 0 else { continue }
        switch name {
        case "UID": current?.uid = value
        case "SUMMARY": current?.summary = CalendarFile.unescape(value)
        case "DTSTART": current?.start = CalendarFile.moment(value, parameters)
        case "DTEND": current?.end = CalendarFile.moment(value, parameters)
        case "DURATION": current?.duration = CalendarFile.duration(value)
        case "RRULE": current?.rule = CalendarFile.rule(value, parameters)
        case "EXDATE":
          for item in value.split(separator: ",") { if let moment = CalendarFile.moment(String(item), parameters) { current?.exceptions.append(moment) } }
        case "RECURRENCE-ID": current?.recurrenceID = CalendarFile.moment(value, parameters)
        case "STATUS": current?.cancelled = value.uppercased() == "CANCELLED"
        default: break
        }
      }
    }
    self.events = events
  }

  /// Where a content line's value starts: the first colon outside a quoted parameter.
  static func valueStart(_ line: String) -> String.Index? {
    var quoted = false
    for index in line.indices {
      if line[index] == "\"" { quoted.toggle() } else if line[index] == ":" && !quoted { return index }
    }
    return nil
  }

  static func unescape(_ text: String) -> String {
    var out = ""
    var escaped = false
    for character in text {
      if escaped {
        out.append(character == "n" || character == "N" ? " " : character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else {
        out.append(character)
      }
    }
    return out
  }

  static func moment(_ value: String, _ parameters: [String: String]) -> Moment? {
    let digits = Array(value.utf8)
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= digits.count else { return nil }
      return Int(String(decoding: digits[range], as: UTF8.self))
    }
    guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), (1...12).contains(month), (1...31).contains(day) else { return nil }
    if parameters["VALUE"]?.uppercased() == "DATE" || digits.count == 8 { return .date(year: year, month: month, day: day) }
    guard digits.count >= 15, digits[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
      hour < 24, minute < 60, second < 61
    else { return nil }
    let seconds = hour * 3600 + minute * 60 + second
    if digits.count == 16 && digits[15] == UInt8(ascii: "Z") {
      return .utc(Int64(CivilDate.days(year: year, month: month, day: day)) * 86_400 + Int64(seconds))
    }
    return .local(year: year, month: month, day: day, seconds: seconds, zone: parameters["TZID"])
  }

  /// `P1DT2H`, `PT45M`, `P1W`, `-PT5M` in seconds.
  static func duration(_ value: String) -> Int? {
    var rest = Substring(value)
    var sign = 1
    if rest.first == "-" || rest.first == "+" {
      sign = rest.first == "-" ? -1 : 1
      rest = rest.dropFirst()
    }
    guard rest.first == "P" else { return nil }
    rest = rest.dropFirst()
    var total = 0, number = 0
    for character in rest {
      if let digit = character.wholeNumberValue {
        number = number * 10 + digit
        continue
      }
      switch character {
      case "W": total += number * 604_800
      case "D": total += number * 86_400
      case "H": total += number * 3600
      case "M": total += number * 60
      case "S": total += number
      case "T": break
      default: return nil
      }
      number = 0
    }
    return sign * total
  }

  static let weekdays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

  static func rule(_ value: String, _ parameters: [String: String]) -> Rule? {
    var fields: [String: String] = [:]
    for part in value.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1)
      if pair.count == 2 { fields[pair[0].uppercased()] = pair[1].uppercased() }
    }
    guard let frequency = fields["FREQ"], ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"].contains(frequency) else { return nil }
    var rule = Rule(frequency: frequency)
    rule.interval = max(1, Int(fields["INTERVAL"] ?? "1") ?? 1)
    rule.count = fields["COUNT"].flatMap(Int.init)
    rule.until = fields["UNTIL"].flatMap { moment($0, [:]) }
    for item in (fields["BYDAY"] ?? "").split(separator: ",") {
      let code = String(item.suffix(2))
      guard let weekday = weekdays.firstIndex(of: code) else { continue }
      rule.byDay.append((Int(item.dropLast(2)) ?? 0, weekday))
    }
    rule.byMonthDay = (fields["BYMONTHDAY"] ?? "").split(separator: ",").compactMap { Int($0) }
    rule.byMonth = (fields["BYMONTH"] ?? "").split(separator: ",").compactMap { Int($0) }
    return rule
  }
}

extension Substring {
  var trimmingQuotes: String {
    hasPrefix("\"") && hasSuffix("\"") && count >= 2 ? String(dropFirst().dropLast()) : String(self)
  }
}

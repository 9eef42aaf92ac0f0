import Platform
import BitmapFonts

/// Message text with placeholders filled in from the time: `{time}` (`%H:%M`), `{date}`
/// (`%Y-%m-%d`), `{time:FORMAT}` and `{date:FORMAT}` with strftime formats, in the local
/// time zone (`TZ`); `{countdown:YYYY-MM-DD HH:MM}` and `{since:YYYY-MM-DD HH:MM}`, the
/// time left until a local moment or gone since it (`%d` days, `%h` hours and `%m` minutes
/// of the rest, `%H` and `%M` whole hours and minutes; the default `%dd %hh %mm`, after a
/// `|`: `{countdown:2027-02-17 00:00|还有 %d 天}`), never below zero; `{lunar}`, the day of
/// the Chinese lunar calendar (腊月初八), and `{lunar:FORMAT}` with `%M` the month, `%D` the
/// day, `%Y` the year's stem and branch (丙午), `%A` its animal (马) and `%T` the solar term
/// of the day (empty on other days), for 1901 to 2099 (``ChineseCalendar``); `{icon:NAME}`,
/// an icon of the renderer's set (``BitmapFonts/IconSet``) in the line. `{{` and `}}` are
/// literal braces.
public struct TextTemplate: Sendable, Equatable {
  enum Part: Sendable, Equatable {
    case text(String)
    case time(format: String)
    /// Time until (`down`) or since a moment, in Unix time.
    case span(moment: Double, down: Bool, format: String)
    case lunar(format: String)
  }

  let parts: [Part]
  /// The template as written.
  public let source: String

  /// Parses a template; text without placeholders is a template that never changes.
  public init(_ source: String) {
    self.source = source
    var parts: [Part] = []
    var text = ""
    func add(_ part: Part) {
      if !text.isEmpty { parts.append(.text(text)) }
      text = ""
      parts.append(part)
    }
    TextTemplate.walk(source) { piece in
      switch piece {
      case .text(let character), .brace(let character):
        text.append(character)
        return true
      case .placeholder(let name, let format, _):
        switch name {
        case "time", "date": add(.time(format: format.isEmpty ? (name == "time" ? "%H:%M" : "%Y-%m-%d") : String(format)))
        case "icon" where Icon.isValidName(format):
          // An icon is one character of the text (BitmapFonts' IconText).
          text += IconText.character(format)
        case "lunar": add(.lunar(format: format.isEmpty ? "%M%D" : String(format)))
        case "countdown", "since":
          guard let span = TextTemplate.span(String(format), down: name == "countdown") else { return false }
          add(span)
        default: return false
        }
        return true
      }
    }
    if !text.isEmpty { parts.append(.text(text)) }
    self.parts = parts
  }

  /// A piece of a template's text as ``walk(_:_:)`` reads it.
  public enum Piece {
    /// A character of plain text.
    case text(Character)
    /// A brace written twice (`{{` or `}}`), which shows once.
    case brace(Character)
    /// `{NAME:FORMAT}` (or `{NAME}`), and the text of it as written.
    case placeholder(name: Substring, format: Substring, written: Substring)
  }

  /// Reads `source` by the templates' grammar, handing each piece to `visit` in order. A
  /// placeholder `visit` refuses (returns false) is read on as plain text from its `{`, as
  /// an unknown name is. Other layers that fill placeholders of their own (the service's
  /// `{mqtt:…}`) read messages with it, so every reader agrees on braces.
  public static func walk(_ source: String, _ visit: (Piece) -> Bool) {
    var index = source.startIndex
    while index < source.endIndex {
      let character = source[index]
      let next = source.index(after: index)
      if character == "{" || character == "}", next < source.endIndex, source[next] == character {
        _ = visit(.brace(character))
        index = source.index(after: next)
        continue
      }
      if character == "{", let close = source[next...].firstIndex(of: "}") {
        let body = source[next..<close]
        let (name, format) = body.firstIndex(of: ":").map { (body[..<$0], body[body.index(after: $0)...]) } ?? (body, body[body.endIndex...])
        if visit(.placeholder(name: name, format: format, written: source[index...close])) {
          index = source.index(after: close)
          continue
        }
      }
      _ = visit(.text(character))
      index = next
    }
  }

  /// `text` with its braces doubled, so that a template shows it as written.
  public static func escaped(_ text: String) -> String {
    guard text.contains("{") || text.contains("}") else { return text }
    var result = ""
    for character in text {
      result.append(character)
      if character == "{" || character == "}" { result.append(character) }
    }
    return result
  }

  /// The names of the icons the text shows, in order.
  public var iconNames: [String] {
    parts.flatMap { part -> [String] in
      guard case .text(let text) = part else { return [] }
      return IconText.names(in: text)
    }
  }

  /// Whether the text depends on the time.
  public var isDynamic: Bool {
    parts.contains { part in
      switch part {
      case .text: false
      case .time, .span, .lunar: true
      }
    }
  }

  /// `YYYY-MM-DD HH:MM[|FORMAT]` as a span part, or nil (then the text stays as written).
  static func span(_ text: String, down: Bool) -> Part? {
    let pieces = text.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
    let moment = pieces[0].split(separator: " ")
    guard moment.count == 2 else { return nil }
    let date = moment[0].split(separator: "-"), clock = moment[1].split(separator: ":")
    guard date.count == 3, clock.count == 2, let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]),
      let hour = Int(clock[0]), let minute = Int(clock[1]), (1...12).contains(month), (1...31).contains(day),
      (0...23).contains(hour), (0...59).contains(minute)
    else { return nil }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_isdst = -1
    let when = mktime(&parts)
    guard when != -1 else { return nil }
    return .span(moment: Double(when), down: down, format: pieces.count == 2 ? String(pieces[1]) : "%dd %hh %mm")
  }

  /// A span of `seconds` in `format`.
  static func spanText(_ seconds: Double, _ format: String) -> String {
    let minutes = Int(saturating: max(0, seconds) / 60)
    return substitute(format) { code in
      switch code {
      case "d": "\(minutes / 1440)"
      case "h": "\(minutes / 60 % 24)"
      case "m": "\(minutes % 60)"
      case "H": "\(minutes / 60)"
      case "M": "\(minutes)"
      default: nil
      }
    }
  }

  /// The lunar day of the local date at `epochSeconds` in `format` (empty outside the years
  /// the calendar covers).
  static func lunarText(_ format: String, _ epochSeconds: Double) -> String {
    var seconds = time_t(epochSeconds.rounded(.down))
    var parts = tm()
    localtime_r(&seconds, &parts)
    guard let day = ChineseCalendar.day(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)) else {
      return ""
    }
    return substitute(format) { code in
      switch code {
      case "M": day.monthName
      case "D": day.dayName
      case "Y": day.yearName
      case "A": day.zodiac
      case "T": day.termName
      default: nil
      }
    }
  }

  /// `format` with each `%c` replaced by `value(c)`, `%%` by `%`; codes `value` does not
  /// know stay as written.
  static func substitute(_ format: String, _ value: (Character) -> String?) -> String {
    var result = ""
    var iterator = format.makeIterator()
    while let character = iterator.next() {
      guard character == "%", let code = iterator.next() else {
        result.append(character)
        continue
      }
      result += code == "%" ? "%" : value(code) ?? "%\(code)"
    }
    return result
  }

  /// Whether the text changes every second (else at most every minute).
  var changesEverySecond: Bool {
    parts.contains { part in
      guard case .time(let format) = part else { return false }
      return ["%S", "%T", "%r", "%s", "%c", "%X"].contains { format.contains($0) }
    }
  }

  /// The text at Unix time `epochSeconds` (fractions are dropped).
  public func expand(at epochSeconds: Double) -> String {
    var result = ""
    for part in parts {
      switch part {
      case .text(let text): result += text
      case .time(let format): result += TextTemplate.format(format, epochSeconds)
      case .span(let moment, let down, let format):
        // A countdown shows the minutes begun (one minute left until the moment itself).
        let seconds = down ? (moment - epochSeconds.rounded(.down) + 59) : epochSeconds.rounded(.down) - moment
        result += TextTemplate.spanText(seconds, format)
      case .lunar(let format): result += TextTemplate.lunarText(format, epochSeconds)
      }
    }
    return result
  }

  /// The next Unix time after `epochSeconds` at which the text may change.
  public func nextChange(after epochSeconds: Double) -> Double? {
    guard isDynamic else { return nil }
    let step = changesEverySecond ? 1.0 : 60.0
    return ((epochSeconds / step).rounded(.down) + 1) * step
  }

  static func format(_ format: String, _ epochSeconds: Double) -> String {
    var seconds = time_t(epochSeconds.rounded(.down))
    var parts = tm()
    localtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 256)
    let count = strftime(&buffer, buffer.count, format, &parts)
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

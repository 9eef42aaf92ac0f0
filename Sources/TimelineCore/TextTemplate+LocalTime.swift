#if !hasFeature(Embedded)
  import Platform

  /// The placeholders of the time, which need the operating system's local time zone
  /// (`localtime_r`, `mktime`, `strftime`): left out of an Embedded Swift build, where they
  /// read as plain text (Docs/embedded.md).
  extension TextTemplate {
    /// The part for placeholder `name` with `format`, or nil when it is not one of the
    /// time's (or its format is not one: then the text stays as written).
    static func timePart(name: Substring, format: Substring) -> Part? {
      switch name {
      case "time", "date": .time(format: format.isEmpty ? (name == "time" ? "%H:%M" : "%Y-%m-%d") : String(format))
      case "lunar": .lunar(format: format.isEmpty ? "%M%D" : String(format))
      case "countdown", "since": TextTemplate.span(String(format), down: name == "countdown")
      default: nil
      }
    }

    /// The text of a part of the time at Unix time `epochSeconds`.
    static func expand(_ part: Part, at epochSeconds: Double) -> String {
      switch part {
      case .text(let text): text
      case .time(let format): TextTemplate.format(format, epochSeconds)
      case .span(let moment, let down, let format):
        // A countdown shows the minutes begun (one minute left until the moment itself).
        TextTemplate.spanText(down ? (moment - epochSeconds.rounded(.down) + 59) : epochSeconds.rounded(.down) - moment, format)
      case .lunar(let format): TextTemplate.lunarText(format, epochSeconds)
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
      guard let when = CalendarTime.instant(of: .init(year: year, month: month, day: day, hour: hour, minute: minute)) else { return nil }
      return .span(moment: when, down: down, format: pieces.count == 2 ? String(pieces[1]) : "%dd %hh %mm")
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
      let local = CalendarTime.local(epochSeconds)
      guard let day = ChineseCalendar.day(year: local.year, month: local.month, day: local.day) else {
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

    /// Whether the text changes every second (else at most every minute).
    var changesEverySecond: Bool {
      parts.contains { part in
        guard case .time(let format) = part else { return false }
        return ["%S", "%T", "%r", "%s", "%c", "%X"].contains { format.contains($0) }
      }
    }

    static func format(_ format: String, _ epochSeconds: Double) -> String {
      CalendarTime.format(format, epochSeconds)
    }
  }
#endif

import Platform
import Marquee
import Synchronization

/// A calendar date in the sign's local time zone.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var year: Int, month: Int, day: Int

  public init(year: Int, month: Int, day: Int) {
    (self.year, self.month, self.day) = (year, month, day)
  }

  /// `2026-12-01`, or nil for text that is not a date.
  public init?(_ text: Substring) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      (1...12).contains(month), (1...LocalDate.days(inMonth: month, of: year)).contains(day)
    else { return nil }
    self.init(year: year, month: month, day: day)
  }

  public var description: String {
    let m = month < 10 ? "0\(month)" : "\(month)", d = day < 10 ? "0\(day)" : "\(day)"
    return "\(year)-\(m)-\(d)"
  }

  public static func < (a: LocalDate, b: LocalDate) -> Bool {
    (a.year, a.month, a.day) < (b.year, b.month, b.day)
  }

  static func days(inMonth month: Int, of year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 (proleptic Gregorian).
  var dayNumber: Int { CivilDays.number(year, month, day) }

  init(dayNumber z: Int) {
    let z = z + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    self.init(year: yoe + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
  }

  /// The date `count` days later (earlier for a negative count).
  public func adding(days count: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + count) }

  /// The day of the week.
  public var weekday: Weekday { Weekday.allCases[((dayNumber % 7) + 7 + 3) % 7] }  // 1970-01-01 was a Thursday
}

/// A day of the week, as schedules name them (`mon` … `sun`).
public enum Weekday: String, Sendable, CaseIterable, Hashable {
  case mon, tue, wed, thu, fri, sat, sun
}

/// Local time through the C library (`TZ`, `/etc/localtime`), with the two rules daylight
/// saving needs stated:
///
/// - a local time that does not exist (the hour skipped when clocks go forward) is taken as
///   the moment the clocks jump past it, so a window starting at 02:30 that night starts at
///   03:00, and one that lies wholly in the skipped hour does not play;
/// - a local time that occurs twice (the hour repeated when clocks go back) is taken at its
///   first occurrence, so a window is one stretch of real time and never plays twice.
public enum LocalTime {
  /// The local date and the minute of the day (0...1439) at Unix time `t`.
  public static func date(at t: Double) -> (date: LocalDate, minute: Int) {
    let local = CalendarTime.local(t)
    return (LocalDate(year: local.year, month: local.month, day: local.day), local.hour * 60 + local.minute)
  }

  /// The Unix time at which the local clock first shows `minute` (0...1440) of `date`
  /// (1440 is the next day's midnight), by the rules above.
  public static func instant(of date: LocalDate, minute: Int) -> Double {
    let day = date.adding(days: minute / 1440)
    let minute = minute % 1440
    // A day without a clock change is 86,400 s from midnight to midnight: its minutes are
    // plain arithmetic. Only the days clocks change on take the careful path.
    let start = dayStart(day)
    if minute == 0 { return start }
    if dayStart(day.adding(days: 1)) - start == 86_400 { return start + Double(minute) * 60 }
    return search(day, minute)
  }

  /// Midnights already worked out (the time zone is read once per process, as the C
  /// library does unless `TZ` changes).
  static let midnights = Mutex<[LocalDate: Double]>([:])

  static func dayStart(_ day: LocalDate) -> Double {
    if let known = midnights.withLock({ $0[day] }) { return known }
    let start = search(day, 0)
    midnights.withLock { cache in
      if cache.count > 4096 { cache.removeAll() }
      cache[day] = start
    }
    return start
  }

  /// The first instant showing `minute` of `day`, from the C library's `mktime`.
  static func search(_ day: LocalDate, _ minute: Int) -> Double {
    var candidates: [Double] = []
    for daylight in [false, true] {
      let reading = CalendarTime.Reading(year: day.year, month: day.month, day: day.day, hour: minute / 60, minute: minute % 60)
      if let value = CalendarTime.instant(of: reading, daylight: daylight) { candidates.append(value) }
    }
    // The readings that really show the wanted wall time, earliest first.
    if let first = candidates.filter({ c in let shown = LocalTime.date(at: c); return shown.date == day && shown.minute == minute }).min() {
      return first
    }
    // In a gap: the first second whose local time is past the wanted one.
    guard var low = candidates.min(), var high = candidates.max(), high > low else { return candidates.first ?? 0 }
    func isPast(_ t: Double) -> Bool {
      let shown = LocalTime.date(at: t)
      return (shown.date, shown.minute) > (day, minute)
    }
    while high - low > 1 {
      let middle = ((low + high) / 2).rounded(.down)
      if isPast(middle) { high = middle } else { low = middle }
    }
    return high
  }

  /// The clock changes (daylight saving) on the days from `first` to `last`: when, and the
  /// local minute the clocks show just before and just after.
  public static func clockChanges(from first: LocalDate, through last: LocalDate) -> [(time: Double, before: Int, after: Int)] {
    var changes: [(Double, Int, Int)] = []
    var day = first
    while day <= last {
      let start = dayStart(day), end = dayStart(day.adding(days: 1))
      if end - start != 86_400 {
        // The offset changes once in the day: find the second it does.
        func offset(_ t: Double) -> Int { CalendarTime.local(t).offset }
        var low = start, high = end - 1
        let first = offset(low)
        while high - low > 1 {
          let middle = ((low + high) / 2).rounded(.down)
          if offset(middle) == first { low = middle } else { high = middle }
        }
        changes.append((high, date(at: high - 1).minute, date(at: high).minute))
      }
      day = day.adding(days: 1)
    }
    return changes
  }

  /// Now, as Unix time.
  public static func now() -> Double {
    SystemClock.wallSeconds()
  }
}

/// A time zone as the system's tz database describes it (a TZif file of
/// `/usr/share/zoneinfo`): its UTC offset at any moment, from its transitions and, past the
/// last one, from the POSIX rule at the file's end (`CET-1CEST,M3.5.0,M10.5.0/3`).
public struct TimeZoneRules: Sendable, Equatable {
  /// Transition times (UTC seconds) and the offset from each on.
  let transitions: [(at: Int64, offset: Int)]
  /// The offset before the first transition.
  let initial: Int
  /// The rule for the times after the last transition, if the file has one.
  let rule: PosixRule?

  public static func == (a: TimeZoneRules, b: TimeZoneRules) -> Bool {
    a.initial == b.initial && a.rule == b.rule && a.transitions.elementsEqual(b.transitions) { $0.at == $1.at && $0.offset == $1.offset }
  }

  /// Why a file is not a TZif file.
  public struct Unreadable: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// Reads a TZif file (version 2 or later: its 64-bit part; version 1: its 32-bit part).
  ///
  /// - Throws: ``Unreadable`` for bytes that are not one, or counts that run past its end.
  public init(tzif bytes: [UInt8]) throws(Unreadable) {
    func count(_ at: Int) -> Int { bytes.count >= at + 4 ? Int(UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])) : -1 }
    guard bytes.count >= 44, bytes.starts(with: Array("TZif".utf8)) else { throw Unreadable(description: "not a TZif file") }
    var header = 0
    var timeSize = 4
    func sizes(_ at: Int) -> (isUT: Int, isStd: Int, leap: Int, time: Int, type: Int, chars: Int) {
      (count(at + 20), count(at + 24), count(at + 28), count(at + 32), count(at + 36), count(at + 40))
    }
    var s = sizes(0)
    guard [s.isUT, s.isStd, s.leap, s.time, s.type, s.chars].allSatisfy({ $0 >= 0 && $0 < 100_000 }) else { throw Unreadable(description: "a TZif header out of range") }
    if bytes[4] >= UInt8(ascii: "2") {
      // Skip the 32-bit part to the 64-bit one.
      header = 44 + s.time * 4 + s.time + s.type * 6 + s.chars + s.leap * 8 + s.isStd + s.isUT
      guard bytes.count >= header + 44 else { throw Unreadable(description: "a TZif file cut short") }
      s = sizes(header)
      guard [s.isUT, s.isStd, s.leap, s.time, s.type, s.chars].allSatisfy({ $0 >= 0 && $0 < 100_000 }) else { throw Unreadable(description: "a TZif header out of range") }
      timeSize = 8
    }
    let times = header + 44
    let indexes = times + s.time * timeSize
    let types = indexes + s.time
    let end = types + s.type * 6 + s.chars + s.leap * (timeSize + 4) + s.isStd + s.isUT
    guard s.type > 0, bytes.count >= end else { throw Unreadable(description: "a TZif file cut short") }
    func signed(_ at: Int, _ size: Int) -> Int64 {
      var value: UInt64 = 0
      for index in 0..<size { value = value << 8 | UInt64(bytes[at + index]) }
      return size == 8 ? Int64(bitPattern: value) : Int64(Int32(bitPattern: UInt32(value)))
    }
    let offsets = (0..<s.type).map { Int(signed(types + $0 * 6, 4)) }
    var transitions: [(Int64, Int)] = []
    for index in 0..<s.time {
      let type = Int(bytes[indexes + index])
      guard type < offsets.count else { throw Unreadable(description: "a transition to a type the file does not have") }
      transitions.append((signed(times + index * timeSize, timeSize), offsets[type]))
    }
    self.transitions = transitions
    initial = offsets[0]
    // The footer: a newline, the POSIX TZ string, a newline.
    var footer: PosixRule?
    if timeSize == 8, end < bytes.count, bytes[end] == 0x0A, let close = bytes[(end + 1)...].firstIndex(of: 0x0A) {
      footer = PosixRule(String(decoding: bytes[(end + 1)..<close], as: UTF8.self))
    }
    rule = footer
  }

  /// The UTC offset in seconds at UTC time `t`.
  public func offset(at t: Int64) -> Int {
    if let last = transitions.last, t >= last.at, let rule { return rule.offset(at: t) }
    guard let first = transitions.first, t >= first.at else { return transitions.isEmpty ? (rule?.offset(at: t) ?? initial) : initial }
    // The last transition at or before t.
    var low = 0, high = transitions.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if transitions[middle].at <= t { low = middle } else { high = middle - 1 }
    }
    return transitions[low].offset
  }

  /// The UTC time at which the zone's clocks show `local` (seconds as if the local time
  /// were UTC). In a gap (clocks going forward) the time is read with the offset before
  /// it; of a time shown twice, the first.
  public func utc(fromLocal local: Int64) -> Int64 {
    let guesses = Set([offset(at: local - 86_400), offset(at: local + 86_400), offset(at: local)])
    let fits = guesses.map { local - Int64($0) }.filter { Int64(offset(at: $0)) == local - $0 }
    if let first = fits.min() { return first }
    return local - Int64(offset(at: local - 86_400))
  }
}

/// A POSIX TZ string of the form tz databases end their files with: a standard offset, and
/// optionally a daylight one with the rules of its start and end (`M`month`.`week`.`day
/// `/`time); the Julian-day forms are read as no daylight saving.
struct PosixRule: Sendable, Equatable {
  /// UTC offsets in seconds (east positive, as TZif has them).
  var standard: Int
  var daylight: Int?
  /// (month 1-12, week 1-5 (5: last), weekday 0 Sunday, seconds after local midnight).
  var start: (month: Int, week: Int, day: Int, time: Int)?
  var end: (month: Int, week: Int, day: Int, time: Int)?

  static func == (a: PosixRule, b: PosixRule) -> Bool {
    a.standard == b.standard && a.daylight == b.daylight && a.start.map { [$0.month, $0.week, $0.day, $0.time] } == b.start.map { [$0.month, $0.week, $0.day, $0.time] }
      && a.end.map { [$0.month, $0.week, $0.day, $0.time] } == b.end.map { [$0.month, $0.week, $0.day, $0.time] }
  }

  init?(_ text: String) {
    var rest = Substring(text)
    func name() -> Bool {
      if rest.first == "<" {
        guard let close = rest.firstIndex(of: ">") else { return false }
        rest = rest[rest.index(after: close)...]
        return true
      }
      let letters = rest.prefix { $0.isLetter }
      rest = rest.dropFirst(letters.count)
      return letters.count >= 3
    }
    func time() -> Int? {
      var sign = 1
      if rest.first == "-" || rest.first == "+" {
        sign = rest.first == "-" ? -1 : 1
        rest = rest.dropFirst()
      }
      let parts = rest.prefix { $0.isNumber || $0 == ":" }
      rest = rest.dropFirst(parts.count)
      let numbers = parts.split(separator: ":").map { Int($0) ?? 0 }
      guard !numbers.isEmpty else { return nil }
      return sign * (numbers[0] * 3600 + (numbers.count > 1 ? numbers[1] * 60 : 0) + (numbers.count > 2 ? numbers[2] : 0))
    }
    guard name(), let standardWest = time() else { return nil }
    standard = -standardWest
    guard !rest.isEmpty else { return }
    guard name() else { return nil }
    if rest.first != "," { daylight = (time().map { -$0 }) ?? standard + 3600 } else { daylight = standard + 3600 }
    func date() -> (Int, Int, Int, Int)? {
      guard rest.first == ",", rest.dropFirst().first == "M" else { return nil }
      rest = rest.dropFirst(2)
      let fields = rest.prefix { $0.isNumber || $0 == "." }
      rest = rest.dropFirst(fields.count)
      let numbers = fields.split(separator: ".").compactMap { Int($0) }
      guard numbers.count == 3 else { return nil }
      var at = 7200
      if rest.first == "/" {
        rest = rest.dropFirst()
        at = time() ?? 7200
      }
      return (numbers[0], numbers[1], numbers[2], at)
    }
    guard let from = date(), let to = date() else {
      daylight = nil
      return
    }
    start = from
    end = to
  }

  func offset(at t: Int64) -> Int {
    guard let daylight, let start, let end else { return standard }
    let year = CivilDate(days: Int(t.dividedRoundingDown(86_400))).year
    func moment(_ rule: (month: Int, week: Int, day: Int, time: Int), offset: Int) -> Int64 {
      let first = CivilDate.days(year: year, month: rule.month, day: 1)
      let firstWeekday = (first + 4).modulo(7)  // 1970-01-01 was a Thursday.
      var day = 1 + (rule.day - firstWeekday).modulo(7) + (rule.week - 1) * 7
      let length = CivilDate.daysInMonth(year: year, month: rule.month)
      while day > length { day -= 7 }
      return Int64(CivilDate.days(year: year, month: rule.month, day: day)) * 86_400 + Int64(rule.time) - Int64(offset)
    }
    let on = moment(start, offset: standard), off = moment(end, offset: daylight)
    let inside = on < off ? (t >= on && t < off) : (t >= on || t < off)
    return inside ? daylight : standard
  }
}

/// A date of the proleptic Gregorian calendar and its day number from 1970-01-01.
struct CivilDate: Sendable, Equatable, Comparable {
  var year: Int
  var month: Int
  var day: Int

  static func < (a: CivilDate, b: CivilDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

  init(year: Int, month: Int, day: Int) { (self.year, self.month, self.day) = (year, month, day) }

  /// The date of day number `days` (H. Hinnant's algorithm).
  init(days: Int) {
    let z = days + 719_468
    let era = z.dividedRoundingDown(146_097)
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    day = doy - (153 * mp + 2) / 5 + 1
    month = mp < 10 ? mp + 3 : mp - 9
    year = yoe + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// The day number of a date.
  static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = y.dividedRoundingDown(400)
    let yoe = y - era * 400
    let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  var days: Int { CivilDate.days(year: year, month: month, day: day) }
  /// 0 Sunday ... 6 Saturday.
  var weekday: Int { (days + 4).modulo(7) }

  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  func adding(days count: Int) -> CivilDate { CivilDate(days: days + count) }

  /// The same day of the month `count` months on, or nil when that month has no such day.
  func adding(months count: Int) -> CivilDate? {
    let index = year * 12 + (month - 1) + count
    let target = CivilDate(year: index.dividedRoundingDown(12), month: index.modulo(12) + 1, day: day)
    return day <= CivilDate.daysInMonth(year: target.year, month: target.month) ? target : nil
  }
}

extension BinaryInteger {
  func dividedRoundingDown(_ divisor: Self) -> Self {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }

  func modulo(_ divisor: Self) -> Self {
    let remainder = self % divisor
    return remainder < 0 ? remainder + divisor : remainder
  }
}

/// The Chinese lunar calendar (农历) and the solar terms (节气), for the days from 1901 to
/// 2099: what `{lunar}` shows in a message.
///
/// The months and terms come from tables generated from an astronomical calendar (see
/// `Generator/`), in China's time (UTC+8); the days are checked one by one against other
/// sources by the test suite. A day is a Gregorian date of the sign's own calendar, so a
/// sign abroad shows the lunar date printed for that date.
public enum ChineseCalendar {
  /// A day of the lunar calendar.
  public struct Day: Sendable, Equatable {
    /// The lunar year (the Gregorian year in which its first month begins).
    public var year: Int
    /// The month, 1...12.
    public var month: Int
    /// Whether it is the leap month that follows `month` (闰).
    public var isLeapMonth: Bool
    /// The day of the month, 1...30.
    public var day: Int
    /// The solar term that falls on this day, if one does (0: 小寒 ... 23: 冬至).
    public var term: Int?

    /// The month as calendars print it: 正月 ... 十月 冬月 腊月, with 闰 before a leap month.
    public var monthName: String { (isLeapMonth ? "闰" : "") + ChineseCalendar.monthNames[month - 1] }
    /// The day as calendars print it: 初一 ... 初十 十一 ... 二十 廿一 ... 三十.
    public var dayName: String { ChineseCalendar.dayNames[day - 1] }
    /// The year's stem and branch (干支), 丙午 for 2026.
    public var yearName: String {
      let cycle = ((year - 4) % 60 + 60) % 60
      return ChineseCalendar.stems[cycle % 10] + ChineseCalendar.branches[cycle % 12]
    }
    /// The year's animal (生肖), 马 for 2026.
    public var zodiac: String { ChineseCalendar.animals[((year - 4) % 12 + 12) % 12] }
    /// The name of the solar term of the day, or the empty string.
    public var termName: String { term.map { ChineseCalendar.termNames[$0] } ?? "" }
  }

  /// The first and last Gregorian years the tables cover.
  public static let years = 1901...2099

  /// The lunar day of a Gregorian date, or nil outside ``years`` or for a date that does
  /// not exist.
  public static func day(year: Int, month: Int, day: Int) -> Day? {
    guard years.contains(year), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
    let date = CivilDays.number(year, month, day)
    var lunarYear = year
    var start = newYear(lunarYear)
    if date < start {
      lunarYear -= 1
      guard lunarYear >= firstLunarYear else { return nil }
      start = newYear(lunarYear)
    }
    let (leap, lengths) = info(lunarYear)
    var offset = date - start
    let solarTerm = term(year, month: month, on: day)
    var lunarMonth = 1, isLeap = false
    for index in 0..<(leap == 0 ? 12 : 13) {
      let length = lengths & (1 << index) != 0 ? 30 : 29
      if offset < length {
        return Day(year: lunarYear, month: lunarMonth, isLeapMonth: isLeap, day: offset + 1, term: solarTerm)
      }
      offset -= length
      if leap != 0 && lunarMonth == leap && !isLeap {
        isLeap = true
      } else {
        lunarMonth += 1
        isLeap = false
      }
    }
    return nil
  }

  /// The solar term on a Gregorian day, if one falls on it.
  static func term(_ year: Int, month: Int, on day: Int) -> Int? {
    let row = (year - firstTermYear) * 24
    for index in [2 * (month - 1), 2 * (month - 1) + 1] where digit(termDays, row + index) == day { return index }
    return nil
  }

  /// The leap month (0: none) and month lengths of a lunar year.
  static func info(_ year: Int) -> (leap: Int, lengths: Int) {
    let at = (year - firstLunarYear) * 7
    return (hex(lunarYears, at, 1), hex(lunarYears, at + 1, 4))
  }

  /// The day (since 1970-01-01) on which a lunar year begins.
  static func newYear(_ year: Int) -> Int {
    CivilDays.number(year, 1, 1) + hex(lunarYears, (year - firstLunarYear) * 7 + 5, 2) - 1
  }

  static func hex(_ table: StaticString, _ at: Int, _ count: Int) -> Int {
    table.withUTF8Buffer { bytes in
      var value = 0
      for byte in bytes[at..<(at + count)] {
        value = value * 16 + Int(byte >= 65 ? byte - 55 : byte - 48)
      }
      return value
    }
  }

  static func digit(_ table: StaticString, _ at: Int) -> Int {
    table.withUTF8Buffer { bytes in Int(bytes[at] >= 65 ? bytes[at] - 55 : bytes[at] - 48) }
  }

  static func daysIn(month: Int, year: Int) -> Int {
    if month == 2 { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28 }
    return [4, 6, 9, 11].contains(month) ? 30 : 31
  }

  static let monthNames = ["正月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "冬月", "腊月"]
  static let dayNames: [String] = (1...30).map { day in
    let digits = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十"]
    switch day {
    case 1...10: return "初" + digits[day]
    case 20: return "二十"
    case 30: return "三十"
    case 11...19: return "十" + digits[day - 10]
    default: return "廿" + digits[day - 20]
    }
  }
  static let stems = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸"]
  static let branches = ["子", "丑", "寅", "卯", "辰", "巳", "午", "未", "申", "酉", "戌", "亥"]
  static let animals = ["鼠", "牛", "虎", "兔", "龙", "蛇", "马", "羊", "猴", "鸡", "狗", "猪"]
  static let termNames = [
    "小寒", "大寒", "立春", "雨水", "惊蛰", "春分", "清明", "谷雨", "立夏", "小满", "芒种", "夏至",
    "小暑", "大暑", "立秋", "处暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至",
  ]
}

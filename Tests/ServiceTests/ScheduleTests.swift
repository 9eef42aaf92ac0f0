import SimpleJSON
import Testing

@testable import SignService

/// Programs, brightness and off periods as a pure function of time, checked in a week
/// without daylight-saving changes in any common time zone (early December), whatever the
/// machine's zone: instants are made from local dates and times. The daylight-saving
/// nights are checked through `marquee schedule` with TZ set (ScheduleBinaryTests).
@Suite struct ScheduleTests {
  static let monday = LocalDate(year: 2026, month: 12, day: 7)

  static func schedule(_ json: String, zones: [String] = ["main"]) throws -> SignSchedule {
    let fields = try JSONFields(try JSONParser.parse(json))
    return try #require(try ScheduleFile.read(fields, base: RunOptions(), zones: zones))
  }

  static func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Double {
    LocalTime.instant(of: monday.adding(days: day), minute: hour * 60 + minute)
  }

  static let shop = #"""
    {"programs": [
       {"name": "offers", "days": ["mon", "tue", "wed", "thu", "fri", "sat"], "times": ["09:00-18:00"], "messages": ["Offers"]},
       {"name": "evening", "times": ["18:00-23:00"], "messages": ["Closed"]},
       {"name": "late", "days": ["fri"], "times": ["22:00-02:00"], "messages": ["Late"]},
       {"name": "idle", "default": true, "messages": ["Welcome"]}],
     "brightness": [{"at": "07:00", "level": 15}, {"at": "20:00", "level": 4}],
     "off": [{"times": ["23:30-07:00"]}]}
    """#

  @Test func datesAndWeekdays() {
    #expect(ScheduleTests.monday.weekday == .mon && ScheduleTests.monday.adding(days: 6).weekday == .sun)
    #expect(LocalDate(year: 2024, month: 2, day: 29).adding(days: 1) == LocalDate(year: 2024, month: 3, day: 1))
    #expect(LocalDate(year: 1970, month: 1, day: 1).weekday == .thu && LocalDate(year: 2000, month: 1, day: 1).weekday == .sat)
    #expect(LocalDate("2026-02-29") == nil && LocalDate("2028-02-29") != nil && LocalDate("2026-13-01") == nil)
    #expect(TimeWindow("18:00-02:00")?.crossesMidnight == true && TimeWindow("00:00-24:00")?.end == 1440)
    #expect(TimeWindow("9:00-18:00") == nil && TimeWindow("24:00-01:00") == nil && TimeWindow("10:60-11:00") == nil)
  }

  /// The whole week against a reference written here from the rules, not from the
  /// schedule's code: what plays, how bright, off or on, every five minutes and the minute
  /// before each half hour (every change falls on a half hour).
  @Test func aWholeWeekAgainstTheRules() throws {
    let schedule = try ScheduleTests.schedule(ScheduleTests.shop)
    for day in 0..<7 {
      for minute in 0..<1440 where minute % 5 == 0 || minute % 30 == 29 {
        let t = ScheduleTests.at(day, 0, minute)
        let state = schedule.state(at: t)
        var due: [String] = []
        if day < 6 && (540..<1080).contains(minute) { due.append("offers") }
        if (1080..<1380).contains(minute) { due.append("evening") }
        // Friday 22:00 to Saturday 02:00.
        if (day == 4 && minute >= 1320) || (day == 5 && minute < 120) { due.append("late") }
        let level = minute >= 420 && minute < 1200 ? 15 : 4
        let off = minute >= 1410 || minute < 420
        #expect(state.due == due && state.brightness == level && state.off == off, "day \(day) minute \(minute): \(state)")
        #expect(state.program == due.first ?? "idle" || due.count > 1, "day \(day) minute \(minute)")
        if let next = state.nextChange { #expect(next > t) }
      }
    }
  }

  @Test func programsDueTogetherTakeTurnsInOrder() throws {
    let schedule = try ScheduleTests.schedule(#"""
      {"programs": [{"name": "a", "times": ["10:00-11:00"], "seconds": 10, "messages": ["A"]},
                    {"name": "b", "times": ["10:00-11:00"], "seconds": 20, "messages": ["B"]}]}
      """#)
    let start = ScheduleTests.at(1, 10)
    for (offset, expected) in [(0.0, "a"), (9.9, "a"), (10, "b"), (29.9, "b"), (30, "a"), (45, "b"), (3599, "b")] {
      let state = schedule.state(at: start + offset)
      #expect(state.program == expected, "at +\(offset) s: \(state)")
    }
    // The next change is the end of the turn.
    #expect(schedule.state(at: start + 3).nextChange == start + 10)
    #expect(schedule.state(at: start + 12).nextChange == start + 30)
    // No default: before and after, nothing plays.
    #expect(schedule.state(at: start - 1).program == nil && schedule.state(at: start + 3600).program == nil)
  }

  /// A program of a higher priority plays alone while it is due; the ones it outranks wait
  /// and take their turns again when it ends; the timetable names only what plays.
  @Test func aHigherPriorityPlaysAloneWhileItIsDue() throws {
    let schedule = try ScheduleTests.schedule(#"""
      {"programs": [{"name": "offers", "times": ["09:00-18:00"], "seconds": 10, "messages": ["Offers"]},
                    {"name": "news", "times": ["09:00-18:00"], "seconds": 10, "messages": ["News"]},
                    {"name": "sale", "times": ["12:00-13:00"], "priority": 5, "messages": ["Sale"]}]}
      """#)
    let morning = ScheduleTests.at(1, 10)
    #expect(schedule.state(at: morning).program == "offers" && schedule.state(at: morning + 10).program == "news")
    #expect(schedule.state(at: morning).outranked.isEmpty)
    for offset in stride(from: 0.0, to: 3600, by: 7) {
      let state = schedule.state(at: ScheduleTests.at(1, 12) + offset)
      #expect(state.program == "sale" && state.due == ["offers", "news", "sale"] && state.outranked == ["offers", "news"], "+\(offset): \(state)")
    }
    // No turns to end while it plays alone: the next change is its end.
    #expect(schedule.state(at: ScheduleTests.at(1, 12, 30)).nextChange == ScheduleTests.at(1, 13))
    #expect(schedule.state(at: ScheduleTests.at(1, 13)).program == "offers")
    let entries = try Timetable.entries(schedule, from: ScheduleTests.monday.adding(days: 1), days: 1)
    let said = entries.map { "\($0.clock) \($0.change)" }
    #expect(said.contains { $0.hasPrefix("12:00") && $0.contains("sale") && !$0.contains("offers") }, "\(said)")
    #expect(said.contains { $0.hasPrefix("13:00") && $0.contains("offers") && $0.contains("news") }, "\(said)")
    // Only 0 to 9.
    #expect(throws: JSONFieldError.self) {
      try ScheduleTests.schedule(#"{"programs": [{"name": "x", "times": ["09:00-10:00"], "priority": 10, "messages": ["X"]}]}"#)
    }
  }

  @Test func dateRangesAndTheWholeDay() throws {
    let schedule = try ScheduleTests.schedule(#"""
      {"programs": [{"name": "xmas", "dates": "2026-12-09/2026-12-10", "messages": ["Merry"]},
                    {"name": "idle", "default": true, "messages": ["Hi"]}]}
      """#)
    #expect(schedule.state(at: ScheduleTests.at(1, 23, 59)).program == "idle")
    #expect(schedule.state(at: ScheduleTests.at(2, 0)).program == "xmas")
    #expect(schedule.state(at: ScheduleTests.at(3, 23, 59)).program == "xmas")
    #expect(schedule.state(at: ScheduleTests.at(4, 0)).program == "idle")
    #expect(schedule.state(at: ScheduleTests.at(1, 12)).nextChange == ScheduleTests.at(2, 0))
  }

  @Test func sunsetNeedsALocationAndFollowsTheSun() throws {
    let schedule = try ScheduleTests.schedule(#"""
      {"location": {"latitude": 31.23, "longitude": 121.47},
       "brightness": [{"at": "sunrise", "offset": 30, "level": 15}, {"at": "sunset", "offset": -15, "level": 4}]}
      """#)
    let sunset = try #require(SunTimes.sunset(on: ScheduleTests.monday, at: Location(latitude: 31.23, longitude: 121.47)))
    let change = (sunset / 60).rounded() * 60 - 15 * 60
    #expect(schedule.state(at: change - 1).brightness == 15 && schedule.state(at: change).brightness == 4)
    #expect(schedule.state(at: change - 120).nextChange == change)
  }

  @Test(arguments: [
    (#"{"programs": [{"name": "a", "days": ["monday"], "messages": ["x"]}]}"#, "programs[0].days[0]: expected one of mon, tue, wed, thu, fri, sat, sun, got \"monday\""),
    (#"{"programs": [{"name": "a", "times": ["9-17"], "messages": ["x"]}]}"#, "programs[0].times[0]: expected HH:MM-HH:MM (24-hour), got \"9-17\""),
    (#"{"programs": [{"name": "a", "dates": "2026-12-31/2026-01-01", "messages": ["x"]}]}"#, "programs[0].dates: the last date, 2026-01-01, is before the first, 2026-12-31"),
    (#"{"programs": [{"name": "a", "dates": "soon", "messages": ["x"]}]}"#, "programs[0].dates: expected FIRST/LAST"),
    (#"{"programs": [{"name": "a", "messages": ["x"]}, {"name": "a", "messages": ["y"]}]}"#, "programs[1].name: two programs are named 'a'"),
    (#"{"programs": [{"name": "a", "default": true, "messages": ["x"]}, {"name": "b", "default": true, "messages": ["y"]}]}"#, "programs: more than one program is the default"),
    (#"{"programs": [{"name": "a", "speed": "fast", "messages": ["x"]}]}"#, "programs[0].speed: expected a number"),
    (#"{"programs": [{"name": "a"}]}"#, "programs[0].messages: a program needs content"),
    (#"{"programs": [{"name": "a", "zones": [{"zone": "side", "messages": ["x"]}]}]}"#, "programs[0].zones[0].zone: no zone named 'side' (zones: main)"),
    (#"{"brightness": [{"at": "sunset", "level": 4}]}"#, "brightness[0].at: sunset needs the sign's \"location\""),
    (#"{"brightness": [{"at": "07:00", "level": 16}]}"#, "brightness[0].level: 16 is out of range (0 to 15)"),
    (#"{"off": [{"times": ["23:00-07:00"], "level": 3}]}"#, "off[0].level: unknown field"),
  ])
  func badSchedulesNameTheField(json: String, message: String) throws {
    let fields = try JSONFields(try JSONParser.parse(json))
    do {
      _ = try ScheduleFile.read(fields, base: RunOptions(), zones: ["main"])
      Issue.record("\(json) was taken")
    } catch {
      #expect("\(error.field): \(error.reason)".hasPrefix(message), "\(error.field): \(error.reason)")
    }
  }
}

import Foundation
import LiveData
import SimpleJSON
import TestSupport
import Testing

/// iCalendar occurrences as icalendar and recurring-ical-events (PyPI, in .build/venv-sources)
/// find them on the same files: weekly, monthly by ordinal weekday and by day, yearly, whole
/// days, UTC, named zones across a daylight saving change, floating times, EXDATE, COUNT,
/// UNTIL and a moved instance (RECURRENCE-ID); the zones from the system's tz database, by
/// their names or by the Windows names Outlook writes (CLDR's table, checked against icalendar's).
@Suite(.offThePool) struct CalendarTests {
  static let python = PythonTools.python(
    [ProcessInfo.processInfo.environment["MARQUEE_SOURCES_PYTHON"], ".build/venv-sources/bin/python"], importing: "recurring_ical_events")
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("calendar_occurrences.py").path

  /// A zone by its tz database name or its Windows name, as the sign's `TimeZones` reads it.
  static func zone(_ name: String) -> TimeZoneRules? {
    if let mapped = WindowsZones.tzdbName(name) { return zone(mapped) }
    guard !name.contains(".."), let data = FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name) else { return nil }
    return try? TimeZoneRules(tzif: [UInt8](data))
  }

  static let calendar = """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//marquee tests//EN
    BEGIN:VEVENT
    UID:standup
    SUMMARY:Standup
    DTSTART;TZID=Europe/Berlin:20260302T093000
    DTEND;TZID=Europe/Berlin:20260302T094500
    RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20260410T235959Z
    EXDATE;TZID=Europe/Berlin:20260311T093000
    END:VEVENT
    BEGIN:VEVENT
    UID:standup
    RECURRENCE-ID;TZID=Europe/Berlin:20260316T093000
    SUMMARY:Standup (moved)
    DTSTART;TZID=Europe/Berlin:20260316T110000
    DTEND;TZID=Europe/Berlin:20260316T111500
    END:VEVENT
    BEGIN:VEVENT
    UID:board
    SUMMARY:Board meeting
    DTSTART;TZID=America/New_York:20260113T180000
    DURATION:PT2H
    RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=10
    END:VEVENT
    BEGIN:VEVENT
    UID:rent
    SUMMARY:Rent due
    DTSTART;VALUE=DATE:20260131
    RRULE:FREQ=MONTHLY;BYMONTHDAY=-1
    END:VEVENT
    BEGIN:VEVENT
    UID:market
    SUMMARY:Market 市场
    DTSTART;VALUE=DATE:20260305
    DTEND;VALUE=DATE:20260307
    END:VEVENT
    BEGIN:VEVENT
    UID:call
    SUMMARY:Call\\, with Tokyo
    DTSTART:20260320T013000Z
    DTEND:20260320T020000Z
    END:VEVENT
    BEGIN:VEVENT
    UID:night
    SUMMARY:Night bus check
    DTSTART;TZID=Europe/Berlin:20260322T023000
    RRULE:FREQ=WEEKLY;COUNT=4
    END:VEVENT
    BEGIN:VEVENT
    UID:open
    SUMMARY:Doors open
    DTSTART:20260301T080000
    RRULE:FREQ=DAILY;INTERVAL=3;COUNT=12
    END:VEVENT
    BEGIN:VEVENT
    UID:fest
    SUMMARY:Spring festival
    DTSTART;VALUE=DATE:20240317
    RRULE:FREQ=YEARLY
    END:VEVENT
    BEGIN:VEVENT
    UID:outlook
    SUMMARY:Supplier call (Outlook)
    DTSTART;TZID=China Standard Time:20260303T160000
    DTEND;TZID=China Standard Time:20260303T163000
    RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6
    END:VEVENT
    BEGIN:VEVENT
    UID:gone
    SUMMARY:Cancelled talk
    STATUS:CANCELLED
    DTSTART:20260304T120000Z
    END:VEVENT
    END:VCALENDAR
    """

  /// Our occurrences and Python's over local dates `from..<to` in `zone`, as comparable lines.
  static func both(from: String, to: String, zone: String) throws -> (ours: [String], theirs: [String]) {
    let local = try #require(CalendarTests.zone(zone))
    var utcCalendar = Calendar(identifier: .gregorian)
    utcCalendar.timeZone = TimeZone(identifier: "UTC")!
    /// The UTC time of local midnight at the start of `text` (YYYY-MM-DD) in `zone`.
    func midnight(_ text: String) -> Double {
      let parts = text.split(separator: "-").compactMap { Int($0) }
      let day = utcCalendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!.timeIntervalSince1970
      return Double(local.utc(fromLocal: Int64(day)))
    }
    let file = try CalendarFile(Array(calendar.utf8))
    let ours = file.occurrences(from: midnight(from), to: midnight(to), zone: CalendarTests.zone, local: local).map { occurrence -> String in
      if occurrence.allDay {
        let shown = Int64(occurrence.start) + Int64(local.offset(at: Int64(occurrence.start)))
        let days = Int(shown / 86_400)
        let date = utcCalendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
        return "\(occurrence.summary)|" + String(format: "%04d-%02d-%02d", date.year!, date.month!, date.day!) + "|day"
      }
      return "\(occurrence.summary)|\(Int(occurrence.start))|time"
    }
    let job = JSONValue.object([("ics", .string(calendar)), ("from", .string(from)), ("to", .string(to)), ("zone", .string(zone))])
    let result = try ChildProcess.run(try #require(python), [script], input: Data(job.text.utf8))
    #expect(result.status == 0, "\(result.stderr)")
    guard case .array(let found) = try JSONParser.parse(bytes: [UInt8](result.stdoutData)) else { return (ours.sorted(), []) }
    let theirs = found.compactMap { item -> String? in
      guard case .array(let parts) = item, parts.count == 3, case .string(let summary) = parts[0] else { return nil }
      switch (parts[1], parts[2]) {
      case (.string(let date), .bool(true)): return "\(summary)|\(date)|day"
      case (.number(let time), .bool(false)): return "\(summary)|\(Int(time))|time"
      default: return nil
      }
    }
    return (ours.sorted(), theirs.sorted())
  }

  @Test(.enabled(if: python != nil, "needs icalendar and recurring-ical-events from PyPI in .build/venv-sources (.ci/run installs them)"),
        arguments: [("2026-03-01", "2026-04-15", "Europe/Berlin"), ("2026-03-01", "2026-04-15", "Asia/Shanghai"),
                    ("2026-10-20", "2026-11-10", "America/New_York"), ("2027-01-01", "2027-04-01", "UTC")])
  func occurrencesAreWhatRecurringIcalEventsFinds(from: String, to: String, zone: String) throws {
    let (ours, theirs) = try CalendarTests.both(from: from, to: to, zone: zone)
    #expect(!theirs.isEmpty)
    #expect(ours == theirs, "ours only: \(Set(ours).subtracting(theirs).sorted())\ntheirs only: \(Set(theirs).subtracting(ours).sorted())")
  }

  static let tzlocal = PythonTools.python(
    [ProcessInfo.processInfo.environment["MARQUEE_SOURCES_PYTHON"], ".build/venv-sources/bin/python"], importing: "tzlocal.windows_tz")

  /// Our Windows names (CLDR's, as icalendar carries them) against tzlocal's own reading of
  /// CLDR: every name we know it knows, mapped to the same zone or one with the same rules,
  /// and every zone we map to is in the system's tz database.
  @Test(.enabled(if: tzlocal != nil, "needs tzlocal from PyPI in .build/venv-sources (.ci/run installs it)"))
  func windowsNamesMapAsTzlocalMapsThem() throws {
    let result = try ChildProcess.run(try #require(CalendarTests.tzlocal), ["-c", "import json; from tzlocal.windows_tz import win_tz; print(json.dumps(win_tz))"])
    #expect(result.status == 0, "\(result.stderr)")
    guard case .object(let theirs) = try JSONParser.parse(bytes: [UInt8](result.stdoutData)) else { Issue.record("not a table"); return }
    let table = Dictionary(theirs.compactMap { key, value in if case .string(let zone) = value { (key, zone) } else { nil } }) { first, _ in first }
    for (windows, ours) in WindowsZones.table.sorted(by: { $0.key < $1.key }) {
      guard let ourZone = CalendarTests.zone(ours) else {
        Issue.record("\(windows) → \(ours), which the tz database does not have")
        continue
      }
      guard let their = table[windows] else {
        Issue.record("\(windows): tzlocal does not know it")
        continue
      }
      if their == ours { continue }
      // A renamed zone (Europe/Kiev, Europe/Kyiv) is one zone's rules under two names.
      let theirZone = CalendarTests.zone(their)
      let weeks = stride(from: Int64(1_735_689_600), to: 1_830_297_600, by: 86_400 * 7)
      #expect(theirZone != nil && weeks.allSatisfy { ourZone.offset(at: $0) == theirZone!.offset(at: $0) }, "\(windows): ours \(ours), tzlocal's \(their)")
    }
    #expect(WindowsZones.table.count > 130)
    #expect(WindowsZones.tzdbName("China Standard Time") == "Asia/Shanghai" && WindowsZones.tzdbName("W. Europe Standard Time") == "Europe/Berlin")
  }

  @Test func aZoneFromTheTzDatabaseHasItsOffsetsAndItsRuleForLaterYears() throws {
    let berlin = try #require(CalendarTests.zone("Europe/Berlin"))
    #expect(berlin.offset(at: 1_774_744_199) == 3600)  // 2026-03-29 00:59:59 UTC: winter time
    #expect(berlin.offset(at: 1_774_746_000) == 7200)  // 01:00 UTC: summer time
    // 2090 is past the file's transitions (its POSIX rule decides): the last Sunday of March.
    #expect(berlin.offset(at: 3_794_173_200 - 1) == 3600 && berlin.offset(at: 3_794_173_200) == 7200)
    #expect(throws: TimeZoneRules.Unreadable.self) { try TimeZoneRules(tzif: Array("TZif2 and nothing".utf8)) }
  }
}

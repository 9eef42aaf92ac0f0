import Platform
import HTTP
import Marquee
import SimpleJSON
import Testing

@testable import MarqueeCLI
@testable import MarqueeServe
@testable import SignService

/// `GET /api/timetable`: the week ahead as `marquee schedule` prints it, from one computation.
@Suite struct TimetableTests {
  static let config = #"""
    {"location": {"latitude": 52.52, "longitude": 13.40},
     "programs": [{"name": "day", "days": ["mon", "tue", "wed", "thu", "fri"], "times": ["09:00-18:00"], "messages": ["Open"]},
                  {"name": "lunch", "times": ["12:00-13:00"], "messages": ["Lunch"]},
                  {"name": "night", "default": true, "messages": ["Closed"]}],
     "brightness": [{"at": "07:00", "level": 12}, {"at": "sunset", "offset": -15, "level": 3}],
     "off": [{"times": ["01:00-06:00"]}]}
    """#

  @Test func theAPIsWeekIsTheCommandsWeek() throws {
    let folder = try SignSessionTests.Folder()
    var options = try SignSessionTests.options(state: folder.path + "/sign.state", schedule: TimetableTests.config)
    options.statePath = nil
    let clock = ManualSignClock(wall: SignSessionTests.at(10))
    let session = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    let responder = SignRoutes(session: session).responder(hosts: HostNames(machineName: "signpi"), token: nil)
    func get(_ query: [String: String]) -> HTTPResponse {
      responder.respond(to: HTTPRequest(method: "GET", path: "/api/timetable", query: query, headers: ["Host": "127.0.0.1"])).wait()
    }
    let answer = get(["days": "7"])
    #expect(answer.status == 200)
    let table = try JSONParser.parse(String(decoding: answer.body, as: UTF8.self))
    #expect(table["from"] == .string("2026-12-07") && table["days"] == .number(7))
    guard case .array(let entries)? = table["entries"] else {
      Issue.record("no entries in \(table)")
      return
    }
    // Each entry, said as the command says it, is the command's line.
    let lines = entries.map { entry -> String in
      guard case .string(let day)? = entry["day"], case .string(let weekday)? = entry["weekday"], case .string(let time)? = entry["time"] else { return "?" }
      var parts: [String] = []
      if case .bool(let on)? = entry["on"] { parts.append(on ? "on" : "off") }
      if case .string(let name)? = entry["program"] { parts.append("program \(name)" + (entry["default"] == .bool(true) ? " (default)" : "")) }
      if case .array(let names)? = entry["takeTurns"] {
        parts.append("programs \(names.compactMap { if case .string(let n) = $0 { n } else { nil } }.joined(separator: ", ")) take turns")
      }
      if case .number(let level)? = entry["brightness"] { parts.append("brightness \(Int(level))") }
      return "\(weekday.prefix(1).uppercased() + weekday.dropFirst()) \(day) \(time)  " + parts.joined(separator: ", ")
    }
    let printed = try ScheduleListing.text(session.pump.schedule, from: LocalDate(year: 2026, month: 12, day: 7), days: 7)
      .split(separator: "\n").dropFirst().map(String.init)
    #expect(lines == printed)
    #expect(lines.count > 20 && lines.contains { $0.contains("programs day, lunch take turns") } && lines.contains { $0.hasSuffix("off") })
    for days in ["0", "32", "x", "-1"] {
      #expect(get(["days": days]).status == 400, "\(days)")
    }
  }
}

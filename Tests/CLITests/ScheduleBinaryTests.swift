import Foundation
import Testing

/// `marquee schedule` in real time zones, across the nights clocks change: a window in the
/// skipped hour starts when the clocks jump or does not play, and one in the repeated hour
/// plays once. Each zone comes from the C library's `TZ` (Debian's tzdata).
@Suite(.offThePool, .enabled(if: ["Europe/Berlin", "America/New_York", "Asia/Shanghai"].allSatisfy { FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + $0) },
              "needs Debian's tzdata (.ci/run installs it)"))
struct ScheduleBinaryTests {
  static let night = #"""
    {"programs": [
      {"name": "gap", "times": ["02:10-02:50"], "messages": ["skipped hour"]},
      {"name": "night", "times": ["02:30-03:30"], "messages": ["night"]},
      {"name": "twice", "times": ["01:15-01:45"], "messages": ["repeated"]},
      {"name": "idle", "default": true, "messages": ["idle"]}]}
    """#

  func listing(_ json: String, zone: String, from date: String, days: Int = 1) throws -> [String] {
    let path = NSTemporaryDirectory() + "marquee-schedule-\(getpid())-\(UUID().uuidString).json"
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try BinaryRunner.run(["schedule", "--config", path, "--from", date, "--days", "\(days)"], environment: ["TZ": zone])
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").dropFirst().map(String.init)
  }

  @Test(arguments: [("Europe/Berlin", "2026-03-29"), ("America/New_York", "2026-03-08")])
  func theSkippedHour(zone: String, date: String) throws {
    let lines = try listing(ScheduleBinaryTests.night, zone: zone, from: date)
    #expect(lines == [
      "Sun \(date) 00:00  on, program idle (default)",
      "Sun \(date) 01:15  program twice",
      "Sun \(date) 01:45  program idle (default)",
      "Sun \(date) 02:00  clocks go forward from 02:00 to 03:00",
      "Sun \(date) 03:00  program night",
      "Sun \(date) 03:30  program idle (default)",
    ], "\(lines.joined(separator: "\n"))")
  }

  @Test func theRepeatedHourInBerlin() throws {
    // 02:00-02:59 comes twice: the windows in it play once, from their first moment.
    let lines = try listing(ScheduleBinaryTests.night, zone: "Europe/Berlin", from: "2026-10-25")
    #expect(lines == [
      "Sun 2026-10-25 00:00  on, program idle (default)",
      "Sun 2026-10-25 01:15  program twice",
      "Sun 2026-10-25 01:45  program idle (default)",
      "Sun 2026-10-25 02:10  program gap",
      "Sun 2026-10-25 02:30  programs gap, night take turns",
      "Sun 2026-10-25 02:50  program night",
      "Sun 2026-10-25 03:00  clocks go back from 03:00 to 02:00",
      "Sun 2026-10-25 03:30  program idle (default)",
    ], "\(lines.joined(separator: "\n"))")
  }

  @Test func theRepeatedHourInNewYork() throws {
    let lines = try listing(ScheduleBinaryTests.night, zone: "America/New_York", from: "2026-11-01")
    #expect(lines.filter { $0.contains("program twice") }.count == 1, "\(lines.joined(separator: "\n"))")
    #expect(lines.contains("Sun 2026-11-01 02:00  clocks go back from 02:00 to 01:00"))
    #expect(lines.last == "Sun 2026-11-01 03:30  program idle (default)")
  }

  /// The issue's shop in Shanghai (no daylight saving): the offers Monday to Saturday, the
  /// evening notice, off at night, dim from a quarter of an hour before sunset.
  @Test func aShopInShanghai() throws {
    let shop = #"""
      {"location": {"latitude": 31.23, "longitude": 121.47},
       "programs": [
         {"name": "offers", "days": ["mon", "tue", "wed", "thu", "fri", "sat"], "times": ["09:00-18:00"],
          "messages": ["今日特价 Offers"], "mode": "scroll"},
         {"name": "evening", "times": ["18:00-23:00"], "zones": [{"zone": "main", "messages": ["Closed"]}]},
         {"name": "idle", "default": true, "messages": ["Welcome"]}],
       "brightness": [{"at": "07:00", "level": 15}, {"at": "sunset", "offset": -15, "level": 4}],
       "off": [{"times": ["23:00-07:00"]}]}
      """#
    let lines = try listing(shop, zone: "Asia/Shanghai", from: "2026-12-05", days: 2)
    #expect(lines.count == 10, "\(lines.joined(separator: "\n"))")
    #expect(lines[0] == "Sat 2026-12-05 00:00  off, program idle (default), brightness 4")
    #expect(lines[1] == "Sat 2026-12-05 07:00  on, brightness 15")
    #expect(lines[2] == "Sat 2026-12-05 09:00  program offers")
    // Sunset in Shanghai on 5 December is at 16:51 (astral: 16:50:57, within a minute, as
    // SunTimesTests checks): the level drops a quarter of an hour before.
    #expect(["Sat 2026-12-05 16:36  brightness 4", "Sat 2026-12-05 16:37  brightness 4"].contains(lines[3]), "\(lines[3])")
    #expect(lines[4] == "Sat 2026-12-05 18:00  program evening")
    #expect(lines[5] == "Sat 2026-12-05 23:00  off, program idle (default)")
    // Sunday: no offers.
    #expect(!lines[6...].contains { $0.contains("offers") })
  }

  /// The program held until the clock is set is listed once, and never in the timeline.
  @Test func aProgramHeldUntilTheClockIsSet() throws {
    let lines = try listing(#"""
      {"programs": [{"name": "booting", "messages": ["Welcome"]}, {"name": "idle", "default": true, "messages": ["Hi"]}],
       "untilClockSet": "booting"}
      """#, zone: "Asia/Shanghai", from: "2026-12-05")
    #expect(lines == [
      "Until the clock is set after a start: program booting, lit (untilClockSet)",
      "Sat 2026-12-05 00:00  on, program idle (default)",
    ])
  }

  @Test func aBadProgramIsAUsageErrorAtItsPlace() throws {
    let path = NSTemporaryDirectory() + "marquee-schedule-bad-\(getpid()).json"
    try #"{"messages": ["x"],\#n "programs": [{"name": "a", "times": ["9-17"], "messages": ["x"]}]}"#
      .write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try BinaryRunner.run(["schedule", "--config", path])
    #expect(result.status == 64 && result.stderr.hasPrefix("Error: \(path):2:39: field 'programs[0].times[0]': expected HH:MM-HH:MM"), "\(result.stderr)")
    let none = try BinaryRunner.run(["schedule"])
    #expect(none.status == 64 && none.stderr.contains("needs a config file with programs"))
    // The sign itself refuses the same file the same way.
    #expect(try BinaryRunner.run(["--config", path, "--frames", "1"]).status == 64)
  }
}

/// The running sign follows its programs and off periods (on the machine's real clock: the
/// programs here are due all day, so the test does not depend on when it runs).
@Suite(.offThePool) struct ScheduledSignTests {
  func frames(_ json: String, count: Int) throws -> [[String]] {
    let path = NSTemporaryDirectory() + "marquee-scheduled-\(getpid())-\(UUID().uuidString).json"
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try BinaryRunner.run(["--config", path, "--frames", "\(count)"])
    #expect(result.status == 0, "\(result.stderr)")
    return asciiFrames(result.stdout)
  }

  func still(_ text: String) throws -> [String] {
    try #require(asciiFrames(try BinaryRunner.run(["--width", "32", "--frames", "1", "--output", "ascii", text]).stdout).first)
  }

  @Test func programsDueTogetherTakeTurnsOnTheSign() throws {
    let path = NSTemporaryDirectory() + "marquee-turns-\(getpid()).json"
    try #"""
      {"width": 32, "messages": ["Start"],
       "programs": [{"name": "a", "times": ["00:00-24:00"], "seconds": 1, "messages": ["AAA"]},
                    {"name": "b", "times": ["00:00-24:00"], "seconds": 1, "messages": ["BBB"]}]}
      """#.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let sign = try ServedSign(["--config", path, "--output", "ascii"])
    let a = try still("AAA"), b = try still("BBB"), start = try still("Start")
    // Wait (bounded, 10 s) until the sign has shown a, b and a again, or b, a and b: turns
    // of a second each. The sign's own messages never show.
    var runs: [[String]] = []
    for _ in 0..<500 where runs.count < 3 {
      if let shown = asciiFrames(sign.client.request("GET", "/api/frame")?.text ?? "").first, runs.last != shown {
        runs.append(shown)
      }
      usleep(20_000)
    }
    #expect(runs.count >= 3 && runs.allSatisfy { $0 == a || $0 == b } && !runs.contains(start), "\(runs.count) runs")
    _ = sign.stop()
  }

  @Test func anOffPeriodIsDark() throws {
    let shown = try frames(#"""
      {"width": 32, "output": "ascii", "fps": 20, "messages": ["On"], "off": [{"times": ["00:00-24:00"]}]}
      """#, count: 5)
    #expect(shown.count == 5 && shown.allSatisfy { $0.allSatisfy { !$0.contains("#") } })
  }

  @Test func serveShowsTheLevelInForceAndWhatPlaysAndWhy() throws {
    let path = NSTemporaryDirectory() + "marquee-scheduled-serve-\(getpid()).json"
    try #"""
      {"width": 32, "messages": ["Hi"], "brightness": [{"at": "00:00", "level": 6}],
       "programs": [{"name": "shop", "days": ["mon"], "dates": "2001-01-01/2001-01-01", "messages": ["Gone"]},
                    {"name": "idle", "default": true, "messages": ["Idle"]}]}
      """#.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let sign = try ServedSign(["--config", path, "--output", "ascii"])
    #expect(try ServeTests.json(sign.client.request("GET", "/api/state"))["brightness"] == .number(6))
    let schedule = try ServeTests.json(sign.client.request("GET", "/api/schedule"))
    #expect(schedule["program"] == .string("idle") && schedule["reason"] == .string("no program is due: the default plays"))
    #expect(schedule["brightness"] == .number(6) && schedule["off"] == .bool(false) && schedule["next"]?["local"] != nil)
    let programs = schedule["programs"]?.arrayValue ?? []
    #expect(programs.count == 2 && programs[0]["days"] == .array([.string("mon")]) && programs[1]["playing"] == .bool(true))
    _ = sign.stop()
    // Without a schedule, the path says so.
    let plain = try ServedSign(["--output", "ascii", "X"])
    #expect(plain.client.request("GET", "/api/schedule")?.status == 404)
    _ = plain.stop()
  }

  /// A new brightness fades in over two seconds instead of jumping: the MAX7219's
  /// intensity register (0x0A) steps down through the levels between, even on a still sign.
  @Test func aBrightnessChangeFades() throws {
    let dump = NSTemporaryDirectory() + "marquee-fade-\(getpid()).bin"
    defer { try? FileManager.default.removeItem(atPath: dump) }
    let sign = try ServedSign(["--board", "max7219-fc16-32x8", "--spi-dump", dump, "--fps", "20", "Hi"])
    func intensities() -> [UInt8] {
      let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dump))) ?? Data())
      // Each latched transaction is 8 bytes (4 chips x register, data); the first chip's counts.
      return stride(from: 0, to: bytes.count - 7, by: 8).compactMap { bytes[$0] == 0x0A ? bytes[$0 + 1] : nil }
    }
    for _ in 0..<200 where intensities().isEmpty { usleep(20_000) }
    let before = try #require(intensities().last)
    #expect(sign.client.request("POST", "/api/brightness", body: #"{"brightness": 0}"#)?.status == 200)
    for _ in 0..<1000 where intensities().last != 0 { usleep(20_000) }
    let steps = intensities().reduce(into: [UInt8]()) { steps, value in if steps.last != value { steps.append(value) } }
    #expect(steps.last == 0 && steps.count >= 4 && Set(steps).count == steps.count, "from \(before): \(steps)")
    _ = sign.stop()
  }
}

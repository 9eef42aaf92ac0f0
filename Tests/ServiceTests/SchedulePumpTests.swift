import Glibc
import Marquee
import MatrixCore
import SimpleJSON
import Synchronization
import Testing

@testable import SignService

/// The pump that plays a schedule on a running sign, with a wall clock the test sets: a
/// Pi booting with its clock in 1970 until NTP moves it to the day.
@Suite struct SchedulePumpTests {
  final class WallClock: Sendable {
    let now: Mutex<Double>
    init(_ start: Double) { now = Mutex(start) }
    func read() -> Double { now.withLock { $0 } }
    func set(_ value: Double) { now.withLock { $0 = value } }
  }

  @Test func aJumpOfTheWallClockIsSeenWithinSecondsAndTheProgramFollows() throws {
    let monday = LocalDate(year: 2026, month: 12, day: 7)
    let fields = try JSONFields(try JSONParser.parse(#"""
      {"programs": [{"name": "open", "times": ["09:00-18:00"], "messages": ["OPEN"]},
                    {"name": "idle", "default": true, "messages": ["Closed"]}],
       "off": [{"dates": "1970-01-01/1970-01-02"}],
       "brightness": [{"at": "00:00", "level": 5}]}
      """#))
    let schedule = try #require(try ScheduleFile.read(fields, base: RunOptions(), zones: ["main"]))
    var options = RunOptions()
    options.messages = ["Start"]
    let stop = StopFlag()
    let built = try SignPlan.build(options, stop: stop, now: 0)
    let frames = FrameTap(width: 64, height: 8, fps: 10)
    // The clock of a Pi without a real-time clock: the first of January 1970.
    let clock = WallClock(3600)
    let pump = SchedulePump(schedule: schedule, feed: built.feed, frames: frames, stop: stop, wallClock: { clock.read() })
    defer { stop.set() }
    pump.start()
    #expect(pump.current?.program == "idle" && pump.current?.off == true && frames.off && frames.level == 5)
    // NTP sets the clock: Monday 10:00.
    clock.set(LocalTime.instant(of: monday, minute: 600))
    var seen: ScheduleState?
    for _ in 0..<100 where seen?.program != "open" {
      usleep(50_000)
      seen = pump.current
    }
    #expect(seen?.program == "open" && seen?.off == false, "\(String(describing: seen))")
    #expect(!frames.off)
    // The frame loop applies the program at the next frame.
    var frame = Frame(width: 64, height: 8)
    var workspace = FrameWorkspace()
    built.timeline.render(at: 1, into: &frame, workspace: &workspace)
    #expect(built.controller.sign.zones[0].content.messages == ["OPEN"])
  }
}

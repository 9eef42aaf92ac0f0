import Foundation
import Platform
import Marquee
import MatrixCore
import SimpleJSON
import Synchronization
import TestSupport
import Testing

@testable import SignService

/// The pump that plays a schedule on a running sign, with a wall clock the test sets: a
/// Pi booting with its clock in 1970 until NTP moves it to the day.
@Suite(.offThePool) struct SchedulePumpTests {

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
    options.zone.messages = ["Start"]
    let stop = StopFlag()
    let built = try SignPlan.build(options, stop: stop, now: 0)
    let frames = SignLights(width: 64, height: 8, fps: 10)
    // The clock of a Pi without a real-time clock: the first of January 1970.
    let clock = ManualSignClock(wall: 3600)
    let pump = SchedulePump(schedule: schedule, feed: built.feed, lights: frames, stop: stop, clock: clock.clock)
    pump.apply(at: clock.wall)
    #expect(pump.current?.program == "idle" && pump.current?.off == true && frames.off && frames.level == 5)
    // NTP sets the clock: Monday 10:00; the pump's next look (within a second) sees it.
    clock.advance(by: 0.5)
    pump.look()
    #expect(pump.current?.program == "idle", "no jump yet")
    clock.setWall(LocalTime.instant(of: monday, minute: 600))
    pump.look()
    let seen = pump.current
    #expect(seen?.program == "open" && seen?.off == false, "\(String(describing: seen))")
    #expect(!frames.off)
    // The frame loop applies the program at the next frame.
    var frame = Frame(width: 64, height: 8)
    var workspace = FrameWorkspace()
    built.timeline.render(at: 1, into: &frame, workspace: &workspace)
    #expect(built.controller.sign.zones[0].content.messages == ["OPEN"])
  }

  /// After the jump, `{time:…}` texts show the new time at once; the sign's own clock (what
  /// scrolling runs on) goes on from where it was.
  @Test func timeTextsFollowTheJump() throws {
    let monday = LocalDate(year: 2026, month: 12, day: 7)
    let fields = try JSONFields(try JSONParser.parse(#"{"off": [{"dates": "2000-01-01/2000-01-01"}]}"#))
    let schedule = try #require(try ScheduleFile.read(fields, base: RunOptions(), zones: ["main"]))
    var options = RunOptions()
    options.zone.messages = ["{time:%H:%M}"]
    options.zone.alignment = .left
    let stop = StopFlag()
    let clock = ManualSignClock(wall: 3600)
    let built = try SignPlan.build(options, stop: stop, now: clock.wall, clock: clock.clock)
    let pump = SchedulePump(schedule: schedule, feed: built.feed, lights: SignLights(width: 64, height: 8, fps: 10, clock: clock.clock), stop: stop)
    pump.apply(at: clock.wall)
    let started = clock.monotonic
    let ten = LocalTime.instant(of: monday, minute: 600)
    clock.advance(by: 0.25)
    clock.setWall(ten)
    pump.look()
    #expect((built.feed.clockStart ?? 0) > 1_000_000, "the sign's start did not follow the clock")
    var frame = Frame(width: 64, height: 8)
    var workspace = FrameWorkspace()
    let t = clock.monotonic - started
    built.timeline.render(at: t, into: &frame, workspace: &workspace)
    // Half a minute on: 10:00:30 (10:00 exactly is a rounding away from 09:59).
    built.timeline.render(at: t + 30, into: &frame, workspace: &workspace)
    let expected = try Sign(width: 64, height: 8, content: ZoneContent(messages: ["10:00"])).frame(at: 0).pixels
    #expect(frame.pixels == expected, "\(frame.pixels.text)")
  }

  /// `"untilClockSet": "booting"`: until the kernel says NTP set the clock, that program
  /// plays and the sign is lit, whatever the (wrong) clock says; then the schedule takes over.
  @Test func aProgramIsHeldUntilTheClockLooksSet() throws {
    let fields = try JSONFields(try JSONParser.parse(#"""
      {"programs": [{"name": "booting", "messages": ["Welcome"]},
                    {"name": "open", "times": ["00:00-24:00"], "messages": ["OPEN"]}],
       "off": [{"dates": "1970-01-01/1970-01-02"}], "untilClockSet": "booting"}
      """#))
    let schedule = try #require(try ScheduleFile.read(fields, base: RunOptions(), zones: ["main"]))
    #expect(schedule.holdUntilClockSet == "booting")
    var options = RunOptions()
    options.zone.messages = ["Start"]
    let stop = StopFlag()
    let built = try SignPlan.build(options, stop: stop, now: 0)
    let frames = SignLights(width: 64, height: 8, fps: 10)
    let clock = ManualSignClock(wall: 3600, wallIsSet: false)
    let pump = SchedulePump(schedule: schedule, feed: built.feed, lights: frames, stop: stop, clock: clock.clock)
    pump.apply(at: clock.wall)
    #expect(pump.current?.program == "booting" && pump.current?.holding == true && pump.current?.off == false && !frames.off)
    // Held, it is looked at again every second.
    clock.advance(by: 1)
    pump.look()
    #expect(pump.current?.program == "booting" && pump.current?.holding == true)
    // NTP sets the clock and the kernel says so: the schedule plays at the next look.
    clock.setWall(clock.wall + 1, isSet: true)
    pump.look()
    let seen = pump.current
    #expect(seen?.program == "open" && seen?.holding == false, "\(String(describing: seen))")
    // A held program must exist.
    let wrong = try JSONFields(try JSONParser.parse(#"{"programs": [{"name": "a", "messages": ["A"]}], "untilClockSet": "boot"}"#))
    #expect(throws: JSONFieldError(field: "untilClockSet", reason: "no program named 'boot' (programs: a)")) {
      try ScheduleFile.read(wrong, base: RunOptions(), zones: ["main"])
    }
  }

  /// Whether this process may set the wall clock (CAP_SYS_TIME): setting it to what it
  /// reads moves it by microseconds, so the kernel's notice can be tested.
  static let maySetTheClock: Bool = {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return clock_settime(CLOCK_REALTIME, &now) == 0
  }()

  /// The kernel's own notice of a clock set (a timerfd with TFD_TIMER_CANCEL_ON_SET) reaches
  /// the pump, on top of its comparison of the two clocks.
  @Test(.enabled(if: maySetTheClock, "needs CAP_SYS_TIME to set the wall clock to itself"))
  func theKernelSaysWhenTheClockIsSet() throws {
    let fields = try JSONFields(try JSONParser.parse(#"{"off": [{"dates": "2000-01-01/2000-01-01"}]}"#))
    let schedule = try #require(try ScheduleFile.read(fields, base: RunOptions(), zones: ["main"]))
    let stop = StopFlag()
    let built = try SignPlan.build(RunOptions(), stop: stop, now: 0)
    let pump = SchedulePump(schedule: schedule, feed: built.feed, lights: SignLights(width: 64, height: 8, fps: 10), stop: stop)
    defer { stop.set() }
    pump.start()
    // Set until the pump's timer (armed on its own thread) has seen one.
    for _ in 0..<100 where pump.kernelNotices == 0 {
      var now = timespec()
      clock_gettime(CLOCK_REALTIME, &now)
      clock_settime(CLOCK_REALTIME, &now)
      usleep(50_000)
    }
    #expect(pump.kernelNotices > 0)
  }
}

import Platform
import Marquee
import MatrixCore
import SimpleJSON
import Testing

@testable import SignService

/// Live data that goes stale: content with a lifetime shows its fallback when no update
/// comes in that time, says so, and the live text comes back with the next update.
@Suite struct LiveDataTests {
  /// A document from an untrusted source names only allowed topics; the refusal names the
  /// string that broke the rule, wherever it is in the document.
  @Test func placeholderTopicsOutsideTheAllowedFiltersAreRefusedAtTheirField() throws {
    let allowed = ["station/#", "shop/sign/#"]
    let fine = try JSONParser.parse(#"{"messages": ["Next {mqtt:station/next|-}", "plain"], "fallback": ["{mqtt:shop/sign/x}"]}"#)
    try LiveValues.checkTopics(in: fine, allowed: allowed)
    let deputy = try JSONParser.parse(#"{"zones": [{"messages": ["ok"]}, {"messages": ["x", "{mqtt:home/alarm/code}"]}]}"#)
    let refused = #expect(throws: JSONFieldError.self) { try LiveValues.checkTopics(in: deputy, allowed: allowed) }
    #expect(refused?.field == "zones[1].messages[1]" && refused?.reason.contains("{mqtt:home/alarm/code} names a topic this source may not read") == true)
    // A wildcard in a placeholder is not a placeholder: nothing to read.
    try LiveValues.checkTopics(in: .string("{mqtt:home/#}"), allowed: allowed)
  }

  /// Moves the sign's clock on by `seconds` and lets the feed look at lifetimes then, as
  /// its watcher does four times a second.
  func pass(_ seconds: Double, _ clock: ManualSignClock, _ built: BuiltSign) {
    clock.advance(by: seconds)
    built.feed.expire(at: clock.monotonic)
  }

  @Test func aDepartureThatIsNotUpdatedGivesWayToItsFallback() throws {
    var options = RunOptions()
    options.zone.messages = ["Timetable"]
    options.width = 64
    let stop = StopFlag()
    defer { stop.set() }
    let clock = ManualSignClock(wall: 0)
    let built = try SignPlan.build(options, stop: stop, now: 0, clock: clock.clock)
    func messages() -> [String] {
      var frame = Frame(width: 64, height: 8)
      var workspace = FrameWorkspace()
      built.timeline.render(at: 1, into: &frame, workspace: &workspace)
      return built.controller.sign.zones[0].content.messages
    }
    try built.feed.handle(#"{"messages": ["12:05 Berlin"], "lifetime": 0.5, "fallback": ["--:--"], "immediately": true}"#)
    #expect(messages() == ["12:05 Berlin"] && built.feed.staleZones.isEmpty)
    pass(0.4, clock, built)
    #expect(messages() == ["12:05 Berlin"] && built.feed.staleZones.isEmpty, "stale before its lifetime")
    pass(0.2, clock, built)
    #expect(messages() == ["--:--"], "the fallback did not come")
    #expect(built.feed.staleZones == ["main"])
    // The next update brings the live text back, with its lifetime again.
    try built.feed.handle(#"{"messages": ["12:07 Berlin"], "lifetime": 0.5, "immediately": true}"#)
    #expect(messages() == ["12:07 Berlin"] && built.feed.staleZones.isEmpty)
    // Without a fallback, the zone shows its own content.
    pass(0.6, clock, built)
    #expect(messages() == ["Timetable"])
    #expect(built.feed.staleZones == ["main"])
    // Content without a lifetime stays.
    try built.feed.handle(#"{"messages": ["Closed today"], "immediately": true}"#)
    pass(7 * 86_400, clock, built)
    #expect(messages() == ["Closed today"] && built.feed.staleZones.isEmpty)
  }

  /// The messages zone 0 shows after a frame at sign time `t`.
  func shown(_ built: BuiltSign, at t: Double = 1) -> [String] {
    var frame = Frame(width: built.controller.width, height: built.controller.height)
    var workspace = FrameWorkspace()
    built.timeline.render(at: t, into: &frame, workspace: &workspace)
    return built.controller.sign.zones[0].content.messages
  }

  @Test func aStaleZoneWithoutAFallbackShowsThePlayingProgramsContent() throws {
    let fields = try JSONFields(try JSONParser.parse(#"{"programs": [{"name": "menu", "default": true, "messages": ["Menu of the day"]}]}"#))
    let schedule = try #require(try ScheduleFile.read(fields, base: RunOptions(), zones: ["main"]))
    var options = RunOptions()
    options.zone.messages = ["Started with this"]
    let stop = StopFlag()
    defer { stop.set() }
    let clock = ManualSignClock(wall: 0)
    let built = try SignPlan.build(options, stop: stop, now: 0, clock: clock.clock)
    SchedulePump(schedule: schedule, feed: built.feed, lights: SignLights(width: 64, height: 8, fps: 10), stop: stop).look()
    #expect(shown(built) == ["Menu of the day"])
    try built.feed.handle(#"{"messages": ["Soup: 4.50"], "lifetime": 0.3, "immediately": true}"#)
    #expect(shown(built, at: 2) == ["Soup: 4.50"])
    pass(0.4, clock, built)
    #expect(shown(built, at: 3) == ["Menu of the day"], "the program's content did not come back")
    #expect(built.feed.staleZones == ["main"])
  }

  @Test func placeholdersShowTheirTopicsLatestValue() throws {
    var options = RunOptions()
    options.zone.messages = ["Temp {mqtt:home/outside/temp|--}°C {{mqtt:literal}} {mqtt:a/+/b}"]
    options.width = 128
    let stop = StopFlag()
    defer { stop.set() }
    let built = try SignPlan.build(options, stop: stop, now: 0)
    // Before any value, the default; braces doubled stay literal; a wildcard is no topic.
    var frame = Frame(width: 128, height: 8)
    var workspace = FrameWorkspace()
    built.timeline.render(at: 0, into: &frame, workspace: &workspace)
    #expect(built.controller.sign.zones[0].content.messages == ["Temp --°C {{mqtt:literal}} {mqtt:a/+/b}"])
    #expect(built.feed.placeholderTopics().topics == ["home/outside/temp"])
    built.feed.take(topic: "home/outside/temp", payload: "21.5")
    #expect(shown(built, at: 30) == ["Temp 21.5°C {{mqtt:literal}} {mqtt:a/+/b}"])
    // A value with braces shows them as sent (not as a placeholder of its own), on one line.
    built.feed.take(topic: "home/outside/temp", payload: "{time}\n!")
    #expect(shown(built, at: 60) == ["Temp {{time}} !°C {{mqtt:literal}} {mqtt:a/+/b}"])
    // Topics no message names change nothing.
    built.feed.take(topic: "home/inside/temp", payload: "19")
    #expect(shown(built, at: 90) == ["Temp {{time}} !°C {{mqtt:literal}} {mqtt:a/+/b}"])
  }

  /// A 128-wide sign on a manual clock showing "Next {mqtt:station/next}" for 0.4 s without
  /// a value (then "See the screens"), its topic's first value 12:05 taken.
  static func timetable(stop: StopFlag) throws -> (BuiltSign, ManualSignClock) {
    var options = RunOptions()
    options.zone.messages = ["Timetable"]
    options.width = 128
    let clock = ManualSignClock(wall: 0)
    let built = try SignPlan.build(options, stop: stop, now: 0, clock: clock.clock)
    try built.feed.handle(#"{"messages": ["Next {mqtt:station/next}"], "lifetime": 0.4, "fallback": ["See the screens"], "immediately": true}"#)
    built.feed.take(topic: "station/next", payload: "12:05")
    return (built, clock)
  }

  @Test func aPlaceholderWhoseTopicFallsSilentGoesStaleAndComesBack() throws {
    let stop = StopFlag()
    defer { stop.set() }
    let (built, clock) = try Self.timetable(stop: stop)
    #expect(shown(built) == ["Next 12:05"])
    // Values keep it live past its lifetime.
    for _ in 0..<4 {
      pass(0.2, clock, built)
      built.feed.take(topic: "station/next", payload: "12:05")
    }
    #expect(shown(built, at: 2) == ["Next 12:05"] && built.feed.staleZones.isEmpty)
    pass(0.3, clock, built)
    #expect(shown(built, at: 2.5) == ["Next 12:05"], "stale before its lifetime")
    pass(0.2, clock, built)
    #expect(shown(built, at: 3) == ["See the screens"], "the fallback did not come")
    #expect(built.feed.staleZones == ["main"])
    // The next value brings the live text back, with the value.
    built.feed.take(topic: "station/next", payload: "12:20")
    #expect(shown(built, at: 4) == ["Next 12:20"] && built.feed.staleZones.isEmpty)
  }

  /// While the fallback shows, the live messages' topics stay named at every version the
  /// MQTT bridge can read (it subscribes to what `placeholderTopics` says when the version
  /// moves): putting the fallback up used to name none of them between two locks, which
  /// forgot their values and, when the bridge looked then, unsubscribed the sign for good
  /// (a zone stale while its topic was live, seen once on CI).
  @Test func aStaleZonesTopicsStaySubscribedAndALateFallbackChangesNothing() throws {
    let stop = StopFlag()
    defer { stop.set() }
    let (built, clock) = try Self.timetable(stop: stop)
    pass(0.5, clock, built)
    #expect(shown(built, at: 3) == ["See the screens"] && built.feed.staleZones == ["main"])
    // The value is forgotten only when no content names the topic: the fallback's commit
    // named it throughout (the old one forgot it, deterministically, at that moment).
    #expect(built.feed.values.value("station/next")?.text == "12:05", "the stale topic's last value was forgotten")
    #expect(built.feed.placeholderTopics().topics == ["station/next"])
    // A value revives the zone; a fallback made before it and committed after is late.
    built.feed.take(topic: "station/next", payload: "12:20")
    var late = try built.feed.prepare(zone: "main", messages: ["See the screens"], fields: nil, immediately: true, pause: nil)
    late.fallsBack = true
    built.feed.commit([late])
    #expect(shown(built, at: 4) == ["Next 12:20"] && built.feed.staleZones.isEmpty)
  }

  @Test func aFeedLineNotificationThatWakesLightsASignInItsOffPeriod() throws {
    let fields = try JSONFields(try JSONParser.parse(#"{"off": [{"times": ["00:00-24:00"]}]}"#))
    let schedule = try #require(try ScheduleFile.read(fields, base: RunOptions(), zones: ["main"]))
    var options = RunOptions()
    options.zone.messages = ["Open"]
    let stop = StopFlag()
    defer { stop.set() }
    let built = try SignPlan.build(options, stop: stop, now: 0)
    let frames = SignLights(width: 64, height: 8, fps: 10)
    SchedulePump(schedule: schedule, feed: built.feed, lights: frames, stop: stop).start()
    #expect(frames.off)
    try built.feed.handle(#"{"notify": {"messages": ["Quiet"], "duration": 30}}"#)
    _ = shown(built)
    #expect(frames.off, "a notification that does not ask to wake lit the sign")
    try built.feed.handle(#"{"notify": {"messages": ["Doorbell"], "duration": 30, "wake": true}}"#)
    _ = shown(built, at: 2)
    #expect(!frames.off, "the waking notification did not light the sign")
  }

  @Test func badLifetimesAreRefusedWithTheirField() throws {
    let built = try SignPlan.build(RunOptions(), stop: StopFlag(), now: 0)
    #expect { try built.feed.handle(#"{"messages": ["x"], "lifetime": 0}"#) } throws: { "\($0)".contains("lifetime") }
    #expect { try built.feed.handle(#"{"messages": ["x"], "fallback": ["--"]}"#) } throws: { "\($0)".contains("a fallback needs a \"lifetime\"") }
    #expect { try built.feed.handle(#"{"messages": ["x"], "lifetime": 5, "fallback": "--"}"#) } throws: { "\($0)".contains("fallback") }
  }
}

import Glibc
import Marquee
import MatrixCore
import SimpleJSON
import Testing

@testable import SignService

/// Live data that goes stale: content with a lifetime shows its fallback when no update
/// comes in that time, says so, and the live text comes back with the next update.
@Suite struct LiveDataTests {
  func waitUntil(_ condition: () -> Bool) -> Bool {
    for _ in 0..<250 where !condition() { usleep(20_000) }
    return condition()
  }

  @Test func aDepartureThatIsNotUpdatedGivesWayToItsFallback() throws {
    var options = RunOptions()
    options.messages = ["Timetable"]
    options.width = 64
    let stop = StopFlag()
    defer { stop.set() }
    let built = try SignPlan.build(options, stop: stop, now: 0)
    func messages() -> [String] {
      var frame = Frame(width: 64, height: 8)
      var workspace = FrameWorkspace()
      built.timeline.render(at: 1, into: &frame, workspace: &workspace)
      return built.controller.sign.zones[0].content.messages
    }
    try built.feed.handle(#"{"messages": ["12:05 Berlin"], "lifetime": 0.5, "fallback": ["--:--"], "immediately": true}"#)
    #expect(messages() == ["12:05 Berlin"] && built.feed.staleZones.isEmpty)
    #expect(waitUntil { messages() == ["--:--"] }, "the fallback did not come")
    #expect(built.feed.staleZones == ["main"])
    // The next update brings the live text back, with its lifetime again.
    try built.feed.handle(#"{"messages": ["12:07 Berlin"], "lifetime": 0.5, "immediately": true}"#)
    #expect(messages() == ["12:07 Berlin"] && built.feed.staleZones.isEmpty)
    // Without a fallback, the zone shows its own content.
    #expect(waitUntil { messages() == ["Timetable"] })
    #expect(built.feed.staleZones == ["main"])
    // Content without a lifetime stays.
    try built.feed.handle(#"{"messages": ["Closed today"], "immediately": true}"#)
    usleep(700_000)
    #expect(messages() == ["Closed today"] && built.feed.staleZones.isEmpty)
  }

  @Test func badLifetimesAreRefusedWithTheirField() throws {
    let built = try SignPlan.build(RunOptions(), stop: StopFlag(), now: 0)
    #expect { try built.feed.handle(#"{"messages": ["x"], "lifetime": 0}"#) } throws: { "\($0)".contains("lifetime") }
    #expect { try built.feed.handle(#"{"messages": ["x"], "fallback": ["--"]}"#) } throws: { "\($0)".contains("a fallback needs a \"lifetime\"") }
    #expect { try built.feed.handle(#"{"messages": ["x"], "lifetime": 5, "fallback": "--"}"#) } throws: { "\($0)".contains("fallback") }
  }
}

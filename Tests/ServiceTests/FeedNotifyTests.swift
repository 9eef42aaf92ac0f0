import Marquee
import MatrixCore
import SimpleJSON
import Testing

@testable import SignService

/// Notifications from feed lines (`--stdin`, and what MQTT and the API hand the feed):
/// shown at the next frame, over the zone, then gone.
@Suite struct FeedNotifyTests {
  @Test func aNotifyLineShowsAndADismissLineEndsIt() throws {
    var options = RunOptions()
    options.zone.messages = ["Open"]
    options.width = 32
    let built = try SignPlan.build(options, stop: StopFlag(), now: 0)
    func frame(_ t: Double) -> Framebuffer { built.timeline.frame(at: t).pixels }
    let open = try Sign(width: 32, height: 8, content: ZoneContent(messages: ["Open"])).frame(at: 0).pixels
    let bell = try Sign(width: 32, height: 8, content: ZoneContent(messages: ["Bell"])).frame(at: 0).pixels
    #expect(frame(0) == open)
    // Shown from the next frame (0.5 s), for two seconds.
    try built.feed.handle(#"{"notify": {"messages": ["Bell"], "duration": 2}}"#)
    #expect(frame(0.5) == bell && frame(2.4) == bell)
    #expect(frame(2.5) == open)
    try built.feed.handle(#"{"notify": {"messages": ["Bell"], "duration": 60}}"#)
    #expect(frame(3) == bell)
    try built.feed.handle(#"{"dismiss": true}"#)
    #expect(frame(3.5) == open)
    // A bad line names its field and changes nothing.
    #expect { try built.feed.handle(#"{"notify": {"messages": ["x"], "speed": "fast"}}"#) } throws: { "\($0)".contains("notify.speed") }
    #expect { try built.feed.handle(#"{"notify": {"messages": ["x"]}, "colour": 1}"#) } throws: { "\($0)".contains("colour") }
    #expect(frame(4) == open)
  }
}

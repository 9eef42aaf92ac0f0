import Foundation
import Platform
import SimpleJSON
import Testing

@testable import Marquee
@testable import TimelineCore
@testable import SignService

/// How long a person's content holds (`"hold"`): the program's stretch by default, until
/// changed over every program with "always", or until a time of day; the LEDs, the state's
/// why and a restart agree; bad values and live sources are refused at `hold`.
@Suite struct ContentHoldTests {
  typealias Folder = SignSessionTests.Folder

  func session(_ folder: Folder, _ clock: ManualSignClock) throws -> SignSession {
    try SignSession(try SignSessionTests.options(state: folder.path + "/sign.state"), stop: StopFlag(), clock: clock.clock, reports: .inMemory())
  }

  func publish(_ session: SignSession, _ document: String) throws -> Result<SignAnswer, SignRefusal> {
    session.perform(.content(try JSONParser.parse(document), replacing: false))
  }

  @Test func alwaysHoldsOverEveryProgramUntilChanged() throws {
    let folder = try Folder()
    let clock = ManualSignClock(wall: SignSessionTests.at(10, 55, day: 4))
    let sign = try session(folder, clock)
    #expect(try publish(sign, #"{"messages": ["OPEN LATE"], "hold": "always"}"#) == .success(.changed(kept: true, until: nil)))
    #expect(OneTruthTests.truth(sign).leds == ["OPEN LATE"] && OneTruthTests.truth(sign).until == nil)
    #expect(SignSessionTests.zone(sign)?["why"]?["layer"] == .string("person") && SignSessionTests.zone(sign)?["why"]?["until"] == .null)
    // 18:00: the night program starts; the person's content stays, live and after a restart.
    clock.setWall(SignSessionTests.at(18, 0, day: 4))
    sign.pump.look()
    #expect(OneTruthTests.truth(sign).leds == ["OPEN LATE"])
    #expect(sign.state()["program"] == .string("night"))
    #expect(OneTruthTests.truth(try session(folder, clock)).leds == ["OPEN LATE"])
  }

  @Test func aTimeOfDayHoldsUntilTheClockShowsIt() throws {
    let folder = try Folder()
    let clock = ManualSignClock(wall: SignSessionTests.at(10, 55, day: 4))
    let sign = try session(folder, clock)
    // 12:30 today, inside the day program's stretch (which ends at 18:00).
    #expect(try publish(sign, #"{"messages": ["LUNCH"], "hold": "12:30"}"#) == .success(.changed(kept: true, until: SignSessionTests.at(12, 30, day: 4))))
    #expect(OneTruthTests.truth(sign).leds == ["LUNCH"])
    clock.setWall(SignSessionTests.at(12, 29, day: 4))
    sign.pump.look()
    #expect(OneTruthTests.truth(sign).leds == ["LUNCH"])
    clock.setWall(SignSessionTests.at(12, 30, day: 4))
    sign.pump.look()
    #expect(OneTruthTests.truth(sign).leds == ["Day"], "the program's content back at 12:30")
    // A time already past today is tomorrow's.
    #expect(try publish(sign, #"{"messages": ["EARLY"], "hold": "08:00"}"#) == .success(.changed(kept: true, until: SignSessionTests.at(8, 0, day: 5))))
  }

  @Test func theDefaultIsTheProgramsStretch() throws {
    let folder = try Folder()
    let clock = ManualSignClock(wall: SignSessionTests.at(10, 55, day: 4))
    let sign = try session(folder, clock)
    let end = SignSessionTests.at(18, 0, day: 4)
    #expect(try publish(sign, #"{"messages": ["A"], "hold": "program"}"#) == .success(.changed(kept: true, until: end)))
    #expect(try publish(sign, #"{"messages": ["B"]}"#) == .success(.changed(kept: true, until: end)))
  }

  @Test(arguments: [
    (#"{"messages": ["x"], "hold": "25:00"}"#, #"expected "program", "always" or a time HH:MM (24-hour), got "25:00""#),
    (#"{"messages": ["x"], "hold": "forever"}"#, #"expected "program", "always" or a time HH:MM (24-hour), got "forever""#),
    (#"{"messages": ["x"], "hold": 5}"#, #"expected "program", "always" or a time HH:MM, got a number"#),
  ])
  func badHoldsAreRefusedAtTheirField(document: String, reason: String) throws {
    let folder = try Folder()
    let sign = try session(folder, ManualSignClock(wall: SignSessionTests.at(10, 55, day: 4)))
    let before = sign.state()
    #expect(try publish(sign, document) == .failure(SignRefusal(field: "hold", reason)))
    #expect(sign.state() == before)
  }

  @Test func aFeedsContentCannotHold() throws {
    let folder = try Folder()
    let sign = try session(folder, ManualSignClock(wall: SignSessionTests.at(10, 55, day: 4)))
    let answer = sign.perform(.content(try JSONParser.parse(#"{"messages": ["x"], "hold": "always"}"#), replacing: false), from: .feed)
    #expect(answer == .failure(SignRefusal(field: "hold", "only a person's change holds; content from a feed or a broker shows while it is fresh")))
  }
}

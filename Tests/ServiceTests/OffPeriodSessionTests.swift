import Platform
import Drivers
import Marquee
import MatrixCore
import SimpleJSON
import Testing
import TestSupport

@testable import SignService

/// An off period on a MAX7219 chain, in-process on clocks the test moves: the frame loop
/// (the real player, the session's frame tap, the real encoder) puts the chips to sleep once
/// and writes nothing more through ten minutes of the player's time, and wakes them when a
/// person turns the sign on. No window of real time is waited out.
@Suite struct OffPeriodSessionTests {
  @Test func theChipsSleepOnceThroughAnOffPeriodAndWakeWhenTurnedOn() throws {
    let board = try #require(try boardFile("max7219-fc16-32x8").family as? MAX7219Board)
    var options = RunOptions()
    options.width = 32
    options.zone.messages = ["Hi"]
    options.schedule = try ScheduleFile.read(
      try JSONFields(try JSONParser.parse(#"{"off": [{"times": ["00:00-24:00"]}]}"#)), base: RunOptions(), zones: ["main"])
    let clock = ManualSignClock(wall: SignSessionTests.at(10))
    let session = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    var display = TappedDisplay(
      inner: try EncodedDisplay(encoder: MAX7219Encoder(board: board), transport: RecordingTransport()), lights: session.lights)
    /// The (register, data) of the first chip of each transaction sent from `start` on.
    func writes(from start: Int) -> [[UInt8]] { display.inner.transport.transactions.dropFirst(start).map { Array($0.prefix(2)) } }
    func play(seconds: Int) throws {
      try Player(fps: 20, frameLimit: 20 * seconds).run(session.timeline, on: &display, clock: ManualClock(), stop: StopFlag())
    }
    let started = display.inner.transport.transactions.count
    // Ten minutes of the player's time, dark all along: the rows blanked and shutdown
    // (register 0x0C, 0), once, and nothing after.
    let sleeping: [[UInt8]] = (1...8).map { [UInt8($0), 0] } + [[0x0C, 0]]
    try play(seconds: 600)
    #expect(writes(from: started) == sleeping, "\(writes(from: started))")
    #expect(display.isAsleep)
    // A person turns it on: out of shutdown, and the frame's rows written.
    #expect(session.perform(.power(on: true)) == .success(.changed(kept: nil, until: nil)))
    let woken = display.inner.transport.transactions.count
    try play(seconds: 1)
    let after = writes(from: woken)
    #expect(after.contains([0x0C, 1]) && after.contains { (1...8).contains($0[0]) && $0[1] != 0 }, "\(after)")
    // Off again: asleep at once, and quiet.
    #expect(session.perform(.power(on: false)) == .success(.changed(kept: nil, until: nil)))
    let asleep = display.inner.transport.transactions.count
    try play(seconds: 600)
    #expect(writes(from: asleep) == sleeping, "\(writes(from: asleep))")
  }
}

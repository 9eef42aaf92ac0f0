import BitmapFonts
import MatrixCore
import Testing

@testable import Marquee
@testable import TimelineCore

/// A display that records what it was given.
struct RecordingDisplay: Display {
  let width: Int
  let height: Int
  var wantsEveryFrame: Bool
  var frames: [Frame] = []
  var changedFlags: [Bool] = []
  var shutdowns = 0

  init(width: Int, height: Int, wantsEveryFrame: Bool) {
    self.width = width
    self.height = height
    self.wantsEveryFrame = wantsEveryFrame
  }

  mutating func show(_ frame: Frame, changed: Bool) throws {
    frames.append(frame)
    changedFlags.append(changed)
  }

  mutating func shutdown() throws { shutdowns += 1 }
}

/// A clock that also charges time for each frame's work, as a slow machine would.
final class SlowClock: PlayerClock, @unchecked Sendable {
  let inner = ManualClock()
  let costPerCall: Int64
  init(costPerCall: Int64) { self.costPerCall = costPerCall }
  func now() -> Int64 {
    inner.advance(by: costPerCall)
    return inner.now()
  }
  func sleep(until deadline: Int64, stop: StopFlag) { inner.sleep(until: deadline, stop: stop) }
}

@Suite struct PlayerTests {
  func scrolling() throws -> RibbonTimeline {
    try RibbonTimeline(
      messages: ["HELLO WORLD, HELLO SWIFT"], renderer: TextRenderer(), width: 32, height: 8,
      settings: MarqueeSettings(speed: 10))
  }

  @Test func rendersFrameIAtTimeIOverFPSOnAbsoluteDeadlines() throws {
    let timeline = try scrolling()
    var display = RecordingDisplay(width: 32, height: 8, wantsEveryFrame: true)
    let clock = ManualClock(start: 5_000_000_000)
    let stats = try Player(fps: 20, frameLimit: 10).run(
      timeline, on: &display, clock: clock, stop: StopFlag())
    #expect(stats.rendered == 10)
    #expect(display.frames == (0..<10).map { timeline.frame(at: Double($0) / 20) })
    #expect(clock.sleeps == (1...10).map { 5_000_000_000 + Int64($0) * 50_000_000 })
  }

  @Test func renderTimeDoesNotBendTheSchedule() throws {
    // Each clock reading costs 3 ms: deadlines stay at multiples of 50 ms from the start.
    let timeline = try scrolling()
    var display = RecordingDisplay(width: 32, height: 8, wantsEveryFrame: true)
    let clock = SlowClock(costPerCall: 3_000_000)
    try Player(fps: 20, frameLimit: 5).run(timeline, on: &display, clock: clock, stop: StopFlag())
    let start = clock.inner.sleeps[0] - 50_000_000
    #expect(clock.inner.sleeps == (1...5).map { start + Int64($0) * 50_000_000 })
  }

  @Test func stillTextIsDrawnOnceAndThePlayerSleepsUntilTheEnd() throws {
    let timeline = try RibbonTimeline(
      messages: ["HI"], renderer: TextRenderer(), width: 32, height: 8)
    var display = RecordingDisplay(width: 32, height: 8, wantsEveryFrame: false)
    let clock = ManualClock()
    let stats = try Player(fps: 50, frameLimit: 500).run(
      timeline, on: &display, clock: clock, stop: StopFlag())
    #expect(stats.rendered == 1)
    #expect(clock.sleeps == [10_000_000_000])
  }

  @Test func scrollingSkipsFramesThatWouldNotChange() throws {
    // 10 px/s at 40 fps: only every fourth frame moves the text.
    let timeline = try scrolling()
    var display = RecordingDisplay(width: 32, height: 8, wantsEveryFrame: false)
    let stats = try Player(fps: 40, frameLimit: 40).run(
      timeline, on: &display, clock: ManualClock(), stop: StopFlag())
    #expect(stats.rendered == 10)
    #expect(display.changedFlags.allSatisfy { $0 })
  }

  @Test func changedFlagTellsTheDisplayWhenNothingChanged() throws {
    let timeline = try RibbonTimeline(
      messages: ["HI"], renderer: TextRenderer(), width: 32, height: 8)
    var display = RecordingDisplay(width: 32, height: 8, wantsEveryFrame: true)
    try Player(fps: 10, frameLimit: 4).run(
      timeline, on: &display, clock: ManualClock(), stop: StopFlag())
    #expect(display.changedFlags == [true, false, false, false])
  }

  @Test func aLatePlayerDropsFramesInsteadOfFallingBehind() throws {
    let timeline = try scrolling()
    var display = RecordingDisplay(width: 32, height: 8, wantsEveryFrame: false)
    // Each reading costs 120 ms at 10 fps: the player must skip to the frame that is due.
    let clock = SlowClock(costPerCall: 120_000_000)
    let stats = try Player(fps: 10, frameLimit: 30).run(
      timeline, on: &display, clock: clock, stop: StopFlag())
    #expect(stats.dropped > 0)
    #expect(stats.rendered < 30)
  }

  /// A speed near zero puts the next change some 10^300 s away: the player neither traps
  /// converting that to nanoseconds nor spins, it sleeps to the end (issue 34).
  @Test func aChangeFarBeyondAnyClockNeitherTrapsNorSpins() throws {
    for speed in [1e-300, Double.leastNonzeroMagnitude, 1e-6] {
      let timeline = try RibbonTimeline(
        messages: ["A long enough message to scroll along"], renderer: TextRenderer(), width: 32, height: 8,
        settings: MarqueeSettings(speed: speed))
      var display = RecordingDisplay(width: 32, height: 8, wantsEveryFrame: false)
      let clock = ManualClock()
      let stats = try Player(fps: 40, frameLimit: 400).run(timeline, on: &display, clock: clock, stop: StopFlag())
      #expect(stats.rendered == 1, "speed \(speed)")
      #expect(clock.sleeps == [10_000_000_000], "speed \(speed)")
    }
  }

  @Test func stopFlagEndsTheRun() throws {
    let timeline = try scrolling()
    var display = RecordingDisplay(width: 32, height: 8, wantsEveryFrame: true)
    let stop = StopFlag()
    stop.set(signal: 2)
    let stats = try Player(fps: 10).run(timeline, on: &display, clock: ManualClock(), stop: stop)
    #expect(stats.rendered == 0)
    #expect(stop.signalNumber == 2)
  }

  @Test func unpacedRunRendersEveryFrameWithoutSleeping() throws {
    let timeline = try scrolling()
    var display = RecordingDisplay(width: 32, height: 8, wantsEveryFrame: true)
    let clock = ManualClock()
    try Player(fps: 10, frameLimit: 25, paced: false).run(
      timeline, on: &display, clock: clock, stop: StopFlag())
    #expect(display.frames.count == 25)
    #expect(clock.sleeps.isEmpty)
  }

  /// A display that wants every frame, in a process that is stopped (SIGSTOP) for two
  /// seconds after its sixth frame and then continued.
  struct StalledDisplay: Display {
    let width = 32, height = 8
    var wantsEveryFrame: Bool { true }
    let clock: ManualClock
    var frames: [Frame] = []
    mutating func show(_ frame: Frame, changed: Bool) throws {
      frames.append(frame)
      if frames.count == 6 { clock.advance(by: 2_000_000_000) }
    }
    mutating func shutdown() throws {}
  }

  @Test func afterAStallEvenADisplayThatWantsEveryFrameSkipsToTheFrameDue() throws {
    let timeline = try scrolling()
    let clock = ManualClock()
    var display = StalledDisplay(clock: clock)
    let stats = try Player(fps: 10, frameLimit: 40).run(timeline, on: &display, clock: clock, stop: StopFlag())
    // Frames 0-5, then the frame due 2 s later (frame 25), then on time to the end: no
    // burst of the 19 frames missed.
    #expect(stats.dropped == 19)
    #expect(display.frames.count == 21)
    #expect(display.frames[6] == timeline.frame(at: 2.5))
  }
}

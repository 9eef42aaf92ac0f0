import BitmapFonts
import MarqueeTesting
import MatrixCore
import Testing

@testable import Marquee
@testable import TimelineCore

@Suite struct CycleTimelineTests {
  let renderer = TextRenderer()

  func cycle(
    _ messages: [String], width: Int = 32, height: Int = 8, _ settings: CycleSettings = CycleSettings(
      dwell: 1, transition: Transition(entry: [ScrollEffect.all[0]], duration: 0.5), alignment: .center)
  ) throws -> CycleTimeline {
    try CycleTimeline(messages: messages, renderer: renderer, width: width, height: height, settings: settings)
  }

  func still(_ text: String, width: Int = 32) -> Framebuffer {
    MessageCard(strip: renderer.render(text), width: width, height: 8, alignment: .center,
                verticalAlignment: .middle).arrival
  }

  @Test func eachMessageStandsForTheDwellThenTheNextComesIn() throws {
    let timeline = try cycle(["A", "B"])
    #expect(timeline.period == 3)
    for t in [0, 0.5, 0.99] { #expect(timeline.frame(at: t).pixels == still("A")) }
    for t in [1.1, 1.25, 1.4] {
      let pixels = timeline.frame(at: t).pixels
      #expect(pixels != still("A") && pixels != still("B"))
    }
    for t in [1.5, 2, 2.49] { #expect(timeline.frame(at: t).pixels == still("B")) }
    // And around again.
    #expect(timeline.frame(at: 3.2).pixels == still("A"))
    #expect(timeline.phase(at: 2.75) == .transition(from: 1, to: 0, progress: 0.5))
  }

  @Test func aWideMessageScrollsAcrossDuringItsTurn() throws {
    let settings = CycleSettings(
      dwell: 1, transition: Transition(entry: [ScrollEffect.all[0]], duration: 0.5), speed: 10)
    let timeline = try cycle(["SHORT", "A MUCH LONGER MESSAGE"], settings)
    let long = renderer.render("A MUCH LONGER MESSAGE")
    let distance = long.width - 32
    // Turn of the long message: arrives at 1.5 s, stands 1 s, scrolls, stands 1 s.
    #expect(timeline.phase(at: 2.4) == .showing(index: 1, offset: 0))
    #expect(timeline.phase(at: 2.5 + 0.95) == .showing(index: 1, offset: 9))
    let end = 2.5 + Double(distance) / 10
    #expect(timeline.phase(at: end + 0.5) == .showing(index: 1, offset: distance))
    #expect(timeline.frame(at: end + 0.5).pixels == long.cropped(x: distance, y: 0, width: 32, height: 8))
    #expect(timeline.period == 1 + 0.5 + 1 + Double(distance) / 10 + 1 + 0.5)
  }

  @Test func oneMessageThatFitsNeverChanges() throws {
    let timeline = try cycle(["ONLY"])
    #expect(timeline.nextChange(after: 0) == nil)
    #expect(timeline.frame(at: 1000) == timeline.frame(at: 0))
  }

  @Test func framesDoNotDependOnTheFrameRate() throws {
    let timeline = try cycle(["A", "B", "C"], CycleSettings(
      dwell: 0.3, transition: Transition(entry: try EffectCatalog.parse("random"), duration: 0.7)))
    for i in 0..<100 {
      #expect(timeline.frame(at: Double(i) / 10) == timeline.frame(at: Double(2 * i) / 20))
    }
  }

  @Test func nextChangeSleepsThroughTheDwell() throws {
    let timeline = try cycle(["A", "B"])
    #expect(timeline.nextChange(after: 0.2) == 1)
    let during = try #require(timeline.nextChange(after: 1.2))
    #expect(during > 1.2 && during < 1.21)
  }

  @Test func invertAndFlipsApplyToEveryMode() throws {
    var settings = CycleSettings(dwell: 1, transition: Transition(entry: try EffectCatalog.parse("wipe-right")))
    let plain = try cycle(["AB", "CD"], settings)
    settings.presentation = Presentation(inverted: true, flippedHorizontally: true)
    let turned = try cycle(["AB", "CD"], settings)
    for t in [0, 1.1, 1.3, 1.8] {
      let expected = plain.frame(at: t).pixels
      var mirrored = Framebuffer(width: 32, height: 8)
      for y in 0..<8 { for x in 0..<32 { mirrored[x, y] = !expected[31 - x, y] } }
      #expect(turned.frame(at: t).pixels == mirrored)
    }
    let ribbon = try RibbonTimeline(
      messages: ["HELLO WORLD, HELLO SWIFT"], renderer: renderer, width: 32, height: 8,
      settings: MarqueeSettings(presentation: Presentation(flippedVertically: true)))
    let upright = try RibbonTimeline(
      messages: ["HELLO WORLD, HELLO SWIFT"], renderer: renderer, width: 32, height: 8)
    let flipped = ribbon.frame(at: 0.7).pixels, normal = upright.frame(at: 0.7).pixels
    #expect((0..<8).allSatisfy { y in (0..<32).allSatisfy { flipped[$0, y] == normal[$0, 7 - y] } })
  }

  @Test func aLongRunStaysOnTheFormula() throws {
    let timeline = try cycle(["A", "B"])
    // A week later (an exact number of 3-second periods) the sign shows the same as at 0.
    #expect(timeline.frame(at: 7 * 86_400 + 0.5) == timeline.frame(at: 0.5))
    #expect(timeline.phase(at: 7 * 86_400 + 1.25) == .transition(from: 0, to: 1, progress: 0.5))
  }
}

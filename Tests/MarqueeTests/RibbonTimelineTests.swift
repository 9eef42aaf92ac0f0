import BitmapFonts
import MarqueeTesting
import MatrixCore
import Testing

@testable import Marquee
@testable import TimelineCore

/// The framebuffer shifted left by `n` columns, dark columns entering at the right.
func shiftedLeft(_ framebuffer: Framebuffer, by n: Int) -> Framebuffer {
  framebuffer.cropped(x: n, y: 0, width: framebuffer.width, height: framebuffer.height)
}

@Suite struct RibbonTimelineTests {
  let renderer = TextRenderer()

  func ribbon(
    _ messages: [String], width: Int = 32, height: Int = 8,
    _ settings: MarqueeSettings = MarqueeSettings(speed: 10)
  ) throws -> RibbonTimeline {
    try RibbonTimeline(
      messages: messages, renderer: renderer, width: width, height: height, settings: settings)
  }

  /// Years of sign time: the position wraps before it becomes an integer and the travel
  /// counts in 64 bits, so a sign where `Int` is 32 bits (a 32-bit Pi OS, a microcontroller)
  /// does not trap or stall after 2^31 pixels (3.4 years at 20 px/s); the frames and the
  /// message events at that age are those of the same place in the loop.
  @Test func aSignYearsOldScrollsAsOnItsFirstDay() throws {
    let timeline = try ribbon(["Scrolling for years", "and years"], MarqueeSettings(speed: 20))
    let period = Double(timeline.ribbon.width)
    let loops = (5 * 365.25 * 86_400 * 20 / period).rounded(.down)  // about five years of loops
    let old = loops * period / 20
    for t in [0.05, 1.3, 7.25] {
      #expect(timeline.position(at: old + t) == timeline.position(at: t), "t = \(t)")
      #expect(timeline.frame(at: old + t) == timeline.frame(at: t), "t = \(t)")
    }
    let young = timeline.messageEvents(from: 0.5, to: 30).map { ($0.kind == .started, $0.message) }
    let aged = timeline.messageEvents(from: old + 0.5, to: old + 30).map { ($0.kind == .started, $0.message) }
    #expect(!young.isEmpty && aged.elementsEqual(young) { $0 == $1 })
  }

  @Test func textThatFitsStandsStillAtEveryInstant() throws {
    let timeline = try ribbon(["HI"])
    #expect(!timeline.scrolls)
    let first = timeline.frame(at: 0)
    for t in [0.1, 1, 7.5, 1000] {
      #expect(timeline.frame(at: t) == first)
    }
    #expect(timeline.nextChange(after: 0) == nil)
  }

  @Test(arguments: [
    (HorizontalAlignment.left, 0), (.center, 11), (.right, 23),
  ])
  func stillTextIsAligned(alignment: HorizontalAlignment, column: Int) throws {
    // "HI" is 5 + 1 + 3 = 9 columns on a 32-column sign; (32 - 9) / 2 = 11.
    let timeline = try ribbon(["HI"], MarqueeSettings(alignment: alignment))
    let pixels = timeline.frame(at: 0).pixels
    let lit = (0..<32).filter { x in (0..<8).contains { pixels[x, $0] } }
    #expect(lit.first == column)
    #expect(lit.last == column + 8)
  }

  @Test func longTextScrollsOneColumnPerPixelOfTravel() throws {
    let timeline = try ribbon(["HELLO WORLD, HELLO SWIFT"])
    #expect(timeline.scrolls)
    for step in 0..<40 {
      let now = timeline.frame(at: Double(step) / 10).pixels
      let next = timeline.frame(at: Double(step + 1) / 10).pixels
      // Everything but the new rightmost column is the old frame moved left by one.
      #expect(
        next.cropped(x: 0, y: 0, width: 31, height: 8) == now.cropped(x: 1, y: 0, width: 31, height: 8))
    }
  }

  @Test func theLoopIsSeamless() throws {
    let timeline = try ribbon(["HELLO WORLD, HELLO SWIFT"], MarqueeSettings(speed: 10, gap: 6))
    let period = renderer.measure("HELLO WORLD, HELLO SWIFT") + 6
    #expect(timeline.ribbon.width == period)
    // One full period later the sign shows the same pixels.
    #expect(timeline.frame(at: Double(period) / 10) == timeline.frame(at: 0))
    // Six columns before that, the gap is at the left edge and the text's start follows it.
    let wrapping = timeline.frame(at: Double(period - 6) / 10).pixels
    let start = renderer.render("HELLO WORLD, HELLO SWIFT")
    #expect(wrapping.cropped(x: 0, y: 0, width: 6, height: 8).isBlank)
    #expect(wrapping.cropped(x: 6, y: 0, width: 26, height: 8)
      == start.cropped(x: 0, y: 0, width: 26, height: 8))
    // And just before the wrap, the text's end is at the left edge.
    let end = renderer.render("HELLO WORLD, HELLO SWIFT")
    let before = timeline.frame(at: Double(period - 7) / 10).pixels
    #expect(before.cropped(x: 0, y: 0, width: 1, height: 8)
      == end.cropped(x: end.width - 1, y: 0, width: 1, height: 8))
  }

  @Test func rightScrollMovesTheOtherWay() throws {
    let timeline = try ribbon(
      ["HELLO WORLD, HELLO SWIFT"], MarqueeSettings(speed: 10, direction: .right))
    let now = timeline.frame(at: 0.5).pixels
    let next = timeline.frame(at: 0.6).pixels
    #expect(
      next.cropped(x: 1, y: 0, width: 31, height: 8) == now.cropped(x: 0, y: 0, width: 31, height: 8))
  }

  @Test func framesDoNotDependOnTheFrameRate() throws {
    let timeline = try ribbon(["HELLO WORLD, HELLO SWIFT"], MarqueeSettings(speed: 13))
    for i in 0..<200 {
      #expect(timeline.frame(at: Double(i) / 10) == timeline.frame(at: Double(2 * i) / 20))
      #expect(timeline.frame(at: Double(i) / 30) == timeline.frame(at: Double(2 * i) / 60))
    }
  }

  @Test func positionHasNoDriftOverAWeek() throws {
    let timeline = try ribbon(["HELLO WORLD, HELLO SWIFT"], MarqueeSettings(speed: 25))
    let period = timeline.ribbon.width
    for day in 1...7 {
      let t = Double(day * 86_400)
      #expect(timeline.position(at: t) == (day * 86_400 * 25) % period)
    }
  }

  @Test func severalMessagesFormOneRibbonSeparatedByTheGap() throws {
    let timeline = try ribbon(["AAAA", "BBBB", "CCCC"], width: 16, MarqueeSettings(speed: 10, gap: 4))
    let a = renderer.measure("AAAA")
    #expect(timeline.segments == [0..<a, (a + 4)..<(2 * a + 4), (2 * a + 8)..<(3 * a + 8)])
    #expect(timeline.ribbon.width == 3 * a + 12)
    #expect(timeline.message(atColumn: 0, time: 0) == 0)
    #expect(timeline.message(atColumn: a + 1, time: 0) == nil)
    #expect(timeline.message(atColumn: 0, time: Double(a + 4) / 10) == 1)
    #expect(timeline.message(atColumn: 0, time: Double(timeline.ribbon.width) / 10) == 0)
  }

  @Test func shortMessagesTogetherWiderThanTheSignScroll() throws {
    #expect(try ribbon(["ONE", "TWO", "THREE"], width: 20).scrolls)
    #expect(try !ribbon(["ONE"], width: 20).scrolls)
    #expect(try ribbon(["ONE"], width: 20, MarqueeSettings(alwaysScrolls: true)).scrolls)
  }

  @Test func textIsCentredDownATallerSign() throws {
    let timeline = try ribbon(["I"], height: 16)
    let pixels = timeline.frame(at: 0).pixels
    let rows = (0..<16).filter { y in (0..<32).contains { pixels[$0, y] } }
    #expect(rows.first == 4)
  }

  @Test func nextChangeIsTheNextWholePixel() throws {
    let timeline = try ribbon(["HELLO WORLD, HELLO SWIFT"], MarqueeSettings(speed: 4))
    #expect(timeline.nextChange(after: 0) == 0.25)
    #expect(timeline.nextChange(after: 0.3) == 0.5)
  }

  @Test func scrollSnapshots() throws {
    let timeline = try ribbon(["HELLO WORLD, HELLO SWIFT"])
    for t in [0.0, 1.3, 5, 12.9] {
      expectSnapshot(timeline.frame(at: t).pixels, named: "t\(t)")
    }
  }
}

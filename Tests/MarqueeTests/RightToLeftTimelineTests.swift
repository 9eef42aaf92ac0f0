import BitmapFonts
import Foundation
import MatrixCore
import Testing

@testable import Marquee
@testable import TimelineCore

/// Messages that read right to left move and stand the way their readers expect: a ribbon
/// scrolls towards the right with the first message entering first, cycled messages stand
/// at the right and scroll right, pages start their lines at the right.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/unifont/unifont.hex"), "needs the Debian package unifont"))
struct RightToLeftTimelineTests {
  static let unifont: (any Font)? = try? FontFile.load(path: "/usr/share/unifont/unifont.hex").font
  let renderer = TextRenderer(fonts: FontChain(RightToLeftTimelineTests.unifont!))
  let long = "שלום עולם, ברוכים הבאים לחנות שלנו"
  let second = "מבצע היום"

  func litColumns(_ pixels: Framebuffer) -> [Int] {
    (0..<pixels.width).filter { x in (0..<pixels.height).contains { pixels[x, $0] } }
  }

  @Test func aRightToLeftRibbonStartsAtTheRightEdgeAndScrollsRight() throws {
    let timeline = try RibbonTimeline(messages: [long], renderer: renderer, width: 64, height: 16, settings: MarqueeSettings(speed: 10))
    #expect(timeline.readsRightToLeft)
    #expect(timeline.settings.direction == .right)
    // At the start the sign shows the message's last 64 columns: where it starts reading.
    let strip = renderer.render(long)
    #expect(timeline.frame(at: 0).pixels == strip.cropped(x: strip.width - 64, y: 0, width: 64, height: 16))
    // Each tenth of a second it moves one column to the right.
    for step in 0..<30 {
      let now = timeline.frame(at: Double(step) / 10).pixels
      let next = timeline.frame(at: Double(step + 1) / 10).pixels
      #expect(next.cropped(x: 1, y: 0, width: 63, height: 16) == now.cropped(x: 0, y: 0, width: 63, height: 16))
    }
  }

  @Test func theSecondMessageFollowsOnTheLeft() throws {
    let gap = 8
    let timeline = try RibbonTimeline(
      messages: [long, second], renderer: renderer, width: 64, height: 16, settings: MarqueeSettings(speed: 10, gap: gap))
    let first = renderer.measure(long)
    #expect(timeline.segments[1].upperBound + gap == timeline.segments[0].lowerBound)
    #expect(timeline.message(atColumn: 63, time: 0) == 0)
    // The second message's first column comes in from the left once the first message
    // and the gap have passed: after first + gap - 64 + 1 columns of travel.
    let travel = first + gap - 64 + 1
    let events = timeline.messageEvents(from: -1, to: Double(travel + 1) / 10)
    #expect(events.first == MessageEvent(time: 0, kind: .started, message: 0))
    let started = events.first { $0.message == 1 && $0.kind == .started }
    #expect(started.map { abs($0.time - Double(travel) / 10) < 1e-6 } == true, "\(events)")
    #expect(timeline.message(atColumn: 0, time: Double(travel) / 10) == 1)
  }

  @Test func theUserCanStillScrollItLeft() throws {
    let timeline = try RibbonTimeline(
      messages: [long], renderer: renderer, width: 64, height: 16, settings: MarqueeSettings(speed: 10, direction: .left))
    #expect(timeline.settings.direction == .left)
    let now = timeline.frame(at: 1).pixels, next = timeline.frame(at: 1.1).pixels
    #expect(next.cropped(x: 0, y: 0, width: 63, height: 16) == now.cropped(x: 1, y: 0, width: 63, height: 16))
  }

  @Test func leftToRightTextStillScrollsLeft() throws {
    let timeline = try RibbonTimeline(
      messages: ["Welcome to our shop, today only"], renderer: renderer, width: 64, height: 16, settings: MarqueeSettings(speed: 10))
    #expect(!timeline.readsRightToLeft)
    #expect(timeline.settings.direction == .left)
  }

  @Test func aRightToLeftMessageThatFitsStandsAtTheRight() throws {
    let cycle = try CycleTimeline(messages: [second], renderer: renderer, width: 128, height: 16)
    let columns = litColumns(cycle.frame(at: 0).pixels)
    #expect(columns.last == 127 - (renderer.measure(second) - 1 - litColumns(renderer.render(second)).last!))
    let left = try CycleTimeline(messages: [second], renderer: renderer, width: 128, height: 16, settings: CycleSettings(alignment: .left))
    #expect(litColumns(left.frame(at: 0).pixels).first == litColumns(renderer.render(second)).first)
  }

  @Test func aWideCycledRightToLeftMessageArrivesShowingItsStartAndScrollsRight() throws {
    let cycle = try CycleTimeline(messages: [long], renderer: renderer, width: 64, height: 16, settings: CycleSettings(dwell: 1, speed: 10))
    let strip = renderer.render(long)
    #expect(cycle.frame(at: 0).pixels == strip.cropped(x: strip.width - 64, y: 0, width: 64, height: 16))
    let now = cycle.frame(at: 1.5).pixels, next = cycle.frame(at: 1.6).pixels
    #expect(next.cropped(x: 1, y: 0, width: 63, height: 16) == now.cropped(x: 0, y: 0, width: 63, height: 16))
  }

  @Test func pagesOfRightToLeftTextStartEachLineAtTheRight() throws {
    let pages = try CycleTimeline(pagesOf: [long], renderer: renderer, width: 96, height: 32, settings: CycleSettings(dwell: 2))
    let lines = LineBreaker.lines(long, width: 96, renderer: renderer)
    #expect(lines.count >= 2)
    #expect(long.hasPrefix(lines[0]))
    let page = pages.frame(at: 0).pixels
    // The first line, laid out right to left, stands flush right on the top row.
    let first = renderer.render(lines[0])
    #expect(page.cropped(x: 96 - first.width, y: 0, width: first.width, height: 16) == first)
    #expect(litColumns(page.cropped(x: 0, y: 0, width: 96 - first.width, height: 16)).isEmpty)
  }
}

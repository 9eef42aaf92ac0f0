import BitmapFonts
import MatrixCore
import Testing

@testable import Marquee
@testable import TimelineCore

@Suite struct ZoneTests {
  let renderer = TextRenderer()

  /// How a test zone moves.
  enum Kind { case auto, scroll, cycle }

  func content(_ messages: [String], _ kind: Kind = .auto, speed: Double = 10) -> ZoneContent {
    let ribbon = ZoneContent.Ribbon(speed: speed, gap: 4)
    let motion: ZoneContent.Motion = switch kind {
    case .auto: .auto(ribbon)
    case .scroll: .scroll(ribbon)
    case .cycle: .cycle(.init(dwell: 1, speed: speed))
    }
    return ZoneContent(
      messages: messages, motion: motion, style: .init(renderer: renderer),
      transition: Transition(entry: try! EffectCatalog.parse("scroll-up-left"), duration: 0.5))
  }

  func twoZones() throws -> Sign {
    try Sign(width: 64, height: 8, zones: [
      Zone(name: "clock", x: 0, y: 0, width: 20, height: 8, content: content(["12:00"])),
      Zone(name: "ticker", x: 20, y: 0, width: 44, height: 8, content: content(["NEWS: a long headline that scrolls", "SPORT"], .scroll)),
    ])
  }

  /// Alignment is said once, in the style, and every motion honours it (it once lived in
  /// two places, and a cycling content silently took the other one); scroll mode always
  /// moves, so it has none.
  @Test(arguments: [ZoneContent.Motion.auto(), .cycle()])
  func everyMotionTakesTheStylesAlignment(motion: ZoneContent.Motion) throws {
    let sign = try Sign(width: 32, height: 8, content: ZoneContent(messages: ["HI"], motion: motion, style: .init(alignment: .center)))
    let lit = sign.frame(at: 0.1).pixels
    let columns = (0..<32).filter { x in (0..<8).contains { lit[x, $0] } }
    let left = try #require(columns.first), right = try #require(columns.last)
    #expect(abs(left - (31 - right)) <= 1, "\(motion): lit from \(left) to \(right) of 32")
  }

  @Test func zonesNeverDrawOutsideTheirRectangleAndTogetherAreTheUnion() throws {
    let sign = try twoZones()
    for step in 0..<80 {
      let t = Double(step) / 10
      let whole = sign.frame(at: t).pixels
      var union = Framebuffer(width: 64, height: 8)
      for zone in sign.zones {
        let alone = try Sign(width: 64, height: 8, zones: [zone]).frame(at: t).pixels
        for y in 0..<8 {
          for x in 0..<64 where alone[x, y] {
            #expect(x >= zone.x && x < zone.x + zone.width, "zone \(zone.name) lit (\(x),\(y))")
          }
        }
        union.draw(alone, atX: 0, y: 0, mode: .or)
      }
      #expect(whole == union)
    }
  }

  @Test(arguments: EffectCatalog.all.map(\.name))
  func noEffectDrawsOutsideItsZone(name: String) throws {
    // A cycling zone in the middle of a bigger sign, with neighbours dark.
    var zoneContent = content(["AB", "CD"], .cycle)
    zoneContent.transition = Transition(entry: try EffectCatalog.parse(name), duration: 0.5)
    let sign = try Sign(width: 40, height: 16, zones: [Zone(name: "z", x: 10, y: 4, width: 17, height: 8, content: zoneContent)])
    for step in 0..<40 {
      let pixels = sign.frame(at: 0.9 + Double(step) / 60).pixels
      for y in 0..<16 {
        for x in 0..<40 where pixels[x, y] {
          #expect(x >= 10 && x < 27 && y >= 4 && y < 12, "\(name) lit (\(x),\(y))")
        }
      }
    }
  }

  @Test func zonesMustFitTheSignAndHaveUniqueNames() throws {
    let zone = try Zone(name: "a", x: 60, y: 0, width: 10, height: 8, content: content(["X"]))
    #expect(throws: Sign.LayoutError.self) { try Sign(width: 64, height: 8, zones: [zone]) }
    let one = try Zone(name: "a", x: 0, y: 0, width: 10, height: 8, content: content(["X"]))
    #expect(throws: Sign.LayoutError(description: "two zones are named 'a'")) { try Sign(width: 64, height: 8, zones: [one, one]) }
  }

  @Test func twoLinesOnASixteenRowSign() throws {
    let sign = try Sign(width: 32, height: 16, zones: [
      Zone(name: "top", x: 0, y: 0, width: 32, height: 8, content: content(["TOP"])),
      Zone(name: "bottom", x: 0, y: 8, width: 32, height: 8, content: content(["LOW"])),
    ])
    let pixels = sign.frame(at: 0).pixels
    #expect(pixels.cropped(x: 0, y: 0, width: 32, height: 8) == renderer.render("TOP").cropped(x: 0, y: 0, width: 32, height: 8))
    #expect(pixels.cropped(x: 0, y: 8, width: 32, height: 8) == renderer.render("LOW").cropped(x: 0, y: 0, width: 32, height: 8))
  }

  @Test func hitTestingNamesTheMessageUnderAColumn() throws {
    let sign = try twoZones()
    #expect(sign.message(atColumn: 3, row: 3, time: 5)?.zone == "clock")
    #expect(sign.message(atColumn: 20, row: 3, time: 0).map { [$0.zone, String($0.message)] } == ["ticker", "0"])
    let ticker = try #require(sign.zones.last?.segments.last?.timeline as? RibbonTimeline)
    let second = ticker.segments[1]
    // When the second message's first column reaches the zone's left edge…
    let t = Double(second.lowerBound) / 10
    #expect(sign.message(atColumn: 20, row: 0, time: t)?.message == 1)
    #expect(sign.message(atColumn: 2, row: 0, time: t)?.zone == "clock")
    #expect(sign.message(atColumn: 19, row: 0, time: t) == nil)  // past "12:00": nothing there
  }

  @Test func eventsFireInOrderOverALongRun() throws {
    let zone = try Zone(name: "t", x: 0, y: 0, width: 32, height: 8, content: content(["FIRST MESSAGE", "SECOND ONE"], .scroll, speed: 25))
    var open = Set<Int>()
    var last = -1.0
    var count = 0
    var t = -1.0
    // A day in steps of 97 seconds: events in order, each start followed by its end.
    while t < 86_400 {
      let next = t + 97
      for event in zone.events(from: t, to: next) {
        #expect(event.time >= last && event.time > t && event.time <= next)
        last = event.time
        count += 1
        switch event.kind {
        case .started: #expect(open.insert(event.message).inserted, "started twice at \(event.time)")
        case .ended: #expect(open.remove(event.message) != nil, "ended without start at \(event.time)")
        }
      }
      t = next
    }
    #expect(count > 1000)
  }

  @Test func cycleEventsMatchTheTransitions() throws {
    let zone = try Zone(name: "c", x: 0, y: 0, width: 32, height: 8, content: content(["A", "B"], .cycle))
    let events = zone.events(from: -1, to: 3.2)
    #expect(events == [
      MessageEvent(time: 0, kind: .started, message: 0),
      MessageEvent(time: 1, kind: .started, message: 1),
      MessageEvent(time: 1.5, kind: .ended, message: 0),
      MessageEvent(time: 2.5, kind: .started, message: 0),
      MessageEvent(time: 3, kind: .ended, message: 1),
    ])
  }
}

@Suite struct LiveUpdateTests {
  let renderer = TextRenderer()

  func scrolling(_ messages: [String]) throws -> Zone {
    try Zone(name: "z", x: 0, y: 0, width: 32, height: 8, content: ZoneContent(
      messages: messages, motion: .scroll(.init(speed: 10, gap: 4)), style: .init(renderer: renderer)))
  }

  /// Whether each frame is the one before moved left by one column (or identical).
  func movesSmoothly(_ zone: Zone, from t0: Double, steps: Int) throws -> Bool {
    let sign = try Sign(width: 32, height: 8, zones: [zone])
    var previous = sign.frame(at: t0).pixels
    for step in 1...steps {
      let next = sign.frame(at: t0 + Double(step) / 10).pixels
      let shifted = next.cropped(x: 0, y: 0, width: 31, height: 8) == previous.cropped(x: 1, y: 0, width: 31, height: 8)
      if !shifted && next != previous { return false }
      previous = next
    }
    return true
  }

  @Test func anUpdateInTheMiddleOfAScrollShowsNoJump() throws {
    var zone = try scrolling(["OLD NEWS THAT SCROLLS ALONG"])
    let before = try Sign(width: 32, height: 8, zones: [zone]).frame(at: 3.35)
    #expect(try zone.replace(content: ZoneContent(messages: ["FRESH HEADLINE"], motion: .scroll(.init(speed: 10, gap: 4)), style: .init(renderer: renderer)), at: 3.35))
    let after = try Sign(width: 32, height: 8, zones: [zone]).frame(at: 3.35)
    #expect(before == after, "the frame at the update is unchanged")
    #expect(try movesSmoothly(zone, from: 3.3, steps: 400))
    // In the end only the new text scrolls: the newest content is in force and the sign
    // shows its ribbon.
    let late = try Sign(width: 32, height: 8, zones: [zone])
    let lateZone = late.zones[0]
    let inForce = lateZone.segment(at: lateZone.zoneTime(100))
    #expect(inForce.content.messages == ["FRESH HEADLINE"])
    #expect(late.frame(at: 100).pixels == inForce.timeline.frame(at: inForce.local(100)).pixels)
  }

  @Test func anImmediateUpdateAlsoScrollsOnWithoutAJump() throws {
    var zone = try scrolling(["OLD NEWS THAT SCROLLS ALONG"])
    #expect(try zone.replace(content: ZoneContent(messages: ["NOW"], motion: .scroll(.init(speed: 10, gap: 4)), style: .init(renderer: renderer)), at: 2, immediately: true))
    #expect(try movesSmoothly(zone, from: 1.9, steps: 200))
    // Within the sign's width plus the gap, the new text is at the left edge.
    let sign = try Sign(width: 32, height: 8, zones: [zone])
    #expect(sign.frame(at: 2 + 3.6).pixels.cropped(x: 0, y: 0, width: 5, height: 8) == renderer.render("NOW").cropped(x: 0, y: 0, width: 5, height: 8))
  }

  @Test func theSameContentAgainChangesNothing() throws {
    var zone = try scrolling(["SAME TEXT SCROLLING ALONG"])
    let same = zone.content
    #expect(try !zone.replace(content: same, at: 5))
    #expect(zone.segments.count == 1)
    let controller = SignController(sign: try Sign(width: 32, height: 8, zones: [zone]))
    #expect(try !controller.replaceMessages(["SAME TEXT SCROLLING ALONG"], at: 7))
    #expect(try controller.replaceMessages(["OTHER"], at: 7))
  }

  @Test func aCycleUpdateWaitsForTheDwellToEndThenTransitions() throws {
    var zone = try Zone(name: "c", x: 0, y: 0, width: 32, height: 8, content: ZoneContent(
      messages: ["A", "B"], motion: .cycle(.init(dwell: 1)), style: .init(renderer: renderer, alignment: .center),
      transition: Transition(entry: [ScrollEffect.all[0]], duration: 0.5)))
    let sign0 = try Sign(width: 32, height: 8, zones: [zone])
    let a = sign0.frame(at: 0.2)
    var content = zone.content
    content.messages = ["X", "Y"]
    #expect(try zone.replace(content: content, at: 0.4))
    let sign = try Sign(width: 32, height: 8, zones: [zone])
    // A keeps its dwell…
    #expect(sign.frame(at: 0.9) == a)
    // …then the transition goes to X (not B), never through a blank frame.
    for step in 0..<10 {
      #expect(!sign.frame(at: 1 + Double(step) / 20).pixels.isBlank)
    }
    let x = MessageCard(strip: renderer.render("X"), width: 32, height: 8, alignment: .center, verticalAlignment: .middle).arrival
    #expect(sign.frame(at: 1.6).pixels == x)
  }

  @Test func pauseFreezesAZoneAndResumeContinuesWhereItStopped() throws {
    var zone = try scrolling(["PAUSE ME WHILE I SCROLL ALONG"])
    let reference = try Sign(width: 32, height: 8, zones: [zone])
    zone.pause(at: 2)
    let paused = try Sign(width: 32, height: 8, zones: [zone])
    #expect(paused.frame(at: 5) == reference.frame(at: 2))
    #expect(paused.nextChange(after: 3) == nil)
    zone.resume(at: 6)
    let resumed = try Sign(width: 32, height: 8, zones: [zone])
    #expect(resumed.frame(at: 7.5) == reference.frame(at: 3.5))
  }

  @Test func aWeekOfUpdatesKeepsMemoryFlatAndPositionsExact() throws {
    var zone = try scrolling(["WEEK LONG TICKER TEXT"])
    var t = 0.0
    var cycle = 0
    while t < 7 * 86_400 {
      t += 240  // an update every four minutes
      cycle += 1
      var content = zone.content
      content.messages = ["UPDATE \(cycle % 7)", "MORE TEXT THAT SCROLLS"]
      _ = try zone.replace(content: content, at: t)
      if cycle % 10 == 0 {
        zone.pause(at: t + 1)
        zone.resume(at: t + 3)
      }
    }
    #expect(zone.segments.count <= 2)
    #expect(zone.pauses.count <= 1)
    // The newest content scrolls by the formula, counted from when it took over.
    let segment = zone.segments.last!
    let ribbon = try #require(segment.timeline as? RibbonTimeline)
    let begins = try #require(zone.signTime(forZoneTime: segment.start + segment.leadIn.duration))
    let sign = try Sign(width: 32, height: 8, zones: [zone])
    let probe = begins + 123.4
    #expect(sign.frame(at: probe) == ribbon.frame(at: probe - begins))
  }

  @Test func controllerDispatchesEventsAndWakesThePlayer() throws {
    let flag = StopFlag()
    let controller = SignController(sign: try Sign(width: 32, height: 8, zones: [scrolling(["FIRST MESSAGE HERE", "AND A SECOND"])]), wake: flag)
    let seen = EventLog()
    controller.onEvent { zone, event in seen.append("\(zone):\(event.kind.rawValue):\(event.message)") }
    var frame = Frame(width: 32, height: 8)
    var workspace = FrameWorkspace()
    for step in 0...300 { controller.render(at: Double(step) / 10, into: &frame, workspace: &workspace) }
    #expect(seen.entries.first == "z:started:0")
    #expect(seen.entries.contains("z:ended:0") && seen.entries.contains("z:started:1"))
    let before = flag.wakeCount
    try controller.replaceMessages(["NEW"], at: 30)
    #expect(flag.wakeCount == before + 1)
    #expect(throws: SignController.ChangeError.noSuchZone("nope", zones: controller.sign.zones.map(\.name))) { try controller.replaceMessages(["X"], inZone: "nope") }
  }
}

/// A thread-safe list of strings for event callbacks.
final class EventLog: @unchecked Sendable {
  private var storage: [String] = []
  private let lock = NSLockish()
  func append(_ entry: String) { lock.run { storage.append(entry) } }
  var entries: [String] { lock.run { storage } }
}

import Synchronization

final class NSLockish: Sendable {
  let mutex = Mutex(())
  func run<T>(_ body: () -> T) -> T { mutex.withLock { _ in body() } }
}

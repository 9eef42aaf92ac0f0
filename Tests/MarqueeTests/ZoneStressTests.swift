import BitmapFonts
import MarqueeTesting
import MatrixCore
import Testing

@testable import Marquee

/// Updates, pauses and resumes in any order and at any pace (as a feed or an HTTP client
/// sends them): the zone always has content to draw, and its clock never runs backwards.
@Suite struct ZoneStressTests {
  @Test func randomUpdatesPausesAndResumesNeverLoseTheContent() throws {
    let renderer = TextRenderer()
    var random = SeededRandom(state: 1763)
    for round in 0..<40 {
      let modes: [ZoneContent.Mode] = [.auto, .scroll, .cycle]
      func content() -> ZoneContent {
        ZoneContent(
          messages: ["Load \(Int.random(in: 0..<5, using: &random))", "and more text that scrolls"].prefix(Int.random(in: 1...2, using: &random)).map { $0 },
          mode: modes.randomElement(using: &random)!, renderer: renderer,
          marquee: MarqueeSettings(speed: [20, 30, 40].randomElement(using: &random)!, gap: 4),
          cycle: CycleSettings(dwell: 0.5, transition: Transition(entry: try! EffectCatalog.parse("scroll-up"), duration: 0.2), speed: 30))
      }
      var zone = try Zone(name: "main", x: 0, y: 0, width: 32, height: 8, content: content())
      var t = 0.0
      var lastZoneTime = 0.0
      var frame = Frame(width: 32, height: 8)
      var workspace = FrameWorkspace()
      for _ in 0..<300 {
        // Several changes may land on the same frame time.
        if Bool.random(using: &random) { t += Double(Int.random(in: 1...3, using: &random)) / 40 }
        let op = Int.random(in: 0..<4, using: &random)
        let now = Bool.random(using: &random)
        switch op {
        case 0: zone.pause(at: t)
        case 1: zone.resume(at: t)
        default: _ = try zone.replace(content: content(), at: t, immediately: now)
        }
        let z = zone.zoneTime(t)
        #expect(z >= lastZoneTime - 1e-9, "round \(round): zone time went back from \(lastZoneTime) to \(z) at \(t)")
        lastZoneTime = z
        zone.render(at: t, into: &frame, workspace: &workspace)
        _ = zone.nextChange(after: t)
      }
    }
  }
}

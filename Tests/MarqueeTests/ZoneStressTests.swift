import BitmapFonts
import MarqueeTesting
import MatrixCore
import Testing

@testable import Marquee
@testable import TimelineCore

/// Updates, pauses and resumes in any order and at any pace (as a feed or an HTTP client
/// sends them): the latest content is always the one the zone shows or will show, it is in
/// force once its boundary has passed, and the zone's clock never runs backwards.
@Suite struct ZoneStressTests {
  @Test func randomUpdatesPausesAndResumesKeepTheLatestContentAndTheClockMonotonic() throws {
    let renderer = TextRenderer()
    var random = SplitMix64(seed: 1763)
    for round in 0..<40 {
      func content() -> ZoneContent {
        let ribbon = ZoneContent.Ribbon(speed: [20, 30, 40].randomElement(using: &random)!, gap: 4)
        let motions: [ZoneContent.Motion] = [.auto(ribbon), .scroll(ribbon), .cycle(.init(dwell: 0.5, speed: 30))]
        return ZoneContent(
          messages: ["Load \(Int.random(in: 0..<5, using: &random))", "and more text that scrolls"].prefix(Int.random(in: 1...2, using: &random)).map { $0 },
          motion: motions.randomElement(using: &random)!, style: .init(renderer: renderer),
          transition: Transition(entry: try! EffectCatalog.parse("scroll-up"), duration: 0.2))
      }
      var latest = content()
      var zone = try Zone(name: "main", x: 0, y: 0, width: 32, height: 8, content: latest)
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
        default:
          latest = content()
          _ = try zone.replace(content: latest, at: t, immediately: now)
        }
        // Checked before a message is made: twelve thousand of them cost seconds in a debug build.
        if zone.segments.last?.content != latest { Issue.record("round \(round): the latest content was dropped at \(t)") }
        let z = zone.zoneTime(t)
        if z < lastZoneTime - 1e-9 { Issue.record("round \(round): zone time went back from \(lastZoneTime) to \(z) at \(t)") }
        lastZoneTime = z
        zone.render(at: t, into: &frame, workspace: &workspace)
        _ = zone.nextChange(after: t)
      }
      // Resumed and given time, the zone shows the latest content.
      zone.resume(at: t)
      let later = t + 120
      zone.render(at: later, into: &frame, workspace: &workspace)
      #expect(zone.segment(at: zone.zoneTime(later)).content == latest, "round \(round): not in force after two minutes")
    }
  }
}

// Docs/snapshot-testing.md's Swift Testing example, verbatim from its first import to its
// end (DocExampleTests checks that it stays so).
import BitmapFonts
import Marquee
import MarqueeTesting
import Testing

@Test func departureBoard() throws {
  let timeline = try RibbonTimeline(
    messages: ["Platform 2"], renderer: TextRenderer(), width: 64, height: 8)
  expectSnapshot(timeline.frame(at: 0).pixels, named: "still")
}

// Docs/effects.md's custom transition, verbatim between the markers (DocExampleTests checks
// that it stays so), used in a cycling sign whose frames are then checked.
import BitmapFonts
import Marquee
import MatrixCore

import Foundation  // exit

// From Docs/effects.md:
let blink = Transition(duration: 0.6) { old, new, p, area in
  if Int(p * 6) % 2 == 0 { area.draw(p < 0.5 ? old : new, atX: 0, y: 0) }
}
// End of the doc's text.

func card(_ text: String) throws -> Framebuffer {
  try CycleTimeline(messages: [text], renderer: TextRenderer(), width: 32, height: 8).frame(at: 0).pixels
}
let (old, new) = (try card("OLD"), try card("NEW"))
let timeline = try CycleTimeline(
  messages: ["OLD", "NEW"], renderer: TextRenderer(), width: 32, height: 8,
  settings: CycleSettings(dwell: 1, transition: blink))
var seen: Set<String> = []
for step in 0..<400 {
  let pixels = timeline.frame(at: Double(step) / 100).pixels
  seen.insert(pixels == old ? "old" : pixels == new ? "new" : pixels.litCount == 0 ? "dark" : "other")
}
guard seen == ["old", "new", "dark"] else {
  print("the blink transition showed \(seen.sorted()), not the old text, the new text and dark frames")
  exit(1)
}
print("blink: old, dark and new frames as expected")

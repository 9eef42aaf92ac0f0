// Docs/zones.md's custom display, verbatim between the markers (DocExampleTests checks
// that it stays so), driven by a player and checked.
import Marquee

import Foundation  // exit

// From Docs/zones.md:
import MatrixCore

struct PowerMeter: Display {
  let width = 64, height = 8
  var wantsEveryFrame: Bool { false }      // let the player sleep while nothing moves
  var peak = 0
  mutating func show(_ frame: Frame, changed: Bool) throws {
    if changed { peak = max(peak, frame.pixels.litCount) }
  }
  mutating func shutdown() throws {}
}
// End of the doc's text.

let sign = try Sign(width: 64, height: 8, content: ZoneContent(messages: ["Power"]))
var meter = PowerMeter()
try Player(fps: 10, frameLimit: 20, paced: false).run(sign, on: &meter, clock: ManualClock(), stop: StopFlag())
try meter.shutdown()
let expected = sign.frame(at: 0).pixels.litCount
guard meter.peak == expected, expected > 0 else {
  print("PowerMeter saw a peak of \(meter.peak) lit LEDs; the sign lights \(expected)")
  exit(1)
}
print("PowerMeter: \(meter.peak) LEDs lit at most")

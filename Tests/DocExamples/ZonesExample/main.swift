// Docs/zones.md's library example, verbatim (DocExampleTests checks that it stays so).
import BitmapFonts
import Drivers
import Foundation  // Thread
import Marquee

// Content: messages and how to show them.
let ticker = ZoneContent(
  messages: ["Next train: Central 4 min", "Platform 2"], motion: .scroll(.init(speed: 25, gap: 12)))
let clock = ZoneContent(messages: ["12:00"], style: .init(alignment: .center))

// A 64x8 sign with two zones.
let sign = try Sign(width: 64, height: 8, zones: [
  Zone(name: "clock", x: 0, y: 0, width: 26, height: 8, content: clock),
  Zone(name: "ticker", x: 26, y: 0, width: 38, height: 8, content: ticker),
])

// Any frame at any instant, without waiting: a pure function of time.
let frame = sign.frame(at: 12.5)
print(frame.pixels.text)

// Run it: a controller makes the sign changeable from any thread while a player draws it.
let stop = StopFlag()
let controller = SignController(sign: sign, wake: stop)
controller.onEvent { zone, event in
  print("\(zone): message \(event.message) \(event.kind) at \(event.time)s")
}
var display = AsciiDisplay(width: 64, height: 8)
let player = try Player(fps: 30, frameLimit: 60)  // two seconds; leave out the limit to run until stopped
Thread { _ = try? controller.replaceMessages(["12:01"], inZone: "clock") }.start()
try player.run(controller, on: &display, clock: MonotonicClock(), stop: stop)
try display.shutdown()

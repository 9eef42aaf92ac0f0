// README.md's library example, verbatim (DocExampleTests checks that it stays so).
import BitmapFonts
import Marquee

let timeline = try RibbonTimeline(
  messages: ["Next train: 3 min"], renderer: TextRenderer(), width: 32, height: 8,
  settings: MarqueeSettings(speed: 20))
let frame = timeline.frame(at: 2.5)     // the pixels at t = 2.5 s, no waiting
print(frame.pixels.text)

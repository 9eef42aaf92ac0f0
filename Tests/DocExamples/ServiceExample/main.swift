// Docs/zones.md's service example, verbatim (DocExampleTests checks that it stays so).
import Drivers
import Marquee
import SignService

// Options, as the command line or a config file gives them.
var options = RunOptions()
options.width = 64
options.zone.messages = ["Welcome"]

// Build the sign as marquee does: its zones, their fonts, and the feed that updates them.
let stop = StopFlag()
let sign = try SignPlan.build(options, stop: stop)

// Change it while it runs with a content document, as a feed line or the HTTP API sends it.
try sign.feed.handle(#"{"messages": ["Open 9-18"], "immediately": true}"#)

// Play it on any display: the update is applied at the next frame.
var display = AsciiDisplay(width: 64, height: 8)
try Player(fps: 10, frameLimit: 2, paced: false).run(sign.timeline, on: &display, clock: ManualClock(), stop: stop)
try display.shutdown()

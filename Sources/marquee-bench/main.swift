// marquee-bench: the speed and memory of the frame path, measured without sleeping and
// without system calls in the timed loops, beside luma.led_matrix's benchmark when a Python
// with luma is given. Run with `swift build -c release && .build/release/marquee-bench` (the
// first-frame, rss and idle scenarios run the marquee binary built beside it).
import Foundation
@preconcurrency import Platform
import BitmapFonts
import Marquee

var width: Int?
var height: Int?
var frames = 20_000
var message = Scenarios.lumaMessage
var scenario = "all"
var lumaPython: String?
var lumaScript = "Sources/marquee-bench/Luma/luma_compare.py"

nonisolated(unsafe) var arguments = Array(CommandLine.arguments.dropFirst())
func value() -> String {
  guard arguments.count >= 2 else {
    complain("Error: \(arguments[0]) needs a value\n")
    exit(64)
  }
  let text = arguments[1]
  arguments.removeFirst(2)
  return text
}
func integer(_ text: String, _ option: String) -> Int {
  guard let number = Int(text), number > 0 else {
    complain("Error: \(option) needs a positive whole number, got '\(text)'\n")
    exit(64)
  }
  return number
}
while let first = arguments.first {
  switch first {
  case "--width": width = integer(value(), first)
  case "--height": height = integer(value(), first)
  case "--frames": frames = integer(value(), first)
  case "--message": message = value()
  case "--scenario": scenario = value()
  case "--luma": lumaPython = value()
  case "--luma-script": lumaScript = value()
  case "-h", "--help":
    print("""
      USAGE: marquee-bench [--width W] [--height H] [--frames N] [--message TEXT] [--scenario NAME]
                           [--luma PYTHON] [--luma-script PATH]

      SCENARIOS: scroll, scroll-long, cycle, transitions, transition:NAME, zones, terminal-bytes, first-frame,
                 idle (still, dwell, scroll and off periods), pacing, rss, allocs (the real program in every display mode), devices (encoding for the
                 WS2812, APA102 and HT16K33 boards against their wire time), scan (the HUB12 scanning loop
                 of the real program: refresh, CPU, deadline lateness), hub75 (the HUB75 refresh loop on
                 registers in a memory file: refresh, CPU, writes per refresh against the least, pulse
                 lateness), save (serve's answer to a change with --state and without), sources (ten live sources fetched every second: resident memory over a minute), all (default). Sizes default to 32x8, 128x16 and 512x32.
      --luma PYTHON runs Sources/marquee-bench/Luma/luma_compare.py with that Python for the scroll sizes,
                    and with rss for luma's peak memory beside ours.
      """)
    exit(0)
  default:
    complain("Error: unknown option '\(first)'\n")
    exit(64)
  }
}

let marquee = ChildProcess.ownFolder + "/marquee"
let sizes: [(Int, Int)] = width != nil || height != nil ? [(width ?? 32, height ?? 8)] : [(32, 8), (128, 16), (512, 32)]
let selected = scenario
let wants = { (name: String) -> Bool in selected == "all" || selected == name }

do {
  for (w, h) in sizes {
    let bench = Scenarios(width: w, height: h, frames: frames, message: message)
    if wants("scroll") {
      try bench.scroll(message: message)
    }
    if wants("scroll-long") {
      try bench.scroll(message: String(repeating: message + " ", count: 20), scenario: "scroll-long")
    }
    if wants("cycle") { try bench.cycle() }
    if wants("zones") { try bench.zones() }
    if wants("terminal-bytes") && w <= 128 { try TerminalBytes(width: w, height: h).run() }
    if scenario == "all" || scenario == "transitions" {
      for effect in EffectCatalog.all where w <= 128 { try bench.transition(effect.name) }
    } else if scenario.hasPrefix("transition:") {
      try bench.transition(String(scenario.dropFirst("transition:".count)))
    }
    if let python = lumaPython, (wants("scroll") || scenario == "luma"), w <= 128 {
      try bench.luma(python: python, script: lumaScript, message: message)
    }
  }
  if wants("layout") { TextLayout().run() }
  let base = Scenarios(width: 32, height: 8, frames: frames, message: message)
  let runsMarquee = ["first-frame", "rss", "idle", "allocs", "scan", "save", "sources"].filter(wants)
  if !runsMarquee.isEmpty && access(marquee, X_OK) != 0 {
    // `swift run marquee-bench` builds only the benchmark; these scenarios run the program.
    complain("marquee-bench: \(marquee) is not built, so \(runsMarquee.joined(separator: ", ")) cannot run: "
      + "build it first (swift build -c release)\n")
    for name in runsMarquee { print("marquee-bench scenario=\(name) error=marquee-not-built") }
  } else {
    if wants("first-frame") { base.firstFrame(marquee: marquee) }
    if wants("rss") { base.memory(marquee: marquee, lumaPython: lumaPython, lumaScript: lumaScript) }
    if wants("idle") { base.idle(marquee: marquee) }
    if wants("save") { SavedChanges(marquee: marquee).run() }
    if wants("sources") { SourcesMemory(marquee: marquee).run() }
    if wants("scan") { HUB12Scan(marquee: marquee, fakeKernel: ChildProcess.ownFolder + "/libMarqueeFakeKernel.so").run() }
    if wants("allocs") {
      ProgramAllocations(marquee: marquee, counter: ChildProcess.ownFolder + "/libMarqueeAllocationCounter.so").run()
    }
  }
  if wants("pacing") { try base.pacing() }
  if wants("hub75") { HUB75Refresh().run() }
  if wants("devices") { try DeviceEncoding(frames: frames, message: Scenarios.lumaMessage).run() }
} catch {
  complain("Error: \(error)\n")
  exit(1)
}

/// Writes `text` to standard error.
func complain(_ text: String) {
  FileHandle.standardError.write(Data(text.utf8))
}

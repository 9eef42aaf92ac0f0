import Foundation
import BitmapFonts
import Drivers
import Platform
import Marquee
import MatrixCore

/// Bytes the terminal simulator writes per frame (what a sign previewed over SSH costs),
/// against a full redraw: a scroll at 20 px/s and a cycle of three messages (2 s dwell,
/// push transitions), both at 40 fps for 30 s of sign time, in colour, 2 columns a dot.
/// Frames that did not change write nothing, as the player does not send them.
struct TerminalBytes {
  let width: Int, height: Int

  func run() throws {
    let scroll = try RibbonTimeline(
      messages: [Scenarios.lumaMessage], renderer: TextRenderer(), width: width, height: height,
      settings: MarqueeSettings(speed: 20))
    let cycle = try CycleTimeline(
      messages: ["Platform 2", "Central 4 min", "On time"], renderer: TextRenderer(), width: width, height: height,
      settings: CycleSettings(dwell: 2))
    try measure("terminal-bytes-scroll", scroll)
    try measure("terminal-bytes-cycle", cycle)
  }

  func measure(_ scenario: String, _ timeline: some Timeline) throws {
    let null = Descriptor.open("/dev/null", OpenFlag.writeOnly)
    defer { Descriptor.close(null) }
    var display = TerminalDisplay(width: width, height: height, descriptor: null, style: .init(color: true))
    let fps = 40.0, frames = 1200
    var previous = timeline.frame(at: 0)
    try display.show(previous, changed: true)
    let full = display.bytesWritten
    var changedFrames = 0
    let start = Measure.processCPU()
    for index in 1..<frames {
      let frame = timeline.frame(at: Double(index) / fps)
      let changed = frame != previous
      try display.show(frame, changed: changed)
      if changed { changedFrames += 1 }
      previous = frame
    }
    let cpu = Double(Measure.processCPU() - start) / 1000 / Double(frames - 1)
    let written = Double(display.bytesWritten - full)
    var line = ResultLine(scenario: scenario, width: width, height: height)
    line.add("us_per_frame", cpu)
    line.add("full_redraw_bytes", full)
    line.add("bytes_per_frame", written / Double(frames - 1), decimals: 1)
    line.add("bytes_per_changed_frame", changedFrames == 0 ? 0 : written / Double(changedFrames), decimals: 1)
    line.add("ratio_to_full_redraw", changedFrames == 0 ? 0 : written / Double(changedFrames) / Double(full), decimals: 3)
    line.print()
  }
}

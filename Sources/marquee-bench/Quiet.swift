import BitmapFonts
import Drivers
import Marquee
import MatrixCore

/// The scroll scenario's microseconds per frame, measured without printing (for the luma
/// comparison line).
func quietScrollMicroseconds(width: Int, height: Int, message: String, frames: Int) -> Double {
  guard let timeline = try? RibbonTimeline(
    messages: [message], renderer: TextRenderer(), width: width, height: height,
    settings: MarqueeSettings(mode: .scroll, speed: 100, gap: 0))
  else { return .nan }
  let board = Board(name: "bench", wiring: .fc16, columns: max(1, width / 8), rows: max(1, height / 8))
  var frame = Frame(width: width, height: height)
  var workspace = FrameWorkspace()
  var encoder = MAX7219Encoder(board: board)
  var output = SPITransactions()
  encoder.startUp(into: &output)
  output.removeAll()
  let result = Measure.loop(frames: frames) { index in
    timeline.render(at: Double(index) / 100, into: &frame, workspace: &workspace)
    encoder.encode(frame, into: &output)
    output.removeAll()
  }
  return result.wallNs / 1000
}

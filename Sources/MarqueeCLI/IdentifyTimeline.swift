import BitmapFonts
import Drivers
import Marquee
import MatrixCore

/// `marquee identify`: lights each module of a board in chain order, one a second, to check
/// a board file against the real sign.
///
/// Module `k` (the k-th chip from the host) shows its top-left pixel and the digit `k % 10`.
/// If the lit module, the corner or the digit's orientation is not what the board file says,
/// the module variant, rotation or chain order is wrong.
struct IdentifyTimeline: Timeline {
  let width: Int
  let height: Int
  let board: Board
  let digits: [Framebuffer]
  /// Seconds each module stays lit.
  let step = 1.0

  init(board: Board) {
    self.board = board
    width = board.width
    height = board.height
    let renderer = TextRenderer()
    digits = (0..<10).map { renderer.render(String($0)) }
  }

  func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace) {
    frame.brightness = 1
    frame.pixels.clear()
    let chip = Int((max(0, t) / step).rounded(.down)) % board.chipCount
    let module = board.chain[chip]
    let x = module.column * 8, y = module.row * 8
    frame.pixels[x, y] = true
    frame.pixels.draw(
      digits[chip % 10], sourceX: 0, sourceY: 0, width: 5, height: 7, atX: x + 2, y: y + 1, mode: .or)
  }

  func nextChange(after t: Double) -> Double? {
    board.chipCount > 1 ? ((max(0, t) / step).rounded(.down) + 1) * step : nil
  }
}

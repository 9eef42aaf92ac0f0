import Platform
import BitmapFonts
import Drivers
import Marquee
import MatrixCore
import SignService

/// `marquee identify`: lights each unit of a board in data order (MAX7219 modules from the
/// host, HT16K33 backpacks as listed, LED panels from the host), one a second, to check a
/// board file against the real sign.
///
/// Unit `k` shows the digit `k % 10` and one marker pixel: a module's or backpack's
/// top-left pixel, a panel's first LED (its start corner). If the lit unit, the marker or
/// the digit's orientation is not what the board file says, the variant, rotation or chain
/// order is wrong.
struct IdentifyTimeline: Timeline {
  let width: Int
  let height: Int
  let units: [SignBoard.Unit]
  let digits: [Framebuffer]
  /// Seconds each unit stays lit.
  let step = 1.0

  init(board: SignBoard) {
    width = board.width
    height = board.height
    units = board.units
    let renderer = TextRenderer()
    digits = (0..<10).map { renderer.render(String($0)) }
  }

  func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace) {
    frame.brightness = 1
    frame.pixels.clear()
    let index = Int(saturating: (max(0, t) / step).rounded(.down)) % units.count
    let unit = units[index]
    // A panel the pixel mapper leaves off the sign stays dark in its turn.
    guard unit.width > 0 else { return }
    let marker = unit.firstLED ?? (unit.x, unit.y)
    frame.pixels[marker.x, marker.y] = true
    // The digit in the middle of the unit, clipped to it.
    let digitX = unit.x + max(0, (unit.width - 4) / 2), digitY = unit.y + max(0, (unit.height - 6) / 2)
    frame.pixels.draw(
      digits[index % 10], sourceX: 0, sourceY: 0, width: min(5, unit.width), height: min(7, unit.height),
      atX: digitX, y: digitY, mode: .or)
  }

  func nextChange(after t: Double) -> Double? {
    units.count > 1 ? ((max(0, t) / step).rounded(.down) + 1) * step : nil
  }
}

import Foundation
import BitmapFonts
import Platform
import Marquee
import MatrixCore
import Testing

@testable import Drivers
@testable import MAX7219Core

/// The terminal simulator, checked by what a terminal would show (``TerminalScreen``) after
/// every frame: changed cells only are rewritten, in every style, and the screen always shows
/// exactly the frame.
@Suite struct TerminalDisplayTests {
  /// A display writing to a file, and the bytes of each call.
  final class Recorder {
    let path = NSTemporaryDirectory() + "marquee-terminal-\(getpid())-\(UUID().uuidString)"
    let descriptor: Int32
    var offset = 0
    init() { descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
    deinit {
      close(descriptor)
      unlink(path)
    }
    /// What was written since the last call.
    func take() -> [UInt8] {
      let size = Int(lseek(descriptor, 0, SEEK_END))
      var bytes = [UInt8](repeating: 0, count: size - offset)
      _ = pread(descriptor, &bytes, bytes.count, off_t(offset))
      offset = size
      return bytes
    }
  }

  /// What a frame must look like on the screen in `style`: a character and, in colour, the
  /// foreground (and background for half blocks) of each cell.
  static func expected(_ frame: Frame, _ style: TerminalDisplay.Style) -> [[(Character, Int, Int)]] {
    let lit = TerminalDisplay.litColor(brightness: frame.brightness, palette: style.litPalette)
    let on = frame.brightness > 0
    let p = frame.pixels
    if style.braille {
      return stride(from: 0, to: p.height, by: 4).map { y in
        stride(from: 0, to: p.width, by: 2).map { x in
          var dots: UInt32 = 0
          for (bit, (dx, dy)) in [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3)].enumerated()
          where on && p[x + dx, y + dy] { dots |= 1 << UInt32(bit) }
          return (Character(Unicode.Scalar(0x2800 + dots)!), style.color ? lit : -1, -1)
        }
      }
    }
    if style.halfBlocks {
      return stride(from: 0, to: p.height, by: 2).map { y in
        (0..<p.width).map { x in
          let bottom = y + 1 < p.height ? (on && p[x, y + 1] ? lit : TerminalDisplay.darkColor) : 0
          return ("▀", on && p[x, y] ? lit : TerminalDisplay.darkColor, bottom)
        }
      }
    }
    return (0..<p.height).map { y in
      (0..<p.width).flatMap { x -> [(Character, Int, Int)] in
        let isLit = on && p[x, y]
        let dot: (Character, Int, Int) = style.color
          ? ("●", isLit ? lit : TerminalDisplay.darkColor, -1) : (isLit ? "#" : "·", -1, -1)
        return style.cellWidth == 2 ? [dot, (" ", dot.1, -1)] : [dot]
      }
    }
  }

  /// Whether the screen's rows from `top` show `frame` in `style` (spaces' colours aside).
  static func shows(_ screen: TerminalScreen, _ frame: Frame, _ style: TerminalDisplay.Style, top: Int = 0) -> Bool {
    for (r, row) in expected(frame, style).enumerated() {
      for (c, cell) in row.enumerated() {
        guard screen.cells[top + r][c] == cell.0 else { return false }
        if cell.0 != " " && style.color && screen.colours[top + r][c] != cell.1 { return false }
        if style.halfBlocks && screen.backgrounds[top + r][c] != cell.2 { return false }
      }
    }
    return true
  }

  static let styles: [TerminalDisplay.Style] = [
    .init(color: true, cellWidth: 2), .init(color: true, cellWidth: 1), .init(color: false, cellWidth: 2),
    .init(color: false, cellWidth: 1), .init(color: true, halfBlocks: true), .init(color: true, braille: true),
    .init(color: false, braille: true),
  ]

  @Test(arguments: styles.indices)
  func afterEveryFrameTheScreenShowsExactlyThatFrame(style index: Int) throws {
    let style = TerminalDisplayTests.styles[index]
    let recorder = Recorder()
    var display = TerminalDisplay(width: 21, height: 11, descriptor: recorder.descriptor, style: style)
    var screen = TerminalScreen(columns: 60, rows: 30)
    var random = SplitMix64(seed: UInt64(index + 1))
    var frame = Frame(width: 21, height: 11)
    for step in 0..<40 {
      // A few pixels change each step; now and then the whole frame, a dim or dark frame.
      for _ in 0..<(step % 9 == 0 ? 120 : 4) {
        frame.pixels[Int(random.next() % 21), Int(random.next() % 11)].toggle()
      }
      frame.brightness = step % 13 == 5 ? 0.3 : step % 17 == 8 ? 0 : 1
      try display.show(frame, changed: true)
      screen.feed(recorder.take())
      #expect(TerminalDisplayTests.shows(screen, frame, style), "style \(index), frame \(step)")
      #expect(screen.scrolled == 0)
    }
    try display.shutdown()
    let end = recorder.take()
    screen.feed(end)
    #expect(TerminalDisplayTests.shows(screen, Frame(width: 21, height: 11), style), "blank after shutdown")
    #expect(end.suffix(6) == Array("\u{1B}[?25h".utf8), "the cursor shown again")
    if let note = style.note { #expect(screen.lines[(11 + style.dotsPerCell.y - 1) / style.dotsPerCell.y] == note) }
  }

  @Test(arguments: [(32, 8, ScrollDirection.left), (128, 16, .left), (32, 8, .right), (128, 16, .right)])
  func aScrollingSignWritesAThirdOfAFullRedrawOrLessAndShowsEveryFrame(width: Int, height: Int, direction: ScrollDirection) throws {
    let timeline = try RibbonTimeline(
      messages: ["Next train: Central 4 min, Platform 2. Mind the gap."], renderer: TextRenderer(),
      width: width, height: height, settings: MarqueeSettings(speed: 40, direction: direction))
    let recorder = Recorder()
    let style = TerminalDisplay.Style(color: true)
    var display = TerminalDisplay(width: width, height: height, descriptor: recorder.descriptor, style: style)
    var screen = TerminalScreen(columns: 2 * width + 10, rows: height + 5)
    try display.show(timeline.frame(at: 0), changed: true)
    let first = recorder.take()
    screen.feed(first)
    var changed = 0
    for step in 1...80 {
      let frame = timeline.frame(at: Double(step) / 40)
      try display.show(frame, changed: true)
      let bytes = recorder.take()
      changed += bytes.count
      screen.feed(bytes)
      #expect(TerminalDisplayTests.shows(screen, frame, style), "frame \(step)")
    }
    #expect(Double(changed) / 80 <= Double(first.count) / 3, "\(changed / 80) bytes a frame against \(first.count) for a full redraw")
  }

  @Test func aResizeClearsTheScreenAndDrawsOneSign() throws {
    TerminalResize.install()
    let recorder = Recorder()
    let style = TerminalDisplay.Style(color: false, cellWidth: 1)
    var display = TerminalDisplay(width: 10, height: 3, descriptor: recorder.descriptor, style: style)
    var screen = TerminalScreen(columns: 40, rows: 12)
    var frame = Frame(width: 10, height: 3)
    frame.pixels[1, 1] = true
    try display.show(frame, changed: true)
    screen.feed(recorder.take())
    // The terminal reflows on a resize: rows of the old sign end up anywhere.
    screen.feed(Array("\n\n#··#··#\n···#\n".utf8))
    let before = TerminalResize.count
    kill(getpid(), SIGWINCH)
    for _ in 0..<500 where TerminalResize.count == before { usleep(2000) }
    #expect(TerminalResize.count > before, "the resize was caught")
    try display.show(frame, changed: false)  // the next frame, unchanged, still redraws
    screen.feed(recorder.take())
    #expect(TerminalDisplayTests.shows(screen, frame, style, top: 0))
    let rest = screen.lines.dropFirst(3)
    #expect(rest.allSatisfy { $0.isEmpty }, "exactly one sign: \(screen.lines)")
  }

  @Test func theLargestDotsThatFitAreChosenAndATallSignNeverScrolls() {
    func style(_ w: Int, _ h: Int, _ columns: Int, _ rows: Int, color: Bool = true) -> TerminalDisplay.Style? {
      TerminalDisplay.fittingStyle(width: w, height: h, size: (columns, rows), color: color, litPalette: LEDColor.red.terminal)
    }
    #expect(style(32, 8, 80, 24)?.cellWidth == 2)
    #expect(style(64, 8, 80, 24)?.cellWidth == 1)
    #expect(style(80, 30, 80, 24)?.halfBlocks == true)
    #expect(style(80, 30, 80, 24, color: false)?.braille == true)
    #expect(style(128, 32, 80, 24)?.braille == true, "a 128x32 sign previews in 80x24")
    #expect(style(400, 8, 80, 24) == nil)
    for (w, h) in [(32, 23), (32, 24), (80, 44), (128, 32), (150, 80)] {
      guard let fitted = style(w, h, 80, 24) else { continue }
      let rows = (h + fitted.dotsPerCell.y - 1) / fitted.dotsPerCell.y + (fitted.note == nil ? 0 : 1)
      #expect(rows < 24, "\(w)x\(h) takes \(rows) rows and the cursor line of 24")
    }
  }
}

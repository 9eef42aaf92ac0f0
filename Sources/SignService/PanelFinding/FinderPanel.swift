import BitmapFonts
import Drivers
import MatrixCore
import Platform

/// The panel `marquee find-panel` lights (``HUB75PanelFinder``'s pictures): the real one
/// through the GPIO registers, a refresh loop per setting shown, or one emulated whose
/// picture the front end draws.
public struct FinderPanel: Sendable {
  let simulated: HUB75Board?
  /// The whole sign emulated, for pictures made for all its panels.
  let simulatedSign: HUB75Board?
  var scanner: HUB75Scanner?

  /// The Pi's panel, or with `board` one emulated of that setting (and with `sign`, the
  /// whole sign of them, arranged as it is).
  ///
  /// - Throws: ``SignFailure`` off a Pi, before anything is shown.
  public init(simulating board: HUB75Board?, sign: HUB75Board? = nil) throws {
    simulated = board
    simulatedSign = sign
    if board == nil {
      // Fail early, before the first question, when this is no Pi.
      do { _ = try RaspberryPi.detect() } catch { throw SignFailure(error.description) }
    }
  }

  /// Lights `program`, made for `board`, until the next one; the emulated panel's picture
  /// as text (``drawing(_:)``) when it is simulated.
  ///
  /// - Throws: ``SignFailure`` when the registers cannot be driven.
  public mutating func show(_ program: HUB75Program, on board: HUB75Board) throws -> String? {
    if let simulated {
      let whole = board.chainLength * board.parallel > 1
      // The driver starts the chips as the board it drives says; the panel's own may need it.
      return FinderPanel.drawing(HUB75PanelFinder.run(program, on: whole ? simulatedSign ?? simulated : simulated, starting: board.panelInit))
    }
    // A scanner per board: each claims the address lines its row address kind drives.
    if scanner?.board != board {
      try scanner?.finish()
      scanner = nil
      let pi: RaspberryPi
      do { pi = try RaspberryPi.detect() } catch { throw SignFailure(error.description) }
      do { scanner = try HUB75Scanner(board: board, pi: pi) } catch let error as GPIORegisterError { throw SignFailure(error.description) }
    }
    try scanner?.send(program)
    return nil
  }

  /// Dark, and the pins given back.
  public mutating func finish() {
    try? scanner?.finish()
    scanner = nil
  }

  /// The emulated panels as text, as the sign's pixel mapper lays them out: `#` lit once a
  /// refresh in white, `R`, `G` or `B` lit in one colour, `@` lit more (brighter), `.` dark
  /// (and where no panel is).
  public static func drawing(_ panel: HUB75Emulator) -> String {
    let board = panel.board
    var marks = [Character](repeating: ".", count: board.width * board.height)
    for link in board.pixelMapper.links(for: board.chain) {
      let matrix = Int(link.matrix)
      let (red, green, blue) = panel.color(x: matrix % board.matrixWidth, y: matrix / board.matrixWidth)
      let most = max(red, green, blue)
      let lit = [red, green, blue].filter { $0 > 0 }.count
      let mark: Character = most == 0 ? "." : most > 1 ? "@" : lit == 3 ? "#" : lit == 1 ? (red > 0 ? "R" : green > 0 ? "G" : "B") : "+"
      if mark != "." { marks[Int(link.visible)] = mark }
    }
    var text = ""
    for y in 0..<board.height { text += String(marks[(y * board.width)..<((y + 1) * board.width)]) + "\n" }
    return text
  }

  /// "Hello" in the built-in font as `board` draws it, a pixel from the left edge, in the middle.
  public static func hello(on board: HUB75Board) -> HUB75Program {
    var pixels = Framebuffer(width: board.width, height: board.height)
    let text = TextRenderer().render("Hello")
    pixels.draw(
      text, sourceX: 0, sourceY: 0, width: min(text.width, board.width - 1), height: min(text.height, board.height),
      atX: 1, y: max(0, (board.height - text.height) / 2), mode: .or)
    var encoder = HUB75Encoder(board: board, color: RGBColor(red: 255, green: 255, blue: 255))
    var program = HUB75Program()
    encoder.encode(Frame(pixels: pixels), into: &program)
    return program
  }
}

import Platform
import MatrixCore

/// A simulated LED sign in the terminal: lit and dark dots redrawn in place.
///
/// The sign is drawn once; after that only the terminal cells that changed are rewritten
/// (the cursor moved over the rest), so a scrolling sign costs a fraction of a full redraw,
/// which matters over SSH. The terminal never scrolls and nothing flickers. A sign too large
/// for the terminal is shown scaled (two rows of dots per line, or Braille cells of 2x4
/// dots) with a note of the scale. When the window is resized (SIGWINCH, see
/// ``TerminalResize``) the screen is cleared and the sign laid out again at the next frame.
/// The cursor is hidden while the sign runs; ``shutdown()`` leaves the sign blank and
/// restores the cursor, colours and echo.
public struct TerminalDisplay: Display {
  /// How dots are drawn.
  public struct Style: Sendable, Equatable {
    /// Whether to colour dots with ANSI colours (off when `NO_COLOR` is set).
    public var color: Bool
    /// Terminal columns per dot: 2 keeps dots roughly square, 1 fits wider signs.
    public var cellWidth: Int
    /// Two rows of dots per line of text (the upper half block), for tall signs; needs colour.
    public var halfBlocks: Bool
    /// Braille cells: 2x4 dots per character, for signs larger than the terminal (only lit
    /// dots show).
    public var braille: Bool
    /// The 256-colour palette indices of a lit dot, dim to bright.
    public var litPalette: [Int]

    /// Creates a style.
    public init(
      color: Bool = true, cellWidth: Int = 2, halfBlocks: Bool = false, braille: Bool = false,
      litPalette: [Int] = LEDColor.red.terminal
    ) {
      self.color = color
      self.cellWidth = braille || halfBlocks ? 1 : max(1, min(2, cellWidth))
      self.halfBlocks = halfBlocks && color && !braille
      self.braille = braille
      self.litPalette = litPalette
    }

    /// Dots across and down one terminal cell.
    var dotsPerCell: (x: Int, y: Int) { braille ? (2, 4) : halfBlocks ? (1, 2) : (1, 1) }

    /// The note shown under a scaled sign, if any.
    var note: String? {
      braille ? "(scaled: 2x4 LEDs per character)" : halfBlocks ? "(scaled: 2 rows of LEDs per line)" : nil
    }
  }

  /// Why a sign cannot be shown in this terminal.
  public struct TooSmall: Error, Sendable, CustomStringConvertible {
    /// Columns the sign needs.
    public var needed: Int
    /// Columns the terminal has.
    public var available: Int

    public var description: String {
      "the terminal is \(available) columns wide, the sign needs \(needed) even scaled; "
        + "widen the window or use --output ascii"
    }
  }

  public let width: Int
  public let height: Int
  public var wantsEveryFrame: Bool { false }
  /// How dots are drawn now (a resize may change it, unless it was given).
  public private(set) var style: Style
  /// Bytes written so far (for the benchmark's bytes per frame).
  public private(set) var bytesWritten = 0
  let descriptor: Int32
  /// Whether the style follows the terminal's size (false when given explicitly).
  let fitsTerminal: Bool
  var buffer: [UInt8] = []
  var drawn = false
  var savedSettings: Terminal.Settings?
  /// The cells on screen, row by row, and the cells of the frame being drawn.
  var shown: [Cell] = []
  var next: [Cell] = []
  var columns = 0, rows = 0
  /// The resize count the layout was made for.
  var resizesSeen: UInt = 0
  /// The cursor's row and column relative to the sign's top-left cell.
  var cursor = (row: 0, column: 0)
  /// The SGR colours in force (-1: unknown, after a reset).
  var foreground = -1, background = -1
  /// The terminal's size, when too small to show the sign even scaled.
  var tooSmall: (columns: Int, rows: Int)?

  /// One terminal cell: what is drawn in it.
  struct Cell: Equatable {
    /// The glyph: 0 dark dot, 1 lit dot, 2 upper half block, or 0x2800 + dots (Braille).
    var glyph: UInt32
    var foreground: Int16
    var background: Int16
  }

  static let reset = Array("\u{1B}[0m".utf8)
  static let endOfRow = Array("\u{1B}[K\n".utf8)
  static let colorPrefix = Array("\u{1B}[38;5;".utf8)
  static let backgroundPrefix = Array("\u{1B}[48;5;".utf8)
  static let hideCursor = Array("\u{1B}[?25l".utf8)
  static let restore = Array("\u{1B}[0m\u{1B}[?25h".utf8)
  static let clearScreen = Array("\u{1B}[2J\u{1B}[H".utf8)
  static let upperHalf = Array("▀".utf8)
  static let round = Array("●".utf8)
  static let hash = Array("#".utf8)
  static let middleDot = Array("·".utf8)

  /// Creates a display on `descriptor`, choosing the largest dots the terminal fits, and
  /// choosing again when the terminal is resized.
  ///
  /// - Throws: ``TooSmall`` if even Braille cells do not fit.
  public init(
    width: Int, height: Int, descriptor: Int32 = 1, color: Bool, litPalette: [Int] = LEDColor.red.terminal
  ) throws(TooSmall) {
    let size = Terminal.size(of: descriptor)
    guard let style = TerminalDisplay.fittingStyle(
      width: width, height: height, size: size, color: color, litPalette: litPalette)
    else { throw TooSmall(needed: (width + 1) / 2, available: size?.columns ?? 0) }
    self.init(width: width, height: height, descriptor: descriptor, style: style, fitsTerminal: true)
  }

  /// Creates a display with an explicit style, kept whatever the terminal's size.
  public init(width: Int, height: Int, descriptor: Int32 = 1, style: Style) {
    self.init(width: width, height: height, descriptor: descriptor, style: style, fitsTerminal: false)
  }

  init(width: Int, height: Int, descriptor: Int32, style: Style, fitsTerminal: Bool) {
    self.width = width
    self.height = height
    self.descriptor = descriptor
    self.style = style
    self.fitsTerminal = fitsTerminal
    resizesSeen = TerminalResize.count
    layOut()
  }

  /// The largest dots that fit `size` (columns and rows; `nil`: not a terminal, no limit),
  /// leaving a row for the cursor and one for the note of a scaled sign.
  static func fittingStyle(
    width: Int, height: Int, size: (columns: Int, rows: Int)?, color: Bool, litPalette: [Int]
  ) -> Style? {
    let columns = size?.columns ?? Int.max, rows = size?.rows ?? Int.max
    if 2 * width <= columns && height < rows { return Style(color: color, cellWidth: 2, litPalette: litPalette) }
    if width <= columns && height < rows { return Style(color: color, cellWidth: 1, litPalette: litPalette) }
    if color && width <= columns && (height + 1) / 2 + 1 < rows {
      return Style(color: color, halfBlocks: true, litPalette: litPalette)
    }
    if (width + 1) / 2 <= columns && (height + 3) / 4 + 1 < rows {
      return Style(color: color, braille: true, litPalette: litPalette)
    }
    return nil
  }

  /// Sizes the cell grids and the output buffer for the style.
  mutating func layOut() {
    let (dx, dy) = style.dotsPerCell
    columns = (width + dx - 1) / dx
    rows = (height + dy - 1) / dy
    shown = [Cell](repeating: Cell(glyph: .max, foreground: -1, background: -1), count: columns * rows)
    next = shown
    // Worst case of a full redraw: both colours, a 3-byte glyph and a space per cell.
    buffer.reserveCapacity(columns * rows * 32 + rows * 16 + 256)
  }

  /// The ANSI 256-colour index of a lit dot at `brightness`: brighter steps for brighter dots.
  static func litColor(brightness: Double, palette: [Int] = LEDColor.red.terminal) -> Int {
    let level = Int((brightness * Double(palette.count - 1)).rounded())
    return palette[max(0, min(palette.count - 1, level))]
  }

  /// The ANSI 256-colour index of a dark dot.
  static let darkColor = 236

  /// Fills ``next`` with the cells of `frame`.
  mutating func cells(of frame: Frame) {
    let lit = Int16(TerminalDisplay.litColor(brightness: frame.brightness, palette: style.litPalette))
    let dark = Int16(TerminalDisplay.darkColor)
    let on = frame.brightness > 0
    let pixels = frame.pixels
    for row in 0..<rows {
      for column in 0..<columns {
        let cell: Cell
        if style.braille {
          var dots: UInt32 = 0
          let x = column * 2, y = row * 4
          for (bit, (dx, dy)) in TerminalDisplay.brailleDots.enumerated() where on && pixels[x + dx, y + dy] {
            dots |= 1 << UInt32(bit)
          }
          cell = Cell(glyph: 0x2800 + dots, foreground: style.color ? lit : -1, background: -1)
        } else if style.halfBlocks {
          let top = on && pixels[column, row * 2]
          let bottom = on && pixels[column, row * 2 + 1]
          let lower: Int16 = row * 2 + 1 < height ? (bottom ? lit : dark) : 0
          cell = Cell(glyph: 2, foreground: top ? lit : dark, background: lower)
        } else {
          let isLit = on && pixels[column, row]
          cell = Cell(glyph: isLit ? 1 : 0, foreground: style.color ? (isLit ? lit : dark) : -1, background: -1)
        }
        next[row * columns + column] = cell
      }
    }
  }

  /// Braille dot bits 1-8 as (x, y) within the 2x4 cell.
  static let brailleDots = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3)]

  /// Appends one cell: colours that differ from those in force, then its glyph.
  mutating func append(_ cell: Cell) {
    if cell.foreground >= 0 && Int(cell.foreground) != foreground {
      buffer.append(contentsOf: TerminalDisplay.colorPrefix)
      appendNumber(Int(cell.foreground))
      buffer.append(UInt8(ascii: "m"))
      foreground = Int(cell.foreground)
    }
    if style.halfBlocks && Int(cell.background) != background {
      buffer.append(contentsOf: TerminalDisplay.backgroundPrefix)
      appendNumber(Int(cell.background))
      buffer.append(UInt8(ascii: "m"))
      background = Int(cell.background)
    }
    switch cell.glyph {
    case 0: appendDot(lit: false)
    case 1: appendDot(lit: true)
    case 2: buffer.append(contentsOf: TerminalDisplay.upperHalf)
    default:
      // U+2800...U+28FF in UTF-8: E2 A0+ 80+.
      let value = cell.glyph
      buffer.append(0xE2)
      buffer.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
      buffer.append(UInt8(0x80 | (value & 0x3F)))
    }
  }

  mutating func appendDot(lit: Bool) {
    buffer.append(contentsOf: style.color ? TerminalDisplay.round : lit ? TerminalDisplay.hash : TerminalDisplay.middleDot)
    if style.cellWidth == 2 { buffer.append(UInt8(ascii: " ")) }
  }

  mutating func appendNumber(_ value: Int) {
    if value >= 100 { buffer.append(UInt8(ascii: "0") + UInt8(value / 100)) }
    if value >= 10 { buffer.append(UInt8(ascii: "0") + UInt8(value / 10 % 10)) }
    buffer.append(UInt8(ascii: "0") + UInt8(value % 10))
  }

  /// `ESC [ n letter`.
  mutating func appendMove(_ count: Int, _ letter: UInt8) {
    buffer.append(0x1B)
    buffer.append(UInt8(ascii: "["))
    appendNumber(count)
    buffer.append(letter)
  }

  /// Moves the cursor to a cell of the sign (relative moves: the sign's place on the screen
  /// is wherever it was first drawn).
  mutating func moveCursor(row: Int, column: Int) {
    if row < cursor.row { appendMove(cursor.row - row, UInt8(ascii: "A")) }
    if row > cursor.row { appendMove(row - cursor.row, UInt8(ascii: "B")) }
    if column != cursor.column {
      // Cursor Horizontal Absolute, 1-based.
      appendMove(column * style.cellWidth + 1, UInt8(ascii: "G"))
    }
    cursor = (row, column)
  }

  /// The whole sign from the cursor's line (or the top of a cleared screen), then the note.
  mutating func drawAll() {
    foreground = -1
    background = -1
    for row in 0..<rows {
      for column in 0..<columns { append(next[row * columns + column]) }
      buffer.append(contentsOf: TerminalDisplay.reset)
      foreground = -1
      background = -1
      buffer.append(contentsOf: TerminalDisplay.endOfRow)
    }
    if let note = style.note {
      buffer.append(contentsOf: Array(note.utf8))
      buffer.append(contentsOf: TerminalDisplay.endOfRow)
    }
    swap(&shown, &next)
    cursor = (rows + (style.note == nil ? 0 : 1), 0)
  }

  /// Only what changed, then the cursor back under the sign. A row whose cells from some
  /// column on moved sideways (a scroll) is shifted by the terminal itself (DCH `ESC[nP` to
  /// the left, ICH `ESC[n@` to the right) and only the cells that came in are written; the
  /// rest of each row is rewritten run by run where it differs.
  mutating func drawChanges() {
    foreground = -1
    background = -1
    var wrote = false
    for row in 0..<rows {
      let base = row * columns
      if let shift = sideways(row: row) {
        // Shift shown[start..<columns] by `shift.cells` (negative: left), as the terminal will.
        moveCursor(row: row, column: shift.start)
        let count = abs(shift.cells)
        appendMove(count * style.cellWidth, UInt8(ascii: shift.cells < 0 ? "P" : "@"))
        if shift.cells < 0 {
          for c in shift.start..<(columns - count) { shown[base + c] = shown[base + c + count] }
          for c in (columns - count)..<columns { shown[base + c] = Cell(glyph: .max, foreground: -1, background: -1) }
        } else {
          for c in stride(from: columns - 1, through: shift.start + count, by: -1) { shown[base + c] = shown[base + c - count] }
          for c in shift.start..<(shift.start + count) { shown[base + c] = Cell(glyph: .max, foreground: -1, background: -1) }
        }
        wrote = true
      }
      var column = 0
      while column < columns {
        guard next[base + column] != shown[base + column] else {
          column += 1
          continue
        }
        moveCursor(row: row, column: column)
        while column < columns && next[base + column] != shown[base + column] {
          append(next[base + column])
          column += 1
        }
        cursor.column = column
        wrote = true
      }
    }
    if wrote {
      buffer.append(contentsOf: TerminalDisplay.reset)
      moveCursor(row: rows + (style.note == nil ? 0 : 1), column: 0)
    }
    swap(&shown, &next)
  }

  /// The widest suffix of `row` (at least 8 cells) that moved by 1 to 4 cells, as shifting it
  /// would save writing it; `nil` when none did.
  func sideways(row: Int) -> (start: Int, cells: Int)? {
    let base = row * columns
    guard columns >= 8, next[base..<(base + columns)] != shown[base..<(base + columns)] else { return nil }
    var best: (start: Int, cells: Int, length: Int)?
    for cells in [-1, 1, -2, 2, -3, 3, -4, 4] where abs(cells) < columns / 2 {
      let count = abs(cells)
      // The longest run ending at the row's end where the new cells are the old ones moved.
      var start = columns - count
      if cells < 0 {
        while start > 0 && next[base + start - 1] == shown[base + start - 1 + count] { start -= 1 }
      } else {
        start = columns
        while start - 1 >= count && next[base + start - 1] == shown[base + start - 1 - count] { start -= 1 }
        start = max(0, start - count)
      }
      let length = columns - start
      // Worth it only when the moved cells were not already in place.
      guard length >= 8, next[(base + start)..<(base + columns)] != shown[(base + start)..<(base + columns)] else { continue }
      if length > best?.length ?? 0 { best = (start, cells, length) }
    }
    return best.map { ($0.start, $0.cells) }
  }

  public mutating func show(_ frame: Frame, changed: Bool) throws {
    let resizes = TerminalResize.count
    let resized = resizes != resizesSeen
    guard changed || !drawn || resized else { return }
    buffer.removeAll(keepingCapacity: true)
    if !drawn {
      savedSettings = Terminal.disableEcho(0)
      buffer.append(contentsOf: TerminalDisplay.hideCursor)
    }
    if resized {
      resizesSeen = resizes
      // A new size: clear the screen and lay the sign out afresh at its top, so there is
      // exactly one sign whatever the terminal did with the old one.
      buffer.append(contentsOf: TerminalDisplay.clearScreen)
      tooSmall = nil
      if fitsTerminal {
        let size = Terminal.size(of: descriptor)
        if let fitting = TerminalDisplay.fittingStyle(
          width: width, height: height, size: size, color: style.color, litPalette: style.litPalette)
        {
          style = fitting
          layOut()
        } else {
          tooSmall = (size?.columns ?? 0, size?.rows ?? 0)
        }
      }
      drawn = false
    }
    if let tooSmall {
      if !drawn {
        buffer.append(contentsOf: Array("The terminal (\(tooSmall.columns)x\(tooSmall.rows)) is too small for the sign; enlarge it.".utf8))
        drawn = true
      }
    } else {
      cells(of: frame)
      if drawn { drawChanges() } else { drawAll() }
      drawn = true
    }
    bytesWritten += buffer.count
    try writeAll(buffer, to: descriptor, what: "the terminal")
  }

  public mutating func shutdown() throws {
    defer {
      if let savedSettings { Terminal.restore(savedSettings, on: 0) }
      savedSettings = nil
    }
    buffer.removeAll(keepingCapacity: true)
    if drawn && tooSmall == nil {
      // Blank the sign in place.
      cells(of: Frame(width: width, height: height))
      drawChanges()
    }
    buffer.append(contentsOf: TerminalDisplay.restore)
    drawn = false
    try writeAll(buffer, to: descriptor, what: "the terminal")
  }
}

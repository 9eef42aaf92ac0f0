#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MatrixCore

/// A simulated LED sign in the terminal: lit and dark dots redrawn in place.
///
/// The sign is drawn once, then each changed frame moves the cursor back to the sign's top
/// and overwrites it, so the terminal never scrolls and nothing flickers. The cursor is
/// hidden while the sign runs; ``shutdown()`` leaves the sign blank and restores the
/// cursor, colours and echo.
public struct TerminalDisplay: Display {
  /// How dots are drawn.
  public struct Style: Sendable, Equatable {
    /// Whether to colour dots with ANSI colours (off when `NO_COLOR` is set).
    public var color: Bool
    /// Terminal columns per dot: 2 keeps dots roughly square, 1 fits wider signs.
    public var cellWidth: Int
    /// Two rows of dots per line of text (the upper half block), for tall signs; needs colour.
    public var halfBlocks: Bool
    /// The 256-colour palette indices of a lit dot, dim to bright.
    public var litPalette: [Int]

    /// Creates a style.
    public init(color: Bool = true, cellWidth: Int = 2, halfBlocks: Bool = false, litPalette: [Int] = TerminalDisplay.reds) {
      self.color = color
      self.cellWidth = cellWidth
      self.halfBlocks = halfBlocks && color
      self.litPalette = litPalette
    }
  }

  /// Why a sign cannot be shown in this terminal.
  public struct TooSmall: Error, Sendable, CustomStringConvertible {
    /// Columns the sign needs.
    public var needed: Int
    /// Columns the terminal has.
    public var available: Int

    public var description: String {
      "the terminal is \(available) columns wide, the sign needs \(needed); "
        + "widen the window or use --output ascii"
    }
  }

  public let width: Int
  public let height: Int
  public var wantsEveryFrame: Bool { false }
  public let style: Style
  let descriptor: Int32
  var buffer: [UInt8] = []
  var drawn = false
  var savedSettings: termios?
  /// Bytes prepared once so that drawing a frame allocates nothing.
  let litDot: [UInt8]
  let darkDot: [UInt8]
  let cursorUp: [UInt8]
  static let reset = Array("\u{1B}[0m".utf8)
  static let endOfRow = Array("\u{1B}[K\n".utf8)
  static let colorPrefix = Array("\u{1B}[38;5;".utf8)
  static let hideCursor = Array("\u{1B}[?25l".utf8)
  static let restore = Array("\u{1B}[0m\u{1B}[?25h".utf8)

  /// Creates a display on `descriptor`, choosing the widest dots the terminal fits.
  ///
  /// - Throws: ``TooSmall`` if even one column per dot does not fit.
  public init(
    width: Int, height: Int, descriptor: Int32 = 1, color: Bool, litPalette: [Int] = TerminalDisplay.reds
  ) throws(TooSmall) {
    let size = Terminal.size(of: descriptor)
    let columns = size?.columns ?? Int.max
    guard width <= columns else { throw TooSmall(needed: width, available: columns) }
    // A sign taller than the terminal gets two rows of dots per line (colour only).
    let half = color && height + 1 > (size?.rows ?? Int.max)
    self.init(
      width: width, height: height, descriptor: descriptor,
      style: Style(color: color, cellWidth: 2 * width <= columns && !half ? 2 : 1, halfBlocks: half, litPalette: litPalette))
  }

  /// Creates a display with an explicit style.
  public init(width: Int, height: Int, descriptor: Int32 = 1, style: Style) {
    self.width = width
    self.height = height
    self.descriptor = descriptor
    self.style = style
    litDot = Array((style.color ? "●" : "#").utf8)
    darkDot = Array((style.color ? "●" : "·").utf8)
    cursorUp = Array("\u{1B}[\(style.halfBlocks ? (height + 1) / 2 : height)A\r".utf8)
    buffer.reserveCapacity((width * (style.cellWidth + 12) + 8) * height + 64)
  }

  /// The ANSI 256-colour index of a lit dot at `brightness`: brighter reds for brighter dots.
  /// The 256-colour reds of lit dots, dim to bright (the default LED colour).
  public static let reds = [52, 88, 124, 160, 196]

  static func litColor(brightness: Double, palette: [Int] = TerminalDisplay.reds) -> Int {
    let level = Int((brightness * Double(palette.count - 1)).rounded())
    return palette[max(0, min(palette.count - 1, level))]
  }

  /// The ANSI 256-colour index of a dark dot.
  static let darkColor = 236

  /// Appends the characters of one frame, starting at the sign's top-left corner.
  mutating func encode(_ frame: Frame) {
    let litColor = TerminalDisplay.litColor(brightness: frame.brightness, palette: style.litPalette)
    if style.halfBlocks {
      encodeHalfBlocks(frame, litColor: litColor)
      return
    }
    for y in 0..<height {
      var current = -1
      for x in 0..<width {
        let on = frame.pixels[x, y] && frame.brightness > 0
        if style.color {
          let color = on ? litColor : TerminalDisplay.darkColor
          if color != current {
            appendColor(color)
            current = color
          }
        }
        buffer.append(contentsOf: on ? litDot : darkDot)
        if style.cellWidth == 2 { buffer.append(UInt8(ascii: " ")) }
      }
      if style.color { buffer.append(contentsOf: TerminalDisplay.reset) }
      buffer.append(contentsOf: TerminalDisplay.endOfRow)
    }
  }

  static let upperHalf = Array("▀".utf8)
  static let backgroundPrefix = Array("\u{1B}[48;5;".utf8)

  /// Two rows of dots per line: the upper half block in the top dot's colour on the bottom
  /// dot's colour.
  mutating func encodeHalfBlocks(_ frame: Frame, litColor: Int) {
    for y in stride(from: 0, to: height, by: 2) {
      for x in 0..<width {
        let top = frame.pixels[x, y] && frame.brightness > 0
        let bottom = y + 1 < height && frame.pixels[x, y + 1] && frame.brightness > 0
        appendColor(top ? litColor : TerminalDisplay.darkColor)
        buffer.append(contentsOf: TerminalDisplay.backgroundPrefix)
        appendNumber(y + 1 < height ? (bottom ? litColor : TerminalDisplay.darkColor) : 0)
        buffer.append(UInt8(ascii: "m"))
        buffer.append(contentsOf: TerminalDisplay.upperHalf)
      }
      buffer.append(contentsOf: TerminalDisplay.reset)
      buffer.append(contentsOf: TerminalDisplay.endOfRow)
    }
  }

  mutating func appendNumber(_ index: Int) {
    if index >= 100 { buffer.append(UInt8(ascii: "0") + UInt8(index / 100)) }
    if index >= 10 { buffer.append(UInt8(ascii: "0") + UInt8(index / 10 % 10)) }
    buffer.append(UInt8(ascii: "0") + UInt8(index % 10))
  }

  mutating func appendColor(_ index: Int) {
    buffer.append(contentsOf: TerminalDisplay.colorPrefix)
    if index >= 100 { buffer.append(UInt8(ascii: "0") + UInt8(index / 100)) }
    if index >= 10 { buffer.append(UInt8(ascii: "0") + UInt8(index / 10 % 10)) }
    buffer.append(UInt8(ascii: "0") + UInt8(index % 10))
    buffer.append(UInt8(ascii: "m"))
  }

  public mutating func show(_ frame: Frame, changed: Bool) throws {
    guard changed || !drawn else { return }
    buffer.removeAll(keepingCapacity: true)
    if drawn {
      // Back to the sign's first row, column 0.
      buffer.append(contentsOf: cursorUp)
    } else {
      savedSettings = Terminal.disableEcho(0)
      buffer.append(contentsOf: TerminalDisplay.hideCursor)
    }
    encode(frame)
    drawn = true
    try writeAll(buffer, to: descriptor, what: "the terminal")
  }

  public mutating func shutdown() throws {
    defer {
      if let savedSettings { Terminal.restore(savedSettings, on: 0) }
      savedSettings = nil
    }
    buffer.removeAll(keepingCapacity: true)
    if drawn {
      buffer.append(contentsOf: cursorUp)
      encode(Frame(width: width, height: height))
    }
    buffer.append(contentsOf: TerminalDisplay.restore)
    drawn = false
    try writeAll(buffer, to: descriptor, what: "the terminal")
  }
}

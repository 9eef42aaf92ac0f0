import SimpleJSON

/// The hardware a board file describes: one chip family, its layout and how the host
/// reaches it. The `driver` field picks the family.
public enum SignBoard: Sendable, Equatable {
  /// MAX7219 modules over SPI (`"driver": "max7219"`).
  case max7219(Board)
  /// HT16K33 backpacks over I2C (`"driver": "ht16k33"`).
  case ht16k33(HT16K33Board)
  /// Addressable RGB LEDs over SPI (`"driver"`: `ws2812`, `sk6812-rgbw`, `apa102`, `sk9822`).
  case pixels(PixelBoard)
  /// Single-colour HUB12 panels over SPI and GPIO, scanned continuously (`"driver": "hub12"`).
  case hub12(HUB12Board)

  /// The drivers a board file may name.
  public static let drivers = ["max7219", "ht16k33", "hub12"] + PixelBoard.Chip.allCases.map(\.rawValue)

  /// The newest board-file schema this version reads (`"schema": 1`; a file without one is 1).
  public static let schemaVersion = 1

  /// Reads a board file's JSON text; `path` names the file in errors.
  ///
  /// Every field is checked before the board is used, so a bad file is rejected before
  /// anything is sent to the sign.
  public init(json text: String, path: String) throws(BoardFileError) {
    self = try SignBoard.read(json: text, path: path).board
  }

  /// Reads a board file's JSON text, with the notices about it: old keys still read, each
  /// naming the key to write now, prefixed with `path`.
  public static func read(json text: String, path: String) throws(BoardFileError) -> (board: SignBoard, notices: [String]) {
    var notices: [String] = []
    do {
      let fields = try JSONFields(try JSONParser.parse(text))
      if let schema = try fields.integer("schema", in: 1...1_000_000), schema > schemaVersion {
        throw JSONFieldError(
          field: "schema", reason: "version \(schema) is newer than this marquee reads (\(schemaVersion)): update marquee, or write the board for schema \(schemaVersion)")
      }
      guard let driver = try fields.choice("driver", SignBoard.drivers) else { throw fields.missing("driver") }
      let board: SignBoard
      switch driver {
      case "max7219": board = .max7219(try Board.decode(fields))
      case "ht16k33": board = .ht16k33(try HT16K33Board.decode(fields, notices: &notices))
      case "hub12": board = .hub12(try HUB12Board.decode(fields))
      default: board = .pixels(try PixelBoard.decode(fields, chip: PixelBoard.Chip(rawValue: driver)!))
      }
      return (board, notices.map { "\(path): \($0)" })
    } catch {
      throw BoardFileError(path: path, reason: "\(error)")
    }
  }

  /// The board's short name.
  public var name: String {
    switch self {
    case .max7219(let board): board.name
    case .ht16k33(let board): board.name
    case .pixels(let board): board.name
    case .hub12(let board): board.name
    }
  }

  /// The sign's width in pixels.
  public var width: Int {
    switch self {
    case .max7219(let board): board.width
    case .ht16k33(let board): board.width
    case .pixels(let board): board.width
    case .hub12(let board): board.width
    }
  }

  /// The sign's height in pixels.
  public var height: Int {
    switch self {
    case .max7219(let board): board.height
    case .ht16k33(let board): board.height
    case .pixels(let board): board.height
    case .hub12(let board): board.height
    }
  }

  /// The chip family and its variant, as `marquee boards` lists it (`max7219/fc16`,
  /// `ht16k33/8x8`, `ws2812`).
  public var kind: String {
    switch self {
    case .max7219(let board): "max7219/" + (ModuleWiring.named.first { $0.1 == board.wiring }?.0 ?? "custom")
    case .ht16k33(let board): "ht16k33/" + board.backpacks[0].module.rawValue
    case .pixels(let board): board.chip.rawValue
    case .hub12(let board): "hub12/1:\(board.scan)-\(board.order.rawValue)"
    }
  }

  /// The device node the board is driven through.
  public var device: String {
    switch self {
    case .max7219(let board): board.device
    case .ht16k33(let board): board.bus
    case .pixels(let board): board.device
    case .hub12(let board): board.device
    }
  }

  /// Every device node the board opens: the SPI or I2C node, and a HUB12 sign's GPIO chips.
  public var devices: [String] {
    guard case .hub12(let board) = self else { return [device] }
    var nodes = [board.device]
    for chip in board.lines.values.map(\.chip).sorted() where !nodes.contains(chip) { nodes.append(chip) }
    return nodes
  }

  /// What one unit of this family is called: `module`, `backpack`, `panel`.
  public var unitName: String {
    switch self {
    case .max7219: "module"
    case .ht16k33: "backpack"
    case .pixels, .hub12: "panel"
    }
  }

  /// Whether the board is on an I2C bus (its bytes dump with `--i2c-dump`, not `--spi-dump`).
  public var isI2C: Bool {
    if case .ht16k33 = self { return true }
    return false
  }

  /// This board at another full brightness.
  ///
  /// - Throws: ``InvalidBoardValue`` for a step the chip does not have.
  public func with(brightness: Int) throws(InvalidBoardValue) -> SignBoard {
    switch self {
    case .max7219(let board): .max7219(try board.with(brightness: brightness))
    case .ht16k33(let board): .ht16k33(try board.with(brightness: brightness))
    case .pixels(let board): .pixels(try board.with(brightness: brightness))
    case .hub12(let board): .hub12(try board.with(brightness: brightness))
    }
  }

  /// One part of the sign that data reaches as a whole: a module, a backpack, a panel.
  public struct Unit: Sendable, Equatable {
    /// Its cell on the sign.
    public var x: Int, y: Int, width: Int, height: Int
    /// The sign pixel of its first LED in data order (a panel's start corner), if known.
    public var firstLED: (x: Int, y: Int)?

    public static func == (a: Unit, b: Unit) -> Bool {
      a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height
        && a.firstLED?.x == b.firstLED?.x && a.firstLED?.y == b.firstLED?.y
    }
  }

  /// The units in data order: the chain's modules from the host, the backpacks as listed
  /// (by address), the LED and HUB12 panels from the host.
  public var units: [Unit] {
    switch self {
    case .max7219(let board):
      board.chain.map { Unit(x: $0.column * 8, y: $0.row * 8, width: 8, height: 8) }
    case .ht16k33(let board):
      board.backpacks.map { Unit(x: $0.x, y: $0.y, width: $0.size.width, height: $0.size.height) }
    case .pixels(let board):
      board.panels.map { Unit(x: $0.x, y: $0.y, width: $0.width, height: $0.height, firstLED: $0.pixel(0)) }
    case .hub12(let board):
      board.chain.map { Unit(x: $0.x, y: $0.y, width: board.panelWidth, height: board.panelHeight) }
    }
  }
}

import MatrixCore
import SimpleJSON

/// The hardware a board file describes: one chip family's board, its layout and how the
/// host reaches it. The `driver` field picks the family from ``families``.
public struct SignBoard: Sendable, Equatable {
  /// The families board files may name, each in its own folder. A new family is one more
  /// line here.
  public static let families: [any BoardFamily.Type] = [MAX7219Board.self, HT16K33Board.self, HUB12Board.self, HUB75Board.self, PixelBoard.self]

  /// The drivers a board file may name.
  public static let drivers = families.flatMap { $0.drivers }

  /// The newest board-file schema this version reads (`"schema": 1`; a file without one is 1).
  public static let schemaVersion = 1

  /// The family's board.
  public let family: any BoardFamily

  /// A sign of one family's board.
  public init(_ family: any BoardFamily) {
    self.family = family
  }

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
      let family = families.first { $0.drivers.contains(driver) }!
      let board = SignBoard(try family.decode(fields, driver: driver, notices: &notices))
      if fields.value["brightness"] != nil {
        notices.append("'brightness' is the old name of the chip's step at full brightness: write \"intensity\"")
      }
      return (board, notices.map { "\(path): \($0)" })
    } catch {
      throw BoardFileError(path: path, reason: "\(error)")
    }
  }

  public static func == (a: SignBoard, b: SignBoard) -> Bool { a.family.isSame(as: b.family) }

  /// The board's short name.
  public var name: String { family.name }
  /// The sign's size in pixels.
  public var width: Int { family.width }
  public var height: Int { family.height }
  /// The chip family and its variant, as `marquee boards` lists it (`max7219/fc16`,
  /// `ht16k33/8x8`, `ws2812`).
  public var kind: String { family.kind }
  /// The device node the board's data goes to.
  public var device: String { family.devices[0] }
  /// Every device node the board opens: the SPI or I2C node, and a HUB12 sign's GPIO chips.
  public var devices: [String] { family.devices }
  /// What one unit of this family is called: `module`, `backpack`, `panel`.
  public var unitName: String { family.unitName }
  /// Whether the board is on an I2C bus (its bytes dump with `--i2c-dump`, not `--spi-dump`).
  public var isI2C: Bool { family.dataBus == .i2c }

  /// This board at another full brightness.
  ///
  /// - Throws: ``InvalidBoardValue`` for a step the chip does not have.
  public func with(intensity: Int) throws(InvalidBoardValue) -> SignBoard {
    SignBoard(try family.with(intensity: intensity))
  }

  /// One part of the sign that data reaches as a whole: a module, a backpack, a panel.
  public struct Unit: Sendable, Equatable {
    /// Its cell on the sign.
    public var x: Int, y: Int, width: Int, height: Int
    /// The sign pixel of its first LED in data order (a panel's start corner), if known.
    public var firstLED: (x: Int, y: Int)?

    public init(x: Int, y: Int, width: Int, height: Int, firstLED: (x: Int, y: Int)? = nil) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
      self.firstLED = firstLED
    }

    public static func == (a: Unit, b: Unit) -> Bool {
      a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height
        && a.firstLED?.x == b.firstLED?.x && a.firstLED?.y == b.firstLED?.y
    }
  }

  /// The units in data order: the chain's modules from the host, the backpacks as listed
  /// (by address), the LED, HUB12 and HUB75 panels from the host (each HUB75 chain in turn).
  public var units: [Unit] { family.units }
}

extension BoardFamily {
  /// Whether `other` is the same board of the same family.
  func isSame(as other: any BoardFamily) -> Bool {
    guard let other = other as? Self else { return false }
    return other == self
  }
}

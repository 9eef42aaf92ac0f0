/// A physical sign: MAX7219 modules in a grid, how they are wired and chained, and how the
/// host reaches them.
public struct MAX7219Board: Sendable, Equatable {
  /// The corner of the grid where the chain starts (the module nearest the host).
  public typealias Corner = MAX7219Core.Corner

  /// Whether the chain runs along rows or down columns of modules.
  public typealias ChainDirection = MAX7219Core.ChainDirection

  /// A module's place in the grid, in modules from the top-left.
  public struct ModulePosition: Sendable, Hashable {
    public var column: Int
    public var row: Int
  }

  /// A short name.
  public let name: String
  /// How each module is wired.
  public let wiring: ModuleWiring
  /// Modules across.
  public let columns: Int
  /// Modules down.
  public let rows: Int
  /// How each module is turned as mounted.
  public let rotation: ModuleRotation
  /// Where the chain starts.
  public let chainStart: Corner
  /// Along rows or down columns.
  public let chainDirection: ChainDirection
  /// Whether every other row (or column) of the chain runs back the other way.
  public let serpentine: Bool
  /// The SPI device node.
  public let device: String
  /// The SPI clock, in hertz (the MAX7219 takes up to 10 MHz).
  public let speedHz: Int
  /// The intensity at full brightness, 0...15.
  public let intensity: Int

  /// A value a MAX7219 sign cannot take.
  public typealias InvalidValue = InvalidBoardValue

  /// Modules across a board may have.
  public static let columnRange = 1...256
  /// Modules down a board may have.
  public static let rowRange = 1...64
  /// The SPI clocks accepted, in hertz (the MAX7219 takes up to 10 MHz).
  public static let speedRange = 10_000...10_000_000
  /// The chip's intensity register: 16 steps of duty cycle.
  public static let intensityRange = 0...15

  /// Creates a board.
  ///
  /// - Throws: ``InvalidValue`` for a value the hardware cannot take: a grid outside
  ///   ``columnRange`` and ``rowRange`` or of more than ``maximumChips`` modules, a clock
  ///   outside ``speedRange``, a brightness outside ``intensityRange``, an empty device path.
  public init(
    name: String, wiring: ModuleWiring, columns: Int, rows: Int = 1,
    rotation: ModuleRotation = .none, chainStart: Corner = .topRight,
    chainDirection: ChainDirection = .rows, serpentine: Bool = false,
    device: String = "/dev/spidev0.0", speedHz: Int = 8_000_000, intensity: Int = 7
  ) throws(InvalidValue) {
    let check = InvalidBoardValue.check
    try check(columns, MAX7219Board.columnRange, "columns")
    try check(rows, MAX7219Board.rowRange, "rows")
    guard columns * rows <= MAX7219Board.maximumChips else {
      throw InvalidValue(field: "grid", reason: "\(columns * rows) modules is more than \(MAX7219Board.maximumChips)")
    }
    try check(speedHz, MAX7219Board.speedRange, "speedHz")
    try check(intensity, MAX7219Board.intensityRange, "intensity")
    guard !device.isEmpty else { throw InvalidValue(field: "device", reason: "empty path") }
    self.name = name
    self.wiring = wiring
    self.columns = columns
    self.rows = rows
    self.rotation = rotation
    self.chainStart = chainStart
    self.chainDirection = chainDirection
    self.serpentine = serpentine
    self.device = device
    self.speedHz = speedHz
    self.intensity = intensity
  }

  /// This board at another full brightness (the intensity fades scale below).
  ///
  /// - Throws: ``InvalidValue`` for a brightness outside ``intensityRange``.
  public func with(intensity: Int) throws(InvalidValue) -> MAX7219Board {
    try MAX7219Board(
      name: name, wiring: wiring, columns: columns, rows: rows, rotation: rotation, chainStart: chainStart,
      chainDirection: chainDirection, serpentine: serpentine, device: device, speedHz: speedHz, intensity: intensity)
  }

  /// The sign's width in pixels.
  public var width: Int { columns * 8 }
  /// The sign's height in pixels.
  public var height: Int { rows * 8 }
  /// The number of MAX7219 chips in the chain.
  public var chipCount: Int { columns * rows }

  /// Every module in chain order: element 0 is the chip wired to the host, whose word is
  /// clocked in last in each transaction.
  public var chain: [ModulePosition] {
    let order = ChainOrder(start: chainStart, direction: chainDirection, serpentine: serpentine)
    return (0..<chipCount).map { index in
      let place = order.place(index, columns: columns, rows: rows)
      return ModulePosition(column: place.column, row: place.row)
    }
  }

  /// The sign pixel lit by bit `bit` of digit register `digit + 1` of the chip at `chainIndex`.
  public func pixel(chip chainIndex: Int, digit: Int, bit: Int) -> (x: Int, y: Int) {
    pixel(module: chain[chainIndex], digit: digit, bit: bit)
  }

  /// The sign pixel lit by bit `bit` of digit register `digit + 1` of the chip at `module`.
  public func pixel(module: ModulePosition, digit: Int, bit: Int) -> (x: Int, y: Int) {
    let local = wiring.pixel(digit: digit, bit: bit)
    let turned = rotation.apply(x: local.x, y: local.y)
    return (module.column * 8 + turned.x, module.row * 8 + turned.y)
  }

  /// The largest chain a board may have (the SPI buffer of one transaction stays small).
  public static let maximumChips = 1024
}

import SimpleJSON

/// A physical sign: MAX7219 modules in a grid, how they are wired and chained, and how the
/// host reaches them.
public struct Board: Sendable, Equatable {
  /// The corner of the grid where the chain starts (the module nearest the host).
  public enum Corner: String, Sendable, CaseIterable {
    case topLeft = "top-left", topRight = "top-right"
    case bottomLeft = "bottom-left", bottomRight = "bottom-right"
  }

  /// Whether the chain runs along rows or down columns of modules.
  public enum ChainDirection: String, Sendable, CaseIterable {
    case rows, columns
  }

  /// A module's place in the grid, in modules from the top-left.
  public struct ModulePosition: Sendable, Hashable {
    public var column: Int
    public var row: Int
  }

  /// A short name.
  public var name: String
  /// How each module is wired.
  public var wiring: ModuleWiring
  /// Modules across.
  public var columns: Int
  /// Modules down.
  public var rows: Int
  /// How each module is turned as mounted.
  public var rotation: ModuleRotation
  /// Where the chain starts.
  public var chainStart: Corner
  /// Along rows or down columns.
  public var chainDirection: ChainDirection
  /// Whether every other row (or column) of the chain runs back the other way.
  public var serpentine: Bool
  /// The SPI device node.
  public var device: String
  /// The SPI clock, in hertz (the MAX7219 takes up to 10 MHz).
  public var speedHz: Int
  /// The intensity at full brightness, 0...15.
  public var brightness: Int

  /// Creates a board.
  public init(
    name: String, wiring: ModuleWiring, columns: Int, rows: Int = 1,
    rotation: ModuleRotation = .none, chainStart: Corner = .topRight,
    chainDirection: ChainDirection = .rows, serpentine: Bool = false,
    device: String = "/dev/spidev0.0", speedHz: Int = 8_000_000, brightness: Int = 7
  ) {
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
    self.brightness = brightness
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
    let fromRight = chainStart == .topRight || chainStart == .bottomRight
    let fromBottom = chainStart == .bottomLeft || chainStart == .bottomRight
    var order: [ModulePosition] = []
    switch chainDirection {
    case .rows:
      for step in 0..<rows {
        let row = fromBottom ? rows - 1 - step : step
        let reversed = fromRight != (serpentine && step % 2 == 1)
        for i in 0..<columns { order.append(ModulePosition(column: reversed ? columns - 1 - i : i, row: row)) }
      }
    case .columns:
      for step in 0..<columns {
        let column = fromRight ? columns - 1 - step : step
        let reversed = fromBottom != (serpentine && step % 2 == 1)
        for i in 0..<rows { order.append(ModulePosition(column: column, row: reversed ? rows - 1 - i : i)) }
      }
    }
    return order
  }

  /// The sign pixel lit by bit `bit` of digit register `digit + 1` of the chip at `chainIndex`.
  public func pixel(chip chainIndex: Int, digit: Int, bit: Int) -> (x: Int, y: Int) {
    let module = chain[chainIndex]
    let local = wiring.pixel(digit: digit, bit: bit)
    let turned = rotation.apply(x: local.x, y: local.y)
    return (module.column * 8 + turned.x, module.row * 8 + turned.y)
  }

  /// The largest chain a board may have (the SPI buffer of one transaction stays small).
  public static let maximumChips = 1024
}

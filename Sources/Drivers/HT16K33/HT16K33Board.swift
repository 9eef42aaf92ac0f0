/// A sign of HT16K33 matrix backpacks on one I2C bus: each backpack's address, kind, place
/// and turn, tiled into one picture.
public struct HT16K33Board: Sendable, Equatable {
  /// One backpack on the bus.
  public struct Backpack: Sendable, Equatable {
    /// Its 7-bit I2C address (0x70...0x77, set by the A0-A2 jumpers).
    public let address: UInt8
    /// What kind of backpack it is.
    public let module: HT16K33Module
    /// The sign pixel of the top-left corner of the cell it covers.
    public let x: Int, y: Int
    /// How it is turned as mounted.
    public let rotation: ModuleRotation

    /// Creates a backpack.
    public init(address: UInt8, module: HT16K33Module, x: Int, y: Int, rotation: ModuleRotation = .none) {
      self.address = address
      self.module = module
      self.x = x
      self.y = y
      self.rotation = rotation
    }

    /// The size of the cell it covers on the sign.
    public var size: (width: Int, height: Int) { rotation.turned(width: module.width, height: module.height) }

    /// The sign pixel the LED at `row` and `common` lights, or `nil` for none.
    public func pixel(row: Int, common: Int, color: HT16K33Module.Color) -> (x: Int, y: Int)? {
      guard let local = module.pixel(row: row, common: common, color: color) else { return nil }
      let turned = rotation.apply(x: local.x, y: local.y, width: module.width, height: module.height)
      return (x + turned.x, y + turned.y)
    }
  }

  /// A short name.
  public let name: String
  /// The I2C bus's device node.
  public let bus: String
  /// The backpacks, in the order they are set up.
  public let backpacks: [Backpack]
  /// What a bicolor backpack lights.
  public let color: HT16K33Module.Color
  /// The dimming step at full brightness, 0...15 (duty (n+1)/16).
  public let intensity: Int
  /// The sign's size in pixels: the smallest rectangle holding every backpack.
  public let width: Int, height: Int

  /// The addresses a backpack may have.
  public static let addressRange = 0x70...0x77
  /// The chip's dimming steps.
  public static let intensityRange = 0...15

  /// Creates a board.
  ///
  /// - Throws: ``InvalidBoardValue`` for no backpacks, an address outside ``addressRange``
  ///   or used twice, backpacks that overlap or lie at negative positions, a brightness
  ///   outside ``intensityRange``, an empty bus path.
  public init(
    name: String, bus: String = "/dev/i2c-1", backpacks: [Backpack], color: HT16K33Module.Color = .green,
    intensity: Int = 15
  ) throws(InvalidBoardValue) {
    guard !backpacks.isEmpty else { throw InvalidBoardValue(field: "backpacks", reason: "none given") }
    guard !bus.isEmpty else { throw InvalidBoardValue(field: "bus", reason: "empty path") }
    try InvalidBoardValue.check(intensity, HT16K33Board.intensityRange, "intensity")
    var used = Set<UInt8>()
    var right = 0, bottom = 0
    for (index, backpack) in backpacks.enumerated() {
      let field = "backpacks[\(index)]"
      guard HT16K33Board.addressRange.contains(Int(backpack.address)) else {
        throw InvalidBoardValue(field: field + ".address", reason: "\(hex(backpack.address)) is outside 0x70...0x77")
      }
      guard used.insert(backpack.address).inserted else {
        throw InvalidBoardValue(field: field + ".address", reason: "\(hex(backpack.address)) is used by another backpack")
      }
      guard backpack.x >= 0, backpack.y >= 0, backpack.x <= 4096, backpack.y <= 4096 else {
        throw InvalidBoardValue(field: field, reason: "position \(backpack.x),\(backpack.y) is outside 0...4096")
      }
      for (other, placed) in backpacks[..<index].enumerated() where placed.overlaps(backpack) {
        throw InvalidBoardValue(field: field, reason: "overlaps backpacks[\(other)]")
      }
      right = max(right, backpack.x + backpack.size.width)
      bottom = max(bottom, backpack.y + backpack.size.height)
    }
    self.name = name
    self.bus = bus
    self.backpacks = backpacks
    self.color = color
    self.intensity = intensity
    (width, height) = (right, bottom)
  }

  /// This board at another full brightness (fades dim below it).
  ///
  /// - Throws: ``InvalidBoardValue`` for a brightness outside ``intensityRange``.
  public func with(intensity: Int) throws(InvalidBoardValue) -> HT16K33Board {
    try HT16K33Board(name: name, bus: bus, backpacks: backpacks, color: color, intensity: intensity)
  }
}

extension HT16K33Board.Backpack {
  /// Whether the cells of two backpacks share a pixel.
  func overlaps(_ other: Self) -> Bool {
    x < other.x + other.size.width && other.x < x + size.width
      && y < other.y + other.size.height && other.y < y + size.height
  }
}

/// An I2C address as people write it: `0x70`.
func hex(_ address: UInt8) -> String {
  let digits = String(address, radix: 16)
  return "0x" + (digits.count < 2 ? "0" + digits : digits)
}

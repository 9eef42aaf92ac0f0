import MatrixCore
import SimpleJSON

/// HT16K33 backpacks over I2C (`"driver": "ht16k33"`).
extension HT16K33Board: BoardFamily {
  public static let drivers = ["ht16k33"]

  public static func decode(_ fields: JSONFields, driver: String, notices: inout [String]) throws(JSONFieldError) -> HT16K33Board {
    try decode(fields, notices: &notices)
  }

  public var kind: String { "ht16k33/" + backpacks[0].module.rawValue }
  public var devices: [String] { [bus] }
  public var unitName: String { "backpack" }
  public var units: [SignBoard.Unit] { backpacks.map { SignBoard.Unit(x: $0.x, y: $0.y, width: $0.size.width, height: $0.size.height) } }
  public var dataBus: BoardBus { .i2c }
  public var intensitySteps: ClosedRange<Int> { HT16K33Board.intensityRange }

  public func drive(_ settings: BoardSettings, _ visitor: inout some DisplayVisitor) throws {
    let encoder = HT16K33Encoder(board: self)
    if let dump = settings.dumpPath {
      try drive(encoder, on: try I2CDumpTransport(path: dump), settings, &visitor)
    } else {
      try drive(encoder, on: try I2CDevTransport(path: bus), settings, &visitor)
    }
  }

  public func emulate<Screen: Display>(on screen: Screen, _ settings: BoardSettings, _ visitor: inout some DisplayVisitor) throws {
    try show(HT16K33Emulation(board: self), on: screen, &visitor)
  }
}

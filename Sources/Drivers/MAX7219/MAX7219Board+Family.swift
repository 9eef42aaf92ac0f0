import MatrixCore
import SimpleJSON

/// MAX7219 modules over SPI (`"driver": "max7219"`).
extension MAX7219Board: BoardFamily {
  public static let drivers = ["max7219"]

  public static func decode(_ fields: JSONFields, driver: String, notices: inout [String]) throws(JSONFieldError) -> MAX7219Board {
    try decode(fields)
  }

  public var kind: String { "max7219/" + (ModuleWiring.named.first { $0.1 == wiring }?.0 ?? "custom") }
  public var devices: [String] { [device] }
  public var unitName: String { "module" }
  public var units: [SignBoard.Unit] { chain.map { SignBoard.Unit(x: $0.column * 8, y: $0.row * 8, width: 8, height: 8) } }
  public var dataBus: BoardBus { .spi }
  public var intensitySteps: ClosedRange<Int> { MAX7219Board.intensityRange }

  public func drive(_ settings: BoardSettings, _ visitor: inout some DisplayVisitor) throws {
    let encoder = MAX7219Encoder(board: self)
    if let dump = settings.dumpPath {
      try drive(encoder, on: try DumpTransport(path: dump), settings, &visitor)
    } else {
      try drive(encoder, on: try SpidevTransport(path: device, speedHz: speedHz), settings, &visitor)
    }
  }

  public func emulate<Screen: Display>(on screen: Screen, _ settings: BoardSettings, _ visitor: inout some DisplayVisitor) throws {
    try show(MAX7219Emulation(board: self), on: screen, &visitor)
  }
}

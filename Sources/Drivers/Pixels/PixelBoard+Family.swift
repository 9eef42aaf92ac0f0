import MatrixCore
import SimpleJSON

/// Addressable RGB LEDs over SPI (`"driver"`: `ws2812`, `sk6812-rgbw`, `apa102`, `sk9822`).
extension PixelBoard: BoardFamily {
  public static let drivers = Chip.allCases.map(\.rawValue)

  public static func decode(_ fields: JSONFields, driver: String, notices: inout [String]) throws(JSONFieldError) -> PixelBoard {
    try decode(fields, chip: Chip(rawValue: driver)!)
  }

  public var kind: String { chip.rawValue }
  public var devices: [String] { [device] }
  public var unitName: String { "panel" }
  public var units: [SignBoard.Unit] {
    panels.map { SignBoard.Unit(x: $0.x, y: $0.y, width: $0.width, height: $0.height, firstLED: $0.pixel(0)) }
  }
  public var dataBus: BoardBus { .spi }

  public func drive(_ settings: BoardSettings, _ visitor: inout some DisplayVisitor) throws {
    let encoder = PixelEncoder(board: self, color: settings.color, regions: settings.regions)
    if let dump = settings.dumpPath {
      try drive(encoder, on: try DumpTransport(path: dump), settings, &visitor)
    } else {
      let transport = try SpidevTransport(path: device, speedHz: speedHz)
      try checkClock(of: transport)
      try drive(encoder, on: transport, settings, &visitor)
    }
  }

  public func emulate<Screen: Display>(on screen: Screen, _ settings: BoardSettings, _ visitor: inout some DisplayVisitor) throws {
    try show(PixelEmulation(board: self, color: settings.color, regions: settings.regions), on: screen, &visitor)
  }

  /// A WS2812's bits are timed by the SPI clock: a driver that gave another clock than the
  /// board's must still keep the pulses inside the windows, or nothing is sent.
  func checkClock(of transport: SpidevTransport) throws(BoardDriveError) {
    guard !chip.isClocked, let timing = WS2812Timing(speedHz: speedHz), !timing.holds(atSpeedHz: Int(transport.speedHz)) else { return }
    let speeds = timing.workingSpeeds
    throw BoardDriveError(
      "\(transport.path): the SPI driver set the clock to \(transport.speedHz) Hz, and the board's coding "
        + "(\(timing.bitsPerBit) SPI bits per LED bit, for \(speedHz) Hz) works from \(speeds.lowerBound) to "
        + "\(speeds.upperBound) Hz only; set 'spi.speedHz' to a clock this controller gives")
  }
}

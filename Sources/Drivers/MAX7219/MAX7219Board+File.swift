import SimpleJSON

/// A board file that could not be used, with the file and the field at fault.
public struct BoardFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file's path.
  public var path: String
  /// What is wrong, naming the field or the line.
  public var reason: String

  public var description: String { "\(path): \(reason)" }
}

extension MAX7219Board {
  /// The fields a board file may have.
  static let knownFields = [
    "schema", "name", "description", "driver", "module", "grid", "rotation", "chain", "spi", "intensity", "brightness",
  ]

  /// Reads a board from JSON text; `path` names the file in errors.
  ///
  /// The schema is documented in `Docs/hardware.md`. Every field is checked before the board
  /// is used, so a bad file is rejected before anything is sent to the sign.
  public init(json text: String, path: String) throws(BoardFileError) {
    let document: JSONValue
    do {
      document = try JSONParser.parse(text)
    } catch {
      throw BoardFileError(path: path, reason: "\(error)")
    }
    do {
      self = try MAX7219Board.decode(document)
    } catch {
      throw BoardFileError(path: path, reason: "\(error)")
    }
  }

  static func decode(_ document: JSONValue) throws(JSONFieldError) -> MAX7219Board {
    try decode(try JSONFields(document))
  }

  static func decode(_ fields: JSONFields) throws(JSONFieldError) -> MAX7219Board {
    try fields.rejectUnknownKeys(knownFields)
    guard let driver = try fields.string("driver") else { throw fields.missing("driver") }
    guard driver == "max7219" else {
      throw JSONFieldError(field: "driver", reason: "'\(driver)' is not a MAX7219 board (read it as a SignBoard)")
    }
    let moduleName = try fields.requiredString("module")
    guard let wiring = ModuleWiring.named(moduleName) else {
      throw JSONFieldError(
        field: "module",
        reason: "'\(moduleName)' is not a module variant (fc16, generic, parola, icstation, or drXcrYrrZ)")
    }
    guard
      let placement = try BoardPlacement.decode(
        fields, columnRange: columnRange, rowRange: rowRange, chain: ChainOrder(start: .topRight, direction: .rows, serpentine: false),
        columnsRequired: true)
    else { throw fields.missing("grid") }
    let (columns, rows) = (placement.columns, placement.rows)
    guard columns * rows <= maximumChips else {
      throw JSONFieldError(field: "grid", reason: "\(columns * rows) modules is more than \(maximumChips)")
    }
    let degrees = try fields.integer("rotation", in: 0...270) ?? 0
    guard let rotation = ModuleRotation(rawValue: degrees) else {
      throw JSONFieldError(field: "rotation", reason: "\(degrees) is not 0, 90, 180 or 270")
    }
    let (start, direction, serpentine) = (placement.chain.start, placement.chain.direction, placement.chain.serpentine)
    var device = "/dev/spidev0.0", speed = 8_000_000
    if let spi = try fields.object("spi") {
      try spi.rejectUnknownKeys(["device", "speedHz"])
      device = try spi.string("device") ?? device
      guard !device.isEmpty else { throw JSONFieldError(field: "spi.device", reason: "empty path") }
      speed = try spi.integer("speedHz", in: speedRange) ?? speed
    }
    let intensity = try fields.intensity(in: intensityRange) ?? 7
    let name = try fields.string("name") ?? moduleName
    do throws(InvalidValue) {
      return try MAX7219Board(
        name: name, wiring: wiring, columns: columns, rows: rows,
        rotation: rotation, chainStart: start, chainDirection: direction, serpentine: serpentine,
        device: device, speedHz: speed, intensity: intensity)
    } catch {
      // Every field was checked above; this keeps the two sets of rules from drifting apart.
      throw JSONFieldError(field: error.field, reason: error.reason)
    }
  }
}

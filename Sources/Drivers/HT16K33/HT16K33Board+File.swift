import SimpleJSON

extension HT16K33Board {
  /// The fields an HT16K33 board file may have.
  static let knownFields = [
    "schema", "name", "description", "driver", "i2c", "bus", "module", "rotation", "color", "intensity", "brightness", "backpacks", "grid",
    "chain",
  ]

  /// Reads a board from a parsed board file whose `driver` is `ht16k33`.
  ///
  /// `module` and `rotation` at the top are every backpack's unless a backpack gives its
  /// own; each backpack has an `address` (0x70-0x77, a number or a `"0x70"` string) and the
  /// sign pixel `x`, `y` of its top-left corner.
  ///
  /// The bus is `"i2c": {"device": "/dev/i2c-1"}`, as SPI boards say `"spi": {"device": …}`;
  /// the old top-level `"bus"` is still read, with a notice in `notices` naming the new key.
  static func decode(_ fields: JSONFields, notices: inout [String]) throws(JSONFieldError) -> HT16K33Board {
    try fields.rejectUnknownKeys(knownFields)
    let module = try fields.choice("module", HT16K33Module.allCases.map(\.rawValue)).flatMap(HT16K33Module.init)
    let rotation = try decodeRotation(fields) ?? .none
    var list = try fields.objects("backpacks")
    // Backpacks of one module in a grid, in chain order, at addresses 0x70, 0x71, ... (the
    // jumpers' usual order), instead of a list.
    let placement = try BoardPlacement.decode(
      fields, columnRange: 1...8, rowRange: 1...8, chain: ChainOrder(start: .topLeft, direction: .rows, serpentine: false))
    if let placement {
      guard list == nil else { throw BoardPlacement.bothGiven("backpacks") }
      guard let module else { throw fields.missing("module") }
      guard placement.columns * placement.rows <= 8 else {
        throw JSONFieldError(field: "grid", reason: "\(placement.columns * placement.rows) backpacks is more than the 8 addresses 0x70-0x77")
      }
      let size = rotation.turned(width: module.width, height: module.height)
      list = try placement.places(unitWidth: size.width, unitHeight: size.height).enumerated().map { index, place throws(JSONFieldError) in
        try JSONFields(
          .object([("address", .number(Double(0x70 + index))), ("x", .number(Double(place.x))), ("y", .number(Double(place.y)))]),
          path: "backpacks[\(index)]")
      }
    }
    guard let list else { throw fields.missing("backpacks") }
    var backpacks: [Backpack] = []
    for entry in list {
      try entry.rejectUnknownKeys(["address", "module", "x", "y", "rotation"])
      let address = try decodeAddress(entry)
      guard let kind = try entry.choice("module", HT16K33Module.allCases.map(\.rawValue)).flatMap(HT16K33Module.init) ?? module
      else { throw JSONFieldError(field: entry.name("module"), reason: "missing (and no 'module' for every backpack)") }
      backpacks.append(Backpack(
        address: address, module: kind, x: try entry.integer("x", in: 0...4096) ?? 0,
        y: try entry.integer("y", in: 0...4096) ?? 0, rotation: try decodeRotation(entry) ?? rotation))
    }
    let color = try fields.choice("color", HT16K33Module.Color.allCases.map(\.rawValue))
      .flatMap(HT16K33Module.Color.init) ?? .green
    var bus = "/dev/i2c-1"
    let i2c = try fields.object("i2c")
    if let i2c {
      try i2c.rejectUnknownKeys(["device"])
      bus = try i2c.string("device") ?? bus
      guard !bus.isEmpty else { throw JSONFieldError(field: "i2c.device", reason: "empty path") }
    }
    if let old = try fields.string("bus") {
      guard i2c == nil else {
        throw JSONFieldError(field: "bus", reason: "the old name of 'i2c.device': give the device once, in \"i2c\": {\"device\": …}")
      }
      bus = old
      notices.append("'bus' is the old name of the I2C device: write \"i2c\": {\"device\": \"\(old)\"}")
    }
    let intensity = try fields.intensity(in: intensityRange) ?? 15
    let name = try fields.string("name") ?? "ht16k33"
    do throws(InvalidBoardValue) {
      return try HT16K33Board(name: name, bus: bus, backpacks: backpacks, color: color, intensity: intensity)
    } catch {
      throw JSONFieldError(field: error.field, reason: error.reason)
    }
  }

  /// A backpack's address: 112...119, or a string such as `"0x70"`.
  static func decodeAddress(_ entry: JSONFields) throws(JSONFieldError) -> UInt8 {
    let range = addressRange
    if case .string(let text)? = entry.optional("address") {
      let digits = text.lowercased().hasPrefix("0x") ? text.dropFirst(2) : Substring(text)
      guard let value = Int(digits, radix: 16), range.contains(value) else {
        throw JSONFieldError(field: entry.name("address"), reason: "'\(text)' is not an address from 0x70 to 0x77")
      }
      return UInt8(value)
    }
    guard let value = try entry.integer("address", in: range) else { throw entry.missing("address") }
    return UInt8(value)
  }
}

/// A `rotation` field: 0, 90, 180 or 270 degrees clockwise, or `nil` when absent.
func decodeRotation(_ fields: JSONFields) throws(JSONFieldError) -> ModuleRotation? {
  guard let degrees = try fields.integer("rotation", in: 0...270) else { return nil }
  guard let rotation = ModuleRotation(rawValue: degrees) else {
    throw JSONFieldError(field: fields.name("rotation"), reason: "\(degrees) is not 0, 90, 180 or 270")
  }
  return rotation
}

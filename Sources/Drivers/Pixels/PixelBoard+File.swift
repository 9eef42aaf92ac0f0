import SimpleJSON

extension PixelBoard {
  /// The fields a pixel board file may have.
  static let knownFields = [
    "schema", "name", "description", "driver", "panel", "panels", "grid", "chain", "colorOrder", "spi", "intensity", "brightness", "maxMilliamps",
  ]
  /// The fields of a panel (`panel` gives every panel's; each of `panels` may override them).
  static let panelFields = ["width", "height", "x", "y", "start", "direction", "serpentine"]

  /// Reads a board from a parsed board file whose `driver` names an LED chip.
  static func decode(_ fields: JSONFields, chip: Chip) throws(JSONFieldError) -> PixelBoard {
    try fields.rejectUnknownKeys(knownFields)
    let shared = try fields.object("panel")
    try shared?.rejectUnknownKeys(panelFields.filter { $0 != "x" && $0 != "y" })
    var entries = try fields.objects("panels")
    guard shared != nil || entries != nil else { throw fields.missing("panel") }
    // Panels of the shared size in a grid, in chain order, instead of a list.
    let placement = try BoardPlacement.decode(
      fields, columnRange: 1...64, rowRange: 1...64, chain: ChainOrder(start: .topLeft, direction: .rows, serpentine: false))
    if let placement, let shared {
      guard entries == nil else { throw BoardPlacement.bothGiven("panels") }
      guard let width = try shared.integer("width", in: 1...1024) else { throw shared.missing("width") }
      guard let height = try shared.integer("height", in: 1...1024) else { throw shared.missing("height") }
      entries = try placement.places(unitWidth: width, unitHeight: height).map { place throws(JSONFieldError) in
        try JSONFields(.object([("x", .number(Double(place.x))), ("y", .number(Double(place.y)))]), path: "panel")
      }
    }
    var panels: [Panel] = []
    for entry in entries ?? [shared!] {
      try entry.rejectUnknownKeys(panelFields)
      // A panel's own value, else the shared one, else the default.
      func integer(_ key: String, _ range: ClosedRange<Int>) throws(JSONFieldError) -> Int? {
        if let own = try entry.integer(key, in: range) { return own }
        return try shared?.integer(key, in: range)
      }
      func choice(_ key: String, _ choices: [String]) throws(JSONFieldError) -> String? {
        if let own = try entry.choice(key, choices) { return own }
        return try shared?.choice(key, choices)
      }
      guard let width = try integer("width", 1...1024) else { throw entry.missing("width") }
      guard let height = try integer("height", 1...1024) else { throw entry.missing("height") }
      let start = try choice("start", Corner.allCases.map(\.rawValue)).flatMap(Corner.init) ?? .topLeft
      let direction = try choice("direction", ChainDirection.allCases.map(\.rawValue)).flatMap(ChainDirection.init) ?? .rows
      var serpentine = try entry.bool("serpentine")
      if serpentine == nil { serpentine = try shared?.bool("serpentine") }
      panels.append(Panel(
        width: width, height: height, x: try entry.integer("x", in: 0...4096) ?? 0,
        y: try entry.integer("y", in: 0...4096) ?? 0,
        order: ChainOrder(start: start, direction: direction, serpentine: serpentine ?? true)))
    }
    var device = "/dev/spidev0.0"
    var speed: Int?
    if let spi = try fields.object("spi") {
      try spi.rejectUnknownKeys(["device", "speedHz"])
      device = try spi.string("device") ?? device
      speed = try spi.integer("speedHz", in: speedRange)
    }
    let name = try fields.string("name") ?? chip.rawValue
    let order = try fields.string("colorOrder")
    let intensity = try fields.intensity(in: intensityRange) ?? 3
    let current = try fields.integer("maxMilliamps", in: currentRange) ?? defaultMilliamps
    do throws(InvalidBoardValue) {
      return try PixelBoard(
        name: name, chip: chip, channelOrder: order, panels: panels, device: device, speedHz: speed,
        intensity: intensity, maxMilliamps: current)
    } catch {
      throw JSONFieldError(field: error.field, reason: error.reason)
    }
  }
}

import SimpleJSON

extension HUB12Board {
  /// The fields a HUB12 board file may have.
  static let knownFields = [
    "schema", "name", "description", "driver", "panel", "grid", "chain", "spi", "gpio", "refreshHz", "intensity", "brightness",
  ]

  /// Reads a board from a parsed board file whose `driver` is `hub12`.
  static func decode(_ fields: JSONFields) throws(JSONFieldError) -> HUB12Board {
    try fields.rejectUnknownKeys(knownFields)
    var (width, height, scan, order) = (32, 16, 4, DataOrder.dmd)
    var (dataActiveLow, oeActiveHigh) = (true, true)
    if let panel = try fields.object("panel") {
      try panel.rejectUnknownKeys(["width", "height", "scan", "order", "data", "oe"])
      width = try panel.integer("width", in: 8...256) ?? width
      height = try panel.integer("height", in: 4...64) ?? height
      scan = try panel.integer("scan", in: 4...16) ?? scan
      order = try panel.choice("order", DataOrder.allCases.map(\.rawValue)).flatMap(DataOrder.init) ?? (scan == 4 ? .dmd : .rows)
      dataActiveLow = try panel.choice("data", ["active-low", "active-high"]).map { $0 == "active-low" } ?? true
      oeActiveHigh = try panel.choice("oe", ["active-high", "active-low"]).map { $0 == "active-high" } ?? true
    }
    let placement = try BoardPlacement.decode(
      fields, columnRange: 1...32, rowRange: 1...16, chain: ChainOrder(start: .topRight, direction: .rows, serpentine: false))
      ?? BoardPlacement(columns: 1, rows: 1, chain: ChainOrder(start: .topRight, direction: .rows, serpentine: false))
    let (columns, rows, chain) = (placement.columns, placement.rows, placement.chain)
    var (device, speed) = ("/dev/spidev0.0", 4_000_000)
    if let spi = try fields.object("spi") {
      try spi.rejectUnknownKeys(["device", "speedHz"])
      device = try spi.string("device") ?? device
      speed = try spi.integer("speedHz", in: speedRange) ?? speed
    }
    guard let gpio = try fields.object("gpio") else { throw fields.missing("gpio") }
    try gpio.rejectUnknownKeys(["chip"] + Signal.allCases.map(\.rawValue))
    let chip = try gpio.string("chip") ?? "/dev/gpiochip0"
    var lines: [Signal: Line] = [:]
    for signal in Signal.allCases {
      guard let value = gpio.optional(signal.rawValue) else { continue }
      if case .object = value {
        let own = try JSONFields(value, path: gpio.name(signal.rawValue))
        try own.rejectUnknownKeys(["chip", "line"])
        lines[signal] = Line(chip: try own.string("chip") ?? chip, offset: try own.requiredInteger("line", in: 0...1023))
      } else {
        lines[signal] = Line(chip: chip, offset: try gpio.requiredInteger(signal.rawValue, in: 0...1023))
      }
    }
    let name = try fields.string("name") ?? "hub12"
    let refresh = try fields.integer("refreshHz", in: refreshRange) ?? 200
    let intensity = try fields.intensity(in: 0...15) ?? 15
    do throws(InvalidBoardValue) {
      return try HUB12Board(
        name: name, panelWidth: width, panelHeight: height, scan: scan, order: order, dataActiveLow: dataActiveLow,
        oeActiveHigh: oeActiveHigh, columns: columns, rows: rows, chainOrder: chain, device: device, speedHz: speed,
        lines: lines, refreshHz: refresh, intensity: intensity)
    } catch {
      throw JSONFieldError(field: error.field, reason: error.reason)
    }
  }
}

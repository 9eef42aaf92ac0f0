import SimpleJSON

extension HUB75Board {
  /// The fields a HUB75 board file may have.
  static let knownFields = [
    "schema", "name", "description", "driver", "panel", "grid", "mapping", "rowAddress", "multiplexing", "colorDepth",
    "lsbNanoseconds", "slowdown", "intensity", "brightness", "refreshHz", "lightnessCorrection", "device", "panelType", "pixelMapper", "ditherBits", "colorOrder",
  ]

  /// A panel's size when the board file leaves `panel` (or one of its members) out.
  public static let defaultPanel = (columns: 64, rows: 32)

  /// Reads a board from a parsed board file whose `driver` is `hub75`.
  static func decode(_ fields: JSONFields) throws(JSONFieldError) -> HUB75Board {
    try fields.rejectUnknownKeys(knownFields)
    var (columns, rows) = defaultPanel
    if let panel = try fields.object("panel") {
      try panel.rejectUnknownKeys(["rows", "columns"])
      rows = try panel.integer("rows", in: 8...64) ?? rows
      columns = try panel.integer("columns", in: 8...256) ?? columns
    }
    var (chainLength, parallel) = (1, 1)
    if let grid = try fields.object("grid") {
      try grid.rejectUnknownKeys(["columns", "rows"])
      chainLength = try grid.integer("columns", in: 1...32) ?? 1
      parallel = try grid.integer("rows", in: 1...3) ?? 1
    }
    let pins: HUB75PinMap
    switch fields.optional("mapping") {
    case .object?:
      pins = try ownMap(try fields.object("mapping")!)
    default:
      let name = try fields.choice("mapping", HUB75PinMap.named.map(\.name)) ?? "regular"
      pins = HUB75PinMap.named.first { $0.name == name }!
    }
    let rowAddress = try fields.choice("rowAddress", HUB75RowAddress.allCases.map(\.rawValue)).flatMap(HUB75RowAddress.init) ?? .direct
    let multiplexing = try fields.choice("multiplexing", HUB75Multiplexing.allCases.map(\.rawValue)).flatMap(HUB75Multiplexing.init) ?? .direct
    let name = try fields.string("name") ?? "hub75"
    let givenDepth = try fields.integer("colorDepth", in: 1...11)
    let ditherBits = try fields.integer("ditherBits", in: 0...2) ?? 0
    let colorOrder = try fields.choice("colorOrder", HUB75ColorOrder.allCases.map(\.rawValue)).flatMap(HUB75ColorOrder.init) ?? .rgb
    let lsbNanoseconds = try fields.integer("lsbNanoseconds", in: 50...3000) ?? 130
    let slowdown = try fields.integer("slowdown", in: 0...10) ?? 1
    let intensity = try fields.intensity(in: 0...15) ?? 15
    let refreshHz = try fields.integer("refreshHz", in: refreshRange)
    let lightnessCorrection = try fields.bool("lightnessCorrection") ?? true
    let device = try fields.string("device")
    let panelInit = try fields.choice("panelType", HUB75PanelInit.allCases.map(\.rawValue)).flatMap(HUB75PanelInit.init)
    let mapperText = try fields.string("pixelMapper")
    do throws(InvalidBoardValue) {
      let pixelMapper = try mapperText.map { text throws(InvalidBoardValue) in try HUB75PixelMapper(parsing: text) } ?? .none
      return try HUB75Board(
        name: name, panelColumns: columns, panelRows: rows, chainLength: chainLength, parallel: parallel, pins: pins,
        rowAddress: rowAddress, multiplexing: multiplexing, colorDepth: givenDepth ?? 8, lsbNanoseconds: lsbNanoseconds,
        slowdown: slowdown, intensity: intensity, refreshHz: refreshHz, lightnessCorrection: lightnessCorrection, device: device,
        panelInit: panelInit, pixelMapper: pixelMapper, depthFromContent: givenDepth == nil,
        ditherBits: ditherBits, colorOrder: colorOrder)
    } catch {
      throw JSONFieldError(field: error.field, reason: error.reason)
    }
  }

  /// A map given line by line: `r1` … `b2`, `a` … `e`, `clk`, `lat`, `oe`, and `r1_1` …
  /// `b2_2` for parallel chains (a chain's six lines all or none).
  static func ownMap(_ map: JSONFields) throws(JSONFieldError) -> HUB75PinMap {
    let colours = ["r1", "g1", "b1", "r2", "g2", "b2"]
    let chainKeys = [colours] + (1...2).map { chain in colours.map { "\($0)_\(chain)" } }
    try map.rejectUnknownKeys(chainKeys.flatMap { $0 } + ["a", "b", "c", "d", "e", "clk", "lat", "oe"])
    let gpio = { (key: String) throws(JSONFieldError) -> Int in try map.requiredInteger(key, in: HUB75PinMap.gpioRange) }
    var chains: [HUB75PinMap.Chain] = []
    for keys in chainKeys {
      guard chains.isEmpty || keys.contains(where: { map.optional($0) != nil }) else { break }
      let lines = try keys.map(gpio)
      chains.append(HUB75PinMap.Chain(r1: lines[0], g1: lines[1], b1: lines[2], r2: lines[3], g2: lines[4], b2: lines[5]))
    }
    var address = [try gpio("a")]
    for key in ["b", "c", "d", "e"] { address.append(try map.integer(key, in: HUB75PinMap.gpioRange) ?? -1) }
    return HUB75PinMap(name: "custom", oe: try gpio("oe"), clk: try gpio("clk"), lat: try gpio("lat"), address: address, chains: chains)
  }
}

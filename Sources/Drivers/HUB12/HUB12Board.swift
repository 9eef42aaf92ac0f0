/// A sign of single-colour HUB12 panels (P10 and kin): their size, scan and data order,
/// how they are chained, and which SPI device and GPIO lines drive them.
public struct HUB12Board: Sendable, Equatable {
  /// The order in which a panel's shift registers take the bits of one row group.
  public enum DataOrder: String, Sendable, CaseIterable {
    /// The Freetronics DMD order of P10 1/4-scan panels: for each 8-pixel column byte from
    /// the left, the bytes of the group's rows from the bottom one up (rows g+12, g+8, g+4,
    /// g), most significant bit the leftmost pixel.
    case dmd
    /// Row by row: the group's rows from the bottom one up, each from its leftmost pixel.
    case rows
  }

  /// A control signal of the HUB12 connector.
  public enum Signal: String, Sendable, CaseIterable {
    /// Output enable: the rows light only while it is active.
    case oe
    /// Row-group select, bits 0 to 3.
    case a, b, c, d
    /// Latch (STB, sometimes labelled SCLK on the panel): the shifted bits go to the
    /// outputs on its rising edge.
    case lat
  }

  /// A GPIO line: the chip's device node and the line's offset on it.
  public struct Line: Sendable, Hashable {
    public var chip: String
    public var offset: Int

    public init(chip: String, offset: Int) {
      self.chip = chip
      self.offset = offset
    }
  }

  /// A short name.
  public let name: String
  /// One panel's size in pixels.
  public let panelWidth: Int, panelHeight: Int
  /// Row groups: 4 for 1/4 scan, 8, 16.
  public let scan: Int
  /// The panels' data order.
  public let order: DataOrder
  /// Whether a 0 bit lights an LED (most P10 panels).
  public let dataActiveLow: Bool
  /// Whether OE high lights the rows (most P10 panels).
  public let oeActiveHigh: Bool
  /// Panels across and down.
  public let columns: Int, rows: Int
  /// How the panels are chained, from the one wired to the host.
  public let chainOrder: ChainOrder
  /// The SPI device node (MOSI to R, SCLK to CLK) and its clock.
  public let device: String
  public let speedHz: Int
  /// The GPIO line of each control signal (C and D only as the scan needs them).
  public let lines: [Signal: Line]
  /// Full refreshes a second the scanning loop aims for.
  public let refreshHz: Int
  /// The step of full brightness, 0...15: OE is on for (n + 1)/16 of each row's slot.
  public let intensity: Int

  /// The scans supported.
  public static let scans = [4, 8, 16]
  /// The refresh rates accepted.
  public static let refreshRange = 50...2000
  /// The SPI clocks accepted (74HC595-type registers take 20 MHz and more; long ribbons
  /// want less).
  public static let speedRange = 100_000...30_000_000

  /// Creates a board.
  ///
  /// - Throws: ``InvalidBoardValue`` for a panel size the scan does not divide, a `dmd`
  ///   order on anything but a 32x16 1/4-scan panel, a grid out of range, a missing or
  ///   shared control line, a clock, refresh or brightness out of range, an empty path.
  public init(
    name: String, panelWidth: Int = 32, panelHeight: Int = 16, scan: Int = 4, order: DataOrder = .dmd,
    dataActiveLow: Bool = true, oeActiveHigh: Bool = true, columns: Int = 1, rows: Int = 1,
    chainOrder: ChainOrder = ChainOrder(start: .topRight, direction: .rows, serpentine: false),
    device: String = "/dev/spidev0.0", speedHz: Int = 4_000_000, lines: [Signal: Line], refreshHz: Int = 200,
    intensity: Int = 15
  ) throws(InvalidBoardValue) {
    let check = InvalidBoardValue.check
    try check(panelWidth, 8...256, "panel.width")
    try check(panelHeight, 4...64, "panel.height")
    guard HUB12Board.scans.contains(scan) else {
      throw InvalidBoardValue(field: "panel.scan", reason: "\(scan) is not 4, 8 or 16")
    }
    guard panelWidth % 8 == 0 else { throw InvalidBoardValue(field: "panel.width", reason: "\(panelWidth) is not a multiple of 8") }
    guard panelHeight % scan == 0 else {
      throw InvalidBoardValue(field: "panel.height", reason: "\(panelHeight) rows do not split into \(scan) row groups")
    }
    if order == .dmd && (panelWidth != 32 || panelHeight != 16 || scan != 4) {
      throw InvalidBoardValue(field: "panel.order", reason: "'dmd' is the order of 32x16 1/4-scan panels; use 'rows'")
    }
    try check(columns, 1...32, "grid.columns")
    try check(rows, 1...16, "grid.rows")
    try check(speedHz, HUB12Board.speedRange, "spi.speedHz")
    try check(refreshHz, HUB12Board.refreshRange, "refreshHz")
    try check(intensity, 0...15, "intensity")
    guard !device.isEmpty else { throw InvalidBoardValue(field: "spi.device", reason: "empty path") }
    let needed: [Signal] = [.oe, .a, .b, .lat] + (scan >= 8 ? [.c] : []) + (scan >= 16 ? [.d] : [])
    for signal in needed where lines[signal] == nil {
      throw InvalidBoardValue(field: "gpio.\(signal.rawValue)", reason: "missing: a \(scan)-row-group panel needs \(needed.map(\.rawValue).joined(separator: ", "))")
    }
    var seen: [Line: Signal] = [:]
    for signal in Signal.allCases {
      guard let line = lines[signal] else { continue }
      try check(line.offset, 0...1023, "gpio.\(signal.rawValue)")
      if let other = seen[line] {
        throw InvalidBoardValue(field: "gpio.\(signal.rawValue)", reason: "line \(line.offset) of \(line.chip) is also \(other.rawValue)")
      }
      seen[line] = signal
    }
    self.name = name
    (self.panelWidth, self.panelHeight, self.scan, self.order) = (panelWidth, panelHeight, scan, order)
    (self.dataActiveLow, self.oeActiveHigh) = (dataActiveLow, oeActiveHigh)
    (self.columns, self.rows, self.chainOrder) = (columns, rows, chainOrder)
    (self.device, self.speedHz, self.lines) = (device, speedHz, lines.filter { needed.contains($0.key) })
    (self.refreshHz, self.intensity) = (refreshHz, intensity)
  }

  /// This board at another full brightness.
  public func with(intensity: Int) throws(InvalidBoardValue) -> HUB12Board {
    try HUB12Board(
      name: name, panelWidth: panelWidth, panelHeight: panelHeight, scan: scan, order: order, dataActiveLow: dataActiveLow,
      oeActiveHigh: oeActiveHigh, columns: columns, rows: rows, chainOrder: chainOrder, device: device, speedHz: speedHz,
      lines: lines, refreshHz: refreshHz, intensity: intensity)
  }

  /// The sign's size in pixels.
  public var width: Int { columns * panelWidth }
  public var height: Int { rows * panelHeight }
  /// Panels in the chain.
  public var panelCount: Int { columns * rows }
  /// Rows lit at once in each panel (one per row group).
  public var rowsPerGroup: Int { panelHeight / scan }
  /// Bits each panel takes for one row group.
  public var bitsPerPanel: Int { panelWidth * rowsPerGroup }
  /// Bytes shifted for one row group across the chain.
  public var bytesPerGroup: Int { panelCount * bitsPerPanel / 8 }

  /// The sign pixel of each panel's top-left corner, in chain order (element 0 is wired to
  /// the host, so its bits are shifted last).
  public var chain: [(x: Int, y: Int)] {
    (0..<panelCount).map { index in
      let place = chainOrder.place(index, columns: columns, rows: rows)
      return (place.column * panelWidth, place.row * panelHeight)
    }
  }

  /// How long each row group is selected, in nanoseconds.
  public var slotNanoseconds: Int { 1_000_000_000 / (refreshHz * scan) }
}

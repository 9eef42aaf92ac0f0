/// A sign of HUB75 RGB panels driven from a Raspberry Pi's GPIO registers: the panels'
/// size and scan, how they are chained, the wiring, and the refresh's colour depth and
/// timing.
///
/// The panels of one chain share a shift register: its first clocked bit ends in the
/// panel farthest from the Pi, which is column 0 of the sign (as in hzeller's library).
/// Parallel chains (each on its own six colour lines) stand one below the other.
public struct HUB75Board: Sendable, Equatable {
  /// A short name.
  public let name: String
  /// One panel's size in pixels.
  public let panelColumns: Int, panelRows: Int
  /// Panels per chain (`grid.columns`) and parallel chains (`grid.rows`).
  /// hzeller's pixel mappers from the sign's canvas to the chain's (``HUB75PixelMapper``).
  public let pixelMapper: HUB75PixelMapper
  /// The sign's size in pixels: the chain's canvas, through the pixel mappers.
  public let width: Int, height: Int
  public let chainLength: Int, parallel: Int
  /// Which GPIO carries each signal.
  public let pins: HUB75PinMap
  /// How the panels select a row pair.
  public let rowAddress: HUB75RowAddress
  /// How an outdoor panel's LEDs hang on its shift registers.
  public let multiplexing: HUB75Multiplexing
  /// Bitplanes per refresh, 1 to 11: 2^n levels of each colour.
  public let colorDepth: Int
  /// The lowest planes shown by temporal dithering, 0 to 2 (hzeller's
  /// `--led-pwm-dither-bits`): each refresh shifts `colorDepth − ditherBits` planes, and the
  /// levels' low bits are shown as one more step of the lowest plane shown in their share of
  /// 2^ditherBits refreshes. Fewer writes a refresh; the low bits flicker at the rate / 2^d.
  public let ditherBits: Int
  /// Which colour each colour input lights (hzeller's `--led-rgb-sequence`).
  public let colorOrder: HUB75ColorOrder
  /// Whether the depth is chosen from the colours shown (the board file gives none):
  /// ``fitted(to:)`` picks the fewest planes that show them.
  public let depthFromContent: Bool
  /// The time unit of the top bitplane's neighbours, as hzeller's `--led-pwm-lsb-nanoseconds`:
  /// bitplane b of n lights for this × 2^(11 − n + b) nanoseconds, so the lit time of a
  /// refresh does not change with the depth.
  public let lsbNanoseconds: Int
  /// Extra writes after each register write, for fast Pis and slow panels (hzeller's
  /// `--led-slowdown-gpio`).
  public let slowdown: Int
  /// The step of full brightness, 0...15: each pulse is lit for (n + 1)/16 of its time.
  public let intensity: Int
  /// The refresh rate the scan holds (resting between refreshes when it could go faster),
  /// or `nil` to run as fast as it can; either way it says when it falls below this (or
  /// below ``flickerFloorHz``).
  public let refreshHz: Int?
  /// Whether colour levels follow the eye's lightness (CIE 1931), as the panels' users
  /// expect; off, they are linear in the LEDs' on-time.
  public let lightnessCorrection: Bool
  /// The register device to map, or `nil` for the one the Pi's model has (`/dev/gpiomem`,
  /// `/dev/gpiomem0` on a Pi 5).
  public let device: String?
  /// The driver chips' register writes at start, for panels that stay dark without them.
  public let panelInit: HUB75PanelInit?

  /// Below this refresh rate most people see flicker (hzeller's README: 80-100 Hz).
  public static let flickerFloorHz = 100
  /// The refresh rates accepted.
  public static let refreshRange = 50...2000
  /// The row counts of the panels driven.
  public static let panelRowChoices = [8, 16, 32, 64]

  /// Creates a board.
  ///
  /// - Throws: ``InvalidBoardValue`` for a panel, chain, depth or timing out of range, a
  ///   multiplexing or row address kind that does not fit the panel, more parallel chains
  ///   than the wiring has, or a map whose lines are out of 0-27 or used twice.
  public init(
    name: String, panelColumns: Int = 64, panelRows: Int = 32, chainLength: Int = 1, parallel: Int = 1,
    pins: HUB75PinMap = .regular, rowAddress: HUB75RowAddress = .direct, multiplexing: HUB75Multiplexing = .direct,
    colorDepth: Int = 8, lsbNanoseconds: Int = 130, slowdown: Int = 1, intensity: Int = 15, refreshHz: Int? = nil,
    lightnessCorrection: Bool = true, device: String? = nil, panelInit: HUB75PanelInit? = nil, pixelMapper: HUB75PixelMapper = .none,
    depthFromContent: Bool = false, ditherBits: Int = 0, colorOrder: HUB75ColorOrder = .rgb
  ) throws(InvalidBoardValue) {
    let check = InvalidBoardValue.check
    try check(panelColumns, 8...256, "panel.columns")
    guard HUB75Board.panelRowChoices.contains(panelRows) else {
      throw InvalidBoardValue(field: "panel.rows", reason: "\(panelRows) is not 8, 16, 32 or 64")
    }
    try check(chainLength, 1...32, "grid.columns")
    try check(parallel, 1...3, "grid.rows")
    guard parallel <= pins.chains.count else {
      throw InvalidBoardValue(
        field: "grid.rows", reason: "\(parallel) parallel chains, and the '\(pins.name)' wiring has lines for \(pins.chains.count)")
    }
    try check(colorDepth, 1...11, "colorDepth")
    try check(ditherBits, 0...2, "ditherBits")
    guard ditherBits < colorDepth || depthFromContent else {
      throw InvalidBoardValue(field: "ditherBits", reason: "\(ditherBits) leaves no plane of \(colorDepth) to show: it must be below colorDepth")
    }
    try check(lsbNanoseconds, 50...3000, "lsbNanoseconds")
    try check(slowdown, 0...10, "slowdown")
    try check(intensity, 0...15, "intensity")
    if let refreshHz { try check(refreshHz, HUB75Board.refreshRange, "refreshHz") }
    if let device, device.isEmpty { throw InvalidBoardValue(field: "device", reason: "empty path") }
    if let misfit = multiplexing.misfit(columns: panelColumns, rows: panelRows) {
      throw InvalidBoardValue(field: "multiplexing", reason: "'\(multiplexing.rawValue)': \(misfit)")
    }
    let rowPairs = panelRows / multiplexing.stretch / 2
    if let misfit = rowAddress.misfit(rowPairs: rowPairs) {
      throw InvalidBoardValue(field: "rowAddress", reason: "'\(rowAddress.rawValue)': \(misfit)")
    }
    let letters = ["a", "b", "c", "d", "e"]
    for index in rowAddress.lines(rowPairs: rowPairs) where pins.address[index] < 0 {
      throw InvalidBoardValue(
        field: "mapping.\(letters[index])",
        reason: "missing: '\(rowAddress.rawValue)' addressing of \(rowPairs) row pairs needs \(rowAddress.lines(rowPairs: rowPairs).map { letters[$0].uppercased() }.joined(separator: ", "))")
    }
    var seen: [Int: String] = [:]
    for (line, gpio) in pins.namedLines(parallel: parallel) + pins.inputs.map({ ("input", $0) }) {
      guard HUB75PinMap.gpioRange.contains(gpio) else {
        throw InvalidBoardValue(field: "mapping.\(line)", reason: "GPIO \(gpio) is not on the header (0 to 27)")
      }
      if let other = seen[gpio] {
        throw InvalidBoardValue(field: "mapping.\(line)", reason: "GPIO \(gpio) is also \(other)")
      }
      seen[gpio] = line
    }
    self.name = name
    (self.panelColumns, self.panelRows, self.chainLength, self.parallel) = (panelColumns, panelRows, chainLength, parallel)
    (self.pins, self.rowAddress, self.multiplexing) = (pins, rowAddress, multiplexing)
    (self.colorDepth, self.lsbNanoseconds, self.slowdown, self.intensity) = (colorDepth, lsbNanoseconds, slowdown, intensity)
    self.depthFromContent = depthFromContent
    self.colorOrder = colorOrder
    // A depth from the content may be smaller than the dither bits asked for: fewer then.
    self.ditherBits = min(ditherBits, colorDepth - 1)
    (self.refreshHz, self.lightnessCorrection, self.device, self.panelInit) = (refreshHz, lightnessCorrection, device, panelInit)
    let chain = HUB75PixelMapper.Chain(panelColumns: panelColumns, panelRows: panelRows, length: chainLength, parallel: parallel)
    if let problem = pixelMapper.problem(for: chain) { throw InvalidBoardValue(field: "pixelMapper", reason: problem) }
    self.pixelMapper = pixelMapper
    (width, height) = pixelMapper.size(for: chain)
  }

  /// This board at another full brightness.
  public func with(intensity: Int) throws(InvalidBoardValue) -> HUB75Board {
    try copy(intensity: intensity, device: device, colorDepth: colorDepth)
  }

  /// This board with its registers mapped from another device (or file).
  public func with(device: String) throws(InvalidBoardValue) -> HUB75Board {
    try copy(intensity: intensity, device: device, colorDepth: colorDepth)
  }

  /// This board at the fewest bitplanes that show `colors` as the full depth would, when
  /// its depth comes from the content; itself otherwise.
  ///
  /// Brightness comes from the OE duty, not the levels, so a colour whose channels are each
  /// off or full (red, green, white...) needs one plane; any other takes the planes its
  /// levels need to land within half a step of 8 bits (at most ``colorDepth``).
  public func fitted(to colors: [RGBColor]) -> HUB75Board {
    guard depthFromContent else { return self }
    let depth = HUB75Board.depthNeeded(for: colors, lightness: lightnessCorrection, most: colorDepth)
    return depth == colorDepth ? self : (try? copy(intensity: intensity, device: device, colorDepth: depth)) ?? self
  }

  /// The fewest planes (1 to `most`) at which every channel of `colors` is within half an
  /// 8-bit step of its exact share of full.
  public static func depthNeeded(for colors: [RGBColor], lightness: Bool, most: Int) -> Int {
    let shares = colors.flatMap { [$0.red, $0.green, $0.blue] }.map { HUB75Encoder.share($0, lightness: lightness) }
    for depth in 1..<most {
      let top = Double((1 << depth) - 1)
      if shares.allSatisfy({ abs(($0 * top).rounded() / top - $0) <= 0.5 / 255 }) { return depth }
    }
    return most
  }

  func copy(intensity: Int, device: String?, colorDepth: Int) throws(InvalidBoardValue) -> HUB75Board {
    try HUB75Board(
      name: name, panelColumns: panelColumns, panelRows: panelRows, chainLength: chainLength, parallel: parallel, pins: pins,
      rowAddress: rowAddress, multiplexing: multiplexing, colorDepth: colorDepth, lsbNanoseconds: lsbNanoseconds,
      slowdown: slowdown, intensity: intensity, refreshHz: refreshHz, lightnessCorrection: lightnessCorrection, device: device,
      panelInit: panelInit, pixelMapper: pixelMapper, depthFromContent: depthFromContent, ditherBits: ditherBits,
      colorOrder: colorOrder)
  }

  /// The chain as the pixel mappers see it.
  public var chain: HUB75PixelMapper.Chain {
    HUB75PixelMapper.Chain(panelColumns: panelColumns, panelRows: panelRows, length: chainLength, parallel: parallel)
  }

  /// The chain's canvas: its panels side by side in chain order, parallel chains below each other.
  public var matrixWidth: Int { panelColumns * chainLength }
  public var matrixHeight: Int { panelRows * parallel }
  /// The shift register of one panel as driven (its matrix): columns and rows.
  public var matrixColumns: Int { panelColumns * multiplexing.stretch }
  public var matrixRows: Int { panelRows / multiplexing.stretch }
  /// Row pairs a refresh lights in turn (the scan: 1:16 for a plain 32-row panel).
  public var rowPairs: Int { matrixRows / 2 }
  /// Clocks per latch: the matrix columns of the whole chain.
  public var clocksPerRow: Int { matrixColumns * chainLength }

  /// Nanoseconds bitplane `plane` is lit at full brightness.
  public func pulseNanoseconds(plane: Int) -> Int { lsbNanoseconds << (11 - colorDepth + plane) }

  /// Each panel's top-left pixel, chain by chain, each chain from the panel the Pi feeds
  /// (the rightmost) to the farthest.
  public var panels: [(x: Int, y: Int)] {
    (0..<parallel).flatMap { chain in (0..<chainLength).reversed().map { (x: $0 * panelColumns, y: chain * panelRows) } }
  }
}

/// A sign of addressable RGB LEDs (WS2812, SK6812, APA102, SK9822) on an SPI bus: panels of
/// LEDs chained one after another and tiled into one picture.
public struct PixelBoard: Sendable, Equatable {
  /// The LED chip, which decides the wire format.
  public enum Chip: String, Sendable, CaseIterable {
    /// WS2812B and compatibles: one data line, 24 bits per LED, timed pulses.
    case ws2812
    /// SK6812 RGBW: as the WS2812, with a fourth (white) byte per LED.
    case sk6812RGBW = "sk6812-rgbw"
    /// APA102: data and clock, 32-bit frames with a 5-bit global brightness.
    case apa102
    /// SK9822: the APA102's clone, wanting a zero reset frame after the data.
    case sk9822

    /// Whether the chip takes a clock line (APA102 family) rather than timed pulses.
    public var isClocked: Bool { self == .apa102 || self == .sk9822 }
    /// The channel order on the wire when the board file does not say.
    public var defaultOrder: String {
      switch self {
      case .ws2812: "grb"
      case .sk6812RGBW: "grbw"
      case .apa102, .sk9822: "bgr"
      }
    }
    /// The SPI clock when the board file does not say: 2.4 MHz gives the WS2812 three SPI
    /// bits per data bit; 4 MHz suits a few hundred APA102s on short wires.
    public var defaultSpeed: Int { isClocked ? 4_000_000 : 2_400_000 }
  }

  /// One panel: a rectangle of LEDs wired in one chain.
  public struct Panel: Sendable, Equatable {
    /// LEDs across and down.
    public let width: Int, height: Int
    /// The sign pixel of the panel's top-left LED.
    public let x: Int, y: Int
    /// How the LEDs are chained through the panel.
    public let order: ChainOrder

    /// Creates a panel.
    public init(width: Int, height: Int, x: Int = 0, y: Int = 0, order: ChainOrder) {
      self.width = width
      self.height = height
      self.x = x
      self.y = y
      self.order = order
    }

    /// The sign pixel of the panel's `index`-th LED.
    public func pixel(_ index: Int) -> (x: Int, y: Int) {
      let place = order.place(index, columns: width, rows: height)
      return (x + place.column, y + place.row)
    }

    func overlaps(_ other: Panel) -> Bool {
      x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }
  }

  /// A short name.
  public let name: String
  /// The LED chip.
  public let chip: Chip
  /// The channel order on the wire: `r`, `g`, `b` (and `w` for RGBW) in the order sent.
  public let channelOrder: String
  /// The panels, in chain order (the first is wired to the host).
  public let panels: [Panel]
  /// The SPI device node.
  public let device: String
  /// The SPI clock, in hertz.
  public let speedHz: Int
  /// The step of full brightness, 0...15: the LEDs' values scale by (n+1)/16.
  public let intensity: Int
  /// The supply current the LEDs may draw, in milliamps: a frame that would draw more is
  /// dimmed to fit.
  public let maxMilliamps: Int
  /// The sign's size in pixels: the smallest rectangle holding every panel.
  public let width: Int, height: Int
  /// The number of LEDs in the chain.
  public let ledCount: Int

  /// The brightness steps.
  public static let intensityRange = 0...15
  /// The current limits accepted, in milliamps.
  public static let currentRange = 100...100_000
  /// The SPI clocks accepted.
  public static let speedRange = 100_000...32_000_000
  /// The most LEDs a board may chain (about 30 refreshes a second for WS2812s).
  public static let maximumLEDs = 4096
  /// The current limit when the board file does not give one: what a USB port gives.
  public static let defaultMilliamps = 500

  /// Creates a board.
  ///
  /// - Throws: ``InvalidBoardValue`` for no panels, panels that overlap or lie outside
  ///   0...4096, more than ``maximumLEDs`` LEDs, a channel order that is not a permutation
  ///   of the chip's channels, a clock the chip cannot be driven at, a brightness or current
  ///   limit out of range, an empty device path.
  public init(
    name: String, chip: Chip, channelOrder: String? = nil, panels: [Panel], device: String = "/dev/spidev0.0",
    speedHz: Int? = nil, intensity: Int = 3, maxMilliamps: Int = PixelBoard.defaultMilliamps
  ) throws(InvalidBoardValue) {
    guard !panels.isEmpty else { throw InvalidBoardValue(field: "panels", reason: "none given") }
    guard !device.isEmpty else { throw InvalidBoardValue(field: "spi.device", reason: "empty path") }
    try InvalidBoardValue.check(intensity, PixelBoard.intensityRange, "intensity")
    try InvalidBoardValue.check(maxMilliamps, PixelBoard.currentRange, "maxMilliamps")
    let speed = speedHz ?? chip.defaultSpeed
    try InvalidBoardValue.check(speed, PixelBoard.speedRange, "spi.speedHz")
    let order = (channelOrder ?? chip.defaultOrder).lowercased()
    let channels = chip == .sk6812RGBW ? "bgrw" : "bgr"
    guard order.sorted() == channels.sorted() else {
      throw InvalidBoardValue(
        field: "colorOrder", reason: "'\(order)' is not an order of the letters \(String(channels.sorted()))")
    }
    var right = 0, bottom = 0, count = 0
    for (index, panel) in panels.enumerated() {
      let field = "panels[\(index)]"
      try InvalidBoardValue.check(panel.width, 1...1024, field + ".width")
      try InvalidBoardValue.check(panel.height, 1...1024, field + ".height")
      try InvalidBoardValue.check(panel.x, 0...4096, field + ".x")
      try InvalidBoardValue.check(panel.y, 0...4096, field + ".y")
      for (other, placed) in panels[..<index].enumerated() where placed.overlaps(panel) {
        throw InvalidBoardValue(field: field, reason: "overlaps panels[\(other)]")
      }
      right = max(right, panel.x + panel.width)
      bottom = max(bottom, panel.y + panel.height)
      count += panel.width * panel.height
    }
    guard count <= PixelBoard.maximumLEDs else {
      throw InvalidBoardValue(field: "panels", reason: "\(count) LEDs is more than \(PixelBoard.maximumLEDs)")
    }
    guard maxMilliamps > count * PixelLevels.idleMilliamps + 50 else {
      throw InvalidBoardValue(
        field: "maxMilliamps",
        reason: "\(maxMilliamps) mA leaves too little for \(count) LEDs, which draw \(PixelLevels.idleMilliamps) mA each even when dark")
    }
    if !chip.isClocked, let problem = WS2812Timing.problem(speedHz: speed) {
      throw InvalidBoardValue(field: "spi.speedHz", reason: problem)
    }
    self.name = name
    self.chip = chip
    self.channelOrder = order
    self.panels = panels
    self.device = device
    self.speedHz = speed
    self.intensity = intensity
    self.maxMilliamps = maxMilliamps
    (width, height, ledCount) = (right, bottom, count)
  }

  /// This board at another full brightness (fades dim below it).
  ///
  /// - Throws: ``InvalidBoardValue`` for a brightness outside ``intensityRange``.
  public func with(intensity: Int) throws(InvalidBoardValue) -> PixelBoard {
    try PixelBoard(
      name: name, chip: chip, channelOrder: channelOrder, panels: panels, device: device, speedHz: speedHz,
      intensity: intensity, maxMilliamps: maxMilliamps)
  }

  /// The sign pixel of every LED, in chain order.
  public var ledPixels: [(x: Int, y: Int)] {
    panels.flatMap { panel in (0..<panel.width * panel.height).map(panel.pixel) }
  }

  /// Bytes per LED on the wire, before any line coding.
  public var bytesPerLED: Int { channelOrder.count }
}

import MatrixCore

/// A chain of WS2812, SK6812, APA102 or SK9822 LEDs as a ``Display``: frames are encoded
/// for the board and sent through an SPI transport (spidev, a dump file, a recorder).
///
/// The chain is darkened when the display is created (the LEDs power up showing whatever
/// they like) and again on shutdown, unless the last frame is to be kept.
public typealias PixelDisplay<Transport: SPITransport> = EncodedDisplay<PixelEncoder, Transport>

extension EncodedDisplay where Encoder == PixelEncoder {
  /// Prepares the chain of `board`, lit pixels in `color` (or their region's), and darkens it.
  public init(
    board: PixelBoard, color: RGBColor, regions: [ColorRegion] = [], transport: Transport, keepLastFrame: Bool = false
  ) throws {
    try self.init(
      encoder: PixelEncoder(board: board, color: color, regions: regions), transport: transport, keepLastFrame: keepLastFrame)
  }
}

/// A pixel board's LEDs (``ChipEmulation``): the WS2812B waveform decoder or the APA102
/// frame reader, by the board's chip.
public struct PixelBoardEmulator: BoardEmulator {
  /// The WS2812 chain, for boards of pulse-timed LEDs.
  public private(set) var pulses: WS2812Emulator?
  /// The APA102 chain, for boards of clocked LEDs.
  public private(set) var clocked: APA102Emulator?
  let board: PixelBoard
  let pixels: [(x: Int, y: Int)]

  /// The dark LEDs of `board`.
  public init(board: PixelBoard) {
    self.board = board
    pixels = board.ledPixels
    if board.chip.isClocked {
      clocked = APA102Emulator(ledCount: board.ledCount)
    } else {
      pulses = WS2812Emulator(ledCount: board.ledCount, bytesPerLED: board.bytesPerLED)
    }
  }

  public var width: Int { board.width }
  public var height: Int { board.height }

  public mutating func receive(_ batch: SPITransactions) {
    for index in 0..<batch.count {
      pulses?.receive(batch.transaction(index), speedHz: board.speedHz)
      clocked?.receive(batch.transaction(index))
    }
  }

  /// The level (0...1) LED `index` shows: its brightest channel, times the APA102's global
  /// brightness.
  public func level(ofLED index: Int) -> Double {
    if let pulses { return Double(pulses.led(index).max() ?? 0) / 255 }
    let led = clocked!.leds[index]
    return Double(max(led.bytes.0, led.bytes.1, led.bytes.2)) / 255 * Double(led.global) / 31
  }

  public func draw(into seen: inout Frame) {
    seen.pixels.clear()
    var brightest = 0.0
    for (index, pixel) in pixels.enumerated() {
      let level = level(ofLED: index)
      if level > 0 { seen.pixels[pixel.x, pixel.y] = true }
      brightest = max(brightest, level)
    }
    // The simulator's dots dim as the LEDs do (the board's brightness, fades, the limit).
    seen.brightness = brightest
  }
}

/// A pixel board's encoder feeding its LED emulator (``EmulatedDisplay``).
public typealias PixelEmulation = ChipEmulation<PixelEncoder, PixelBoardEmulator>

extension ChipEmulation where Encoder == PixelEncoder, Emulator == PixelBoardEmulator {
  /// Starts the emulated chain of `board`, darkened as the real display does.
  public init(board: PixelBoard, color: RGBColor, regions: [ColorRegion] = []) {
    self.init(encoder: PixelEncoder(board: board, color: color, regions: regions), emulator: PixelBoardEmulator(board: board))
  }
}

import MatrixCore

/// A chain of WS2812, SK6812, APA102 or SK9822 LEDs as a ``Display``: frames are encoded
/// for the board and sent through an SPI transport (spidev, a dump file, a recorder).
///
/// The chain is darkened when the display is created (the LEDs power up showing whatever
/// they like); ``shutdown()`` darkens it again, unless the last frame is to be kept.
public struct PixelDisplay<Transport: SPITransport>: Display {
  public var width: Int { encoder.board.width }
  public var height: Int { encoder.board.height }
  public var wantsEveryFrame: Bool { false }
  /// The encoder, with the current estimate of the last frame.
  public private(set) var encoder: PixelEncoder
  /// Where the bytes go.
  public private(set) var transport: Transport
  /// Whether ``shutdown()`` leaves the last frame lit.
  public var keepLastFrame: Bool
  /// When set, a failing device is reopened with growing pauses instead of ending the run.
  public var retry: RetryPolicy?
  var pending = SPITransactions()
  /// A copy of the last frame shown, sent again after a recovery.
  var lastFrame: Frame

  /// Prepares the chain, lit pixels in `color` (or their region's), and darkens it.
  public init(
    board: PixelBoard, color: RGBColor, regions: [ColorRegion] = [], transport: Transport, keepLastFrame: Bool = false
  ) throws {
    encoder = PixelEncoder(board: board, color: color, regions: regions)
    lastFrame = Frame(width: board.width, height: board.height)
    self.transport = transport
    self.keepLastFrame = keepLastFrame
    encoder.encodeDark(into: &pending)
    try flush()
  }

  mutating func flush() throws {
    defer { pending.removeAll() }
    try transport.send(pending)
  }

  public mutating func show(_ frame: Frame, changed: Bool) throws {
    guard changed else { return }
    lastFrame.pixels.assign(frame.pixels)
    lastFrame.brightness = frame.brightness
    encoder.encode(frame, into: &pending)
    do {
      try flush()
    } catch {
      guard let retry else { throw error }
      // Every frame holds the whole chain: the frame again, once the device is back.
      try retry.recover(from: error) {
        pending.removeAll()
        try transport.reopen()
        encoder.encode(lastFrame, into: &pending)
        try flush()
      }
    }
  }

  public mutating func shutdown() throws {
    pending.removeAll()
    guard !keepLastFrame else { return }
    encoder.encodeDark(into: &pending)
    try flush()
  }
}

/// A pixel board's encoder feeding its LED emulator (``EmulatedDisplay``): the WS2812
/// waveform decoder or the APA102 frame reader.
public struct PixelEmulation: SignEmulation {
  /// The WS2812 chain, for boards of pulse-timed LEDs.
  public private(set) var pulses: WS2812Emulator?
  /// The APA102 chain, for boards of clocked LEDs.
  public private(set) var clocked: APA102Emulator?
  var encoder: PixelEncoder
  var pending = SPITransactions()
  let board: PixelBoard
  let pixels: [(x: Int, y: Int)]

  /// Starts the emulated chain, darkened as the real display does.
  public init(board: PixelBoard, color: RGBColor, regions: [ColorRegion] = []) {
    self.board = board
    pixels = board.ledPixels
    encoder = PixelEncoder(board: board, color: color, regions: regions)
    if board.chip.isClocked {
      clocked = APA102Emulator(ledCount: board.ledCount)
    } else {
      pulses = WS2812Emulator(ledCount: board.ledCount, bytesPerLED: board.bytesPerLED)
    }
    encoder.encodeDark(into: &pending)
    feed()
  }

  public var width: Int { board.width }
  public var height: Int { board.height }

  mutating func feed() {
    for index in 0..<pending.count {
      pulses?.receive(pending.transaction(index), speedHz: board.speedHz)
      clocked?.receive(pending.transaction(index))
    }
    pending.removeAll()
  }

  /// The level (0...1) LED `index` shows: its brightest channel, times the APA102's global
  /// brightness.
  public func level(ofLED index: Int) -> Double {
    if let pulses { return Double(pulses.led(index).max() ?? 0) / 255 }
    let led = clocked!.leds[index]
    return Double(max(led.bytes.0, led.bytes.1, led.bytes.2)) / 255 * Double(led.global) / 31
  }

  public mutating func show(_ frame: Frame, into seen: inout Frame) {
    encoder.encode(frame, into: &pending)
    feed()
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

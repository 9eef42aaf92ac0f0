#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Drivers
import Marquee
import MatrixCore

/// The real sign a board file describes, or its byte stream in a file: each chip family's
/// display on its transport.
enum BoardDisplays {
  /// Plays `timeline` on the board's hardware (or `--spi-dump`/`--i2c-dump` file) until the
  /// frame limit or a signal, leaving it blank (or lit with `--keep`).
  static func play(_ timeline: any Timeline, on board: SignBoard, options: RunOptions, stop: StopFlag) throws {
    switch board {
    case .max7219(let board):
      if let dump = options.spiDump {
        var display = try MAX7219Display(
          board: board, transport: try DumpTransport(path: dump), keepLastFrame: options.keepLastFrame)
        try MarqueeCommand.play(timeline, on: &display, options: options, stop: stop)
      } else {
        var display = try MAX7219Display(
          board: board, transport: try SpidevTransport(path: board.device, speedHz: board.speedHz),
          keepLastFrame: options.keepLastFrame)
        if options.retry { display.retry = MarqueeCommand.retryPolicy(stop: stop) }
        try MarqueeCommand.play(timeline, on: &display, options: options, stop: stop)
      }
    case .ht16k33(let board):
      if let dump = options.i2cDump {
        var display = try HT16K33Display(
          board: board, transport: try I2CDumpTransport(path: dump), keepLastFrame: options.keepLastFrame)
        try MarqueeCommand.play(timeline, on: &display, options: options, stop: stop)
      } else {
        var display = try HT16K33Display(
          board: board, transport: try I2CDevTransport(path: board.bus), keepLastFrame: options.keepLastFrame)
        if options.retry { display.retry = MarqueeCommand.retryPolicy(stop: stop) }
        try MarqueeCommand.play(timeline, on: &display, options: options, stop: stop)
      }
    case .pixels(let board):
      let color = LEDColor.rgb(options.ledColor)
      if let dump = options.spiDump {
        var display = try PixelDisplay(
          board: board, color: color, regions: options.colorRegions, transport: try DumpTransport(path: dump),
          keepLastFrame: options.keepLastFrame)
        try MarqueeCommand.play(timeline, on: &display, options: options, stop: stop)
      } else {
        let transport = try SpidevTransport(path: board.device, speedHz: board.speedHz)
        try check(transport, drives: board)
        var display = try PixelDisplay(
          board: board, color: color, regions: options.colorRegions, transport: transport,
          keepLastFrame: options.keepLastFrame)
        if options.retry { display.retry = MarqueeCommand.retryPolicy(stop: stop) }
        try MarqueeCommand.play(timeline, on: &display, options: options, stop: stop)
      }
    }
  }

  /// A WS2812's bits are timed by the SPI clock: a driver that gave another clock than the
  /// board's must still keep the pulses inside the windows, or nothing is sent.
  static func check(_ transport: SpidevTransport, drives board: PixelBoard) throws {
    guard !board.chip.isClocked, let timing = WS2812Timing(speedHz: board.speedHz),
      !timing.holds(atSpeedHz: Int(transport.speedHz))
    else { return }
    let speeds = timing.workingSpeeds
    throw RuntimeError(
      "\(transport.path): the SPI driver set the clock to \(transport.speedHz) Hz, and the board's coding "
        + "(\(timing.bitsPerBit) SPI bits per LED bit, for \(board.speedHz) Hz) works from \(speeds.lowerBound) to "
        + "\(speeds.upperBound) Hz only; set 'spi.speedHz' to a clock this controller gives")
  }
}

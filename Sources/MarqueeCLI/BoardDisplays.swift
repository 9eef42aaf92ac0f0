import Platform
import Drivers
import Marquee
import MatrixCore
import SignService

/// The real sign a board file describes, or its byte stream in a file: each chip family's
/// display on its transport.
enum BoardDisplays {
  /// Plays `timeline` on the board's hardware (or `--spi-dump`/`--i2c-dump` file) until the
  /// frame limit or a signal, leaving it blank (or lit with `--keep`).
  static func play(_ timeline: any Timeline, on board: SignBoard, options: RunOptions, stop: StopFlag, tap: FrameTap?) throws {
    // The family's encoder on its transport; `--retry` is refused with a dump file already.
    func drive<E: FrameEncoder, T: BatchTransport>(_ encoder: E, _ transport: T) throws where T.Batch == E.Batch {
      var display = try EncodedDisplay(encoder: encoder, transport: transport, keepLastFrame: options.keepLastFrame)
      if options.retry { display.retry = MarqueeCommand.retryPolicy(stop: stop) }
      try MarqueeCommand.play(timeline, on: &display, options: options, stop: stop, tap: tap)
    }
    switch board {
    case .max7219(let board):
      let encoder = MAX7219Encoder(board: board)
      if let dump = options.spiDump {
        try drive(encoder, try DumpTransport(path: dump))
      } else {
        try drive(encoder, try SpidevTransport(path: board.device, speedHz: board.speedHz))
      }
    case .ht16k33(let board):
      let encoder = HT16K33Encoder(board: board)
      if let dump = options.i2cDump {
        try drive(encoder, try I2CDumpTransport(path: dump))
      } else {
        try drive(encoder, try I2CDevTransport(path: board.bus))
      }
    case .hub12(let board):
      try playHUB12(timeline, on: board, options: options, stop: stop, tap: tap)
    case .pixels(let board):
      let encoder = PixelEncoder(board: board, color: LEDColor.rgb(options.ledColor), regions: options.colorRegions)
      if let dump = options.spiDump {
        try drive(encoder, try DumpTransport(path: dump))
      } else {
        let transport = try SpidevTransport(path: board.device, speedHz: board.speedHz)
        try check(transport, drives: board)
        try drive(encoder, transport)
      }
    }
  }

  /// A HUB12 sign: the scanning loop on its own thread (a failure there ends the run), or
  /// each frame's scan cycle in a file. A warning says when the loop cannot have real-time
  /// priority; `MARQUEE_SCAN_REPORT=FILE` writes the loop's figures there at the end (for
  /// marquee-bench).
  static func playHUB12(
    _ timeline: any Timeline, on board: HUB12Board, options: RunOptions, stop: StopFlag, tap: FrameTap?
  ) throws {
    if options.keepLastFrame {
      throw UsageError("'--keep': HUB12 panels hold nothing and go dark when the scanning stops, so the last frame cannot stay lit.")
    }
    if options.retry {
      throw UsageError("'--retry': a HUB12 sign is scanned continuously; its devices are not reopened. Run marquee under systemd with Restart=always instead.")
    }
    if let dump = options.spiDump {
      var display = try EncodedDisplay(encoder: HUB12Encoder(board: board), transport: try HUB12DumpTransport(path: dump))
      try MarqueeCommand.play(timeline, on: &display, options: options, stop: stop, tap: tap)
      return
    }
    var display = try HUB12Display(board: board, onFailure: { stop.set() })
    if display.transport.realTimeError != 0 {
      printError(
        "Warning: the HUB12 scanning loop runs without real-time priority (SCHED_FIFO: \(String(cString: strerror(display.transport.realTimeError)))): "
          + "the panels may flicker when the machine is busy. Run as root, give the binary CAP_SYS_NICE (setcap cap_sys_nice+ep), or set LimitRTPRIO=10 in the service's unit.")
    }
    defer {
      if let path = getenv("MARQUEE_SCAN_REPORT").map({ String(cString: $0) }) {
        let figures = display.transport.statistics
        let line = "refresh_hz=\(figures.refreshHz) slots=\(figures.slots) cpu_share=\(figures.cpuShare) late_p50_us=\(figures.lateP50) "
          + "late_p99_us=\(figures.lateP99) late_max_us=\(figures.lateMax) overruns=\(figures.overruns) real_time=\(figures.realTime) "
          + "slot_us=\(figures.slotMicroseconds)\n"
        try? writeAll(Array(line.utf8), to: StopSignal.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644), what: path)
      }
    }
    try MarqueeCommand.play(timeline, on: &display, options: options, stop: stop, tap: tap)
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

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
  static func play(_ timeline: any Timeline, on board: SignBoard, options: RunOptions, stop: StopFlag, tap: SignLights?) throws {
    let settings = self.settings(for: board, options: options, stop: stop, tap: tap)
    if let refusal = board.family.refusal(settings) { throw UsageError(refusal) }
    var player = Playing(timeline: timeline, options: options, stop: stop, tap: tap)
    do {
      try board.family.drive(settings, &player)
    } catch let error as BoardDriveError {
      throw SignFailure(error.description)
    }
  }

  /// Plays `timeline` through the board's emulated chips, shown on `screen`.
  static func play<S: Display>(_ timeline: any Timeline, emulating board: SignBoard, on screen: S, options: RunOptions, stop: StopFlag, tap: SignLights?) throws {
    var player = Playing(timeline: timeline, options: options, stop: stop, tap: tap)
    try board.family.emulate(on: screen, settings(for: board, options: options, stop: stop, tap: tap), &player)
  }

  /// What the options ask of the board's display.
  /// With `tap`, a display's own thread is watched with the frame loop (systemd's watchdog).
  static func settings(for board: SignBoard, options: RunOptions, stop: StopFlag, tap: SignLights? = nil) -> BoardSettings {
    var settings = BoardSettings(
      dumpPath: options.dumps.first { $0.bus == board.family.dataBus }?.path, keepLastFrame: options.keepLastFrame,
      retry: options.retry ? MarqueeCommand.retryPolicy(stop: stop) : nil, color: (LEDColor(options.zone.ledColor) ?? .red).rgb,
      regions: options.colorRegions, warn: { printError("Warning: \($0)") }, onFailure: { stop.set() })
    if let tap { settings.watch = { tap.heartbeat.watch($0) } }
    // A scanning loop's figures, for marquee-bench (MARQUEE_SCAN_REPORT=FILE).
    if let path = Environment.value("MARQUEE_SCAN_REPORT") {
      settings.report = { line in
        guard let report = try? FileDescriptor(creating: path, operation: "write the scan report") else { return }
        try? writeAll(Array((line + "\n").utf8), to: report.raw, what: path)
      }
    }
    return settings
  }

  /// The frame loop, run on whatever display the family makes.
  struct Playing: DisplayVisitor {
    let timeline: any Timeline
    let options: RunOptions
    let stop: StopFlag
    let tap: SignLights?

    mutating func visit<D: Display>(_ display: inout D) throws {
      try MarqueeCommand.play(timeline, on: &display, options: options, stop: stop, tap: tap)
    }
  }
}

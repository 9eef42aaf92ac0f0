import MatrixCore
import Platform
import SimpleJSON

/// HUB75 RGB panels on a Raspberry Pi's GPIO registers, refreshed continuously
/// (`"driver": "hub75"`).
extension HUB75Board: BoardFamily {
  public static let drivers = ["hub75"]

  public static func decode(_ fields: JSONFields, driver: String, notices: inout [String]) throws(JSONFieldError) -> HUB75Board {
    try decode(fields)
  }

  public var kind: String { "hub75/\(panelColumns)x\(panelRows)-1:\(rowPairs)" + (multiplexing == .direct ? "" : "-\(multiplexing.rawValue)") }
  public var devices: [String] { [device ?? "/dev/gpiomem"] }
  public var unitName: String { "panel" }
  public var units: [SignBoard.Unit] { panels.map { SignBoard.Unit(x: $0.x, y: $0.y, width: panelColumns, height: panelRows) } }
  public var dataBus: BoardBus { .gpio }

  public func refusal(_ settings: BoardSettings) -> String? {
    if settings.keepLastFrame {
      return "'--keep': HUB75 panels hold nothing and go dark when the refresh stops, so the last frame cannot stay lit."
    }
    if settings.retry != nil {
      return "'--retry': a HUB75 sign is refreshed continuously from mapped registers; nothing is reopened. Run marquee under systemd with Restart=always instead."
    }
    return nil
  }

  /// The refresh loop on its own thread, or each lit frame's refresh in the dump file. A
  /// warning says when the loop cannot have real-time priority, and when its refresh rate
  /// falls short; the loop's figures go to `settings.report` at the end (the front end says where:
  /// marquee-bench asks for them).
  public func drive(_ settings: BoardSettings, _ visitor: inout some DisplayVisitor) throws {
    let encoder = HUB75Encoder(board: self, color: settings.color, regions: settings.regions)
    if let dump = settings.dumpPath {
      var display = try EncodedDisplay(encoder: encoder, transport: try HUB75DumpTransport(path: dump, board: self))
      try visitor.visit(&display)
      return
    }
    let pi: RaspberryPi
    do { pi = try RaspberryPi.detect() } catch { throw BoardDriveError(error.description) }
    let scanner: HUB75Scanner
    do {
      scanner = try HUB75Scanner(board: self, pi: pi, warn: settings.warn)
    } catch let error as GPIORegisterError {
      throw BoardDriveError(error.description)
    }
    settings.watch(scanner.heartbeat)
    if scanner.realTimeError != 0 {
      settings.warn(realTimeWarning("the HUB75 refresh loop", scanner.realTimeError))
    }
    defer {
      let figures = scanner.statistics
      settings.report(
        "refresh_hz=\(figures.refreshHz) refreshes=\(figures.refreshes) cpu_share=\(figures.cpuShare) pulse_late_p50_us=\(figures.pulseLateP50) "
          + "pulse_late_p99_us=\(figures.pulseLateP99) pulse_late_max_us=\(figures.pulseLateMax) writes_per_refresh=\(figures.writesPerRefresh) "
          + "pulses_per_refresh=\(figures.pulsesPerRefresh) real_time=\(figures.realTime)")
    }
    var display: EncodedDisplay<HUB75Encoder, HUB75Scanner>
    do {
      display = try EncodedDisplay(encoder: encoder, transport: scanner)
    } catch {
      try? scanner.finish()
      throw error
    }
    try visitor.visit(&display)
  }

  public func emulate<Screen: Display>(on screen: Screen, _ settings: BoardSettings, _ visitor: inout some DisplayVisitor) throws {
    try show(HUB75Emulation(board: self, color: settings.color, regions: settings.regions), on: screen, &visitor)
  }
}

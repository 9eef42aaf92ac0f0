import MatrixCore
import Platform
import SimpleJSON

/// Single-colour HUB12 panels over SPI and GPIO, scanned continuously (`"driver": "hub12"`).
extension HUB12Board: BoardFamily {
  public static let drivers = ["hub12"]

  public static func decode(_ fields: JSONFields, driver: String, notices: inout [String]) throws(JSONFieldError) -> HUB12Board {
    try decode(fields)
  }

  public var kind: String { "hub12/1:\(scan)-\(order.rawValue)" }
  public var devices: [String] {
    var nodes = [device]
    for chip in lines.values.map(\.chip).sorted() where !nodes.contains(chip) { nodes.append(chip) }
    return nodes
  }
  public var unitName: String { "panel" }
  public var units: [SignBoard.Unit] { chain.map { SignBoard.Unit(x: $0.x, y: $0.y, width: panelWidth, height: panelHeight) } }
  public var dataBus: BoardBus { .spi }

  public func refusal(_ settings: BoardSettings) -> String? {
    if settings.keepLastFrame {
      return "'--keep': HUB12 panels hold nothing and go dark when the scanning stops, so the last frame cannot stay lit."
    }
    if settings.retry != nil {
      return "'--retry': a HUB12 sign is scanned continuously; its devices are not reopened. Run marquee under systemd with Restart=always instead."
    }
    return nil
  }

  /// The scanning loop on its own thread (a failure there calls `settings.onFailure`), or
  /// each frame's scan cycle in the dump file. A warning says when the loop cannot have
  /// real-time priority; the loop's figures go to `settings.report`
  /// at the end.
  public func drive(_ settings: BoardSettings, _ visitor: inout some DisplayVisitor) throws {
    if let dump = settings.dumpPath {
      var display = try EncodedDisplay(encoder: HUB12Encoder(board: self), transport: try HUB12DumpTransport(path: dump))
      try visitor.visit(&display)
      return
    }
    var display = try HUB12Display(board: self, onFailure: settings.onFailure)
    settings.watch(display.transport.heartbeat)
    if display.transport.realTimeError != 0 {
      settings.warn(realTimeWarning("the HUB12 scanning loop", display.transport.realTimeError))
    }
    defer {
      let figures = display.transport.statistics
      settings.report(
        "refresh_hz=\(figures.refreshHz) slots=\(figures.slots) cpu_share=\(figures.cpuShare) late_p50_us=\(figures.lateP50) "
          + "late_p99_us=\(figures.lateP99) late_max_us=\(figures.lateMax) overruns=\(figures.overruns) real_time=\(figures.realTime) "
          + "slot_us=\(figures.slotMicroseconds)")
    }
    try visitor.visit(&display)
  }

  public func emulate<Screen: Display>(on screen: Screen, _ settings: BoardSettings, _ visitor: inout some DisplayVisitor) throws {
    try show(HUB12Emulation(board: self), on: screen, &visitor)
  }
}

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
  /// The panels in data order, each where the pixel mappers put it on the sign: the box its
  /// pixels fill and the sign pixel of its first LED (the panel's own top-left corner as
  /// wired), which shows how it is turned.
  public var units: [SignBoard.Unit] {
    let count = chainLength * parallel
    var boxes = [(left: Int, top: Int, right: Int, bottom: Int)](repeating: (Int.max, Int.max, -1, -1), count: count)
    var first = [(x: Int, y: Int)?](repeating: nil, count: count)
    for link in pixelMapper.links(for: chain) {
      let (x, y) = (Int(link.visible) % width, Int(link.visible) / width)
      let (column, row) = (Int(link.matrix) % matrixWidth, Int(link.matrix) / matrixWidth)
      let panel = (row / panelRows) * chainLength + column / panelColumns
      let box = boxes[panel]
      boxes[panel] = (min(box.left, x), min(box.top, y), max(box.right, x), max(box.bottom, y))
      if column % panelColumns == 0 && row % panelRows == 0 { first[panel] = (x, y) }
    }
    // A panel a Remap leaves off the sign has no place on it.
    return panels.map { place in
      let panel = (place.y / panelRows) * chainLength + place.x / panelColumns
      let box = boxes[panel]
      guard box.right >= 0 else { return SignBoard.Unit(x: 0, y: 0, width: 0, height: 0, firstLED: nil) }
      return SignBoard.Unit(
        x: box.left, y: box.top, width: box.right - box.left + 1, height: box.bottom - box.top + 1, firstLED: first[panel])
    }
  }
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
    let board = fitted(to: settings)
    let encoder = HUB75Encoder(board: board, color: settings.color, regions: settings.regions)
    if let dump = settings.dumpPath {
      var display = try EncodedDisplay(encoder: encoder, transport: try HUB75DumpTransport(path: dump, board: board))
      try visitor.visit(&display)
      return
    }
    let pi: RaspberryPi
    do { pi = try RaspberryPi.detect() } catch { throw BoardDriveError(error.description) }
    let scanner: HUB75Scanner
    do {
      scanner = try HUB75Scanner(board: board, pi: pi, warn: settings.warn)
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
    try show(HUB75Emulation(board: fitted(to: settings), color: settings.color, regions: settings.regions), on: screen, &visitor)
  }

  /// This board at the depth the run's colours need (``fitted(to:)``).
  func fitted(to settings: BoardSettings) -> HUB75Board {
    fitted(to: [settings.color] + settings.regions.map(\.color))
  }
}

import Drivers
import MatrixCore

/// marquee's HUB75 refresh against hzeller's rpi-rgb-led-matrix, for the same picture (a
/// third of the LEDs lit in amber) on a 64x32 panel and on two 64x64 chained: the register
/// writes per clock (counted here for marquee; 3.08 for hzeller, recorded from traces of his
/// frame code at 64x32, as issue 53 gives it), and the refresh rate each would reach on a
/// Pi 4 and a Pi 5, at each program's default settings and at equal ones.
///
/// The rates are computed, not measured on a Pi: writes at the GPIO write rates Docs/hardware.md
/// takes (64 million a second on a Pi 4 class BCM2711, 40 million on a Pi 5's RIO), lit time
/// from the pulse lengths, and each program's way of timing: both shift the next plane while
/// a pulse is lit (marquee on the CPU, hzeller's hardware pulser with the PWM block), so each
/// plane takes the longer of its shifting and its pulse; marquee then rests a sixteenth of the
/// refresh.
struct HUB75Comparison {
  static let hzellerWritesPerClock = 3.08
  static let pis: [(name: String, writesPerSecond: Double)] = [("pi4", 64e6), ("pi5", 40e6)]

  /// The settings a comparison runs at: bitplanes, the lowest plane's time, extra writes.
  struct Settings {
    var name: String
    var ours: (depth: Int?, lsb: Int, slowdown: Int)
    var hzeller: (bits: Int, lsb: Int, slowdown: Int)
  }

  static let settings = [
    // Each program's defaults: marquee's depth from the colour (amber: 7 planes), hzeller's 11.
    Settings(name: "defaults", ours: (nil, 130, 1), hzeller: (11, 130, 1)),
    Settings(name: "equal", ours: (8, 130, 1), hzeller: (8, 130, 1)),
  ]

  func run() {
    for (name, columns, rows, chain) in [("64x32", 64, 32, 1), ("128x64", 64, 64, 2)] {
      for setting in HUB75Comparison.settings {
        var line = ResultLine(scenario: "hub75-vs-hzeller-\(name)-\(setting.name)", width: columns * chain, height: rows)
        do {
          try measure(columns: columns, rows: rows, chain: chain, setting: setting, into: &line)
        } catch {
          line.add("error", "\(error)")
        }
        line.print()
      }
    }
  }

  func measure(columns: Int, rows: Int, chain: Int, setting: Settings, into line: inout ResultLine) throws {
    let fileBoard = try HUB75Board(
      name: "compare", panelColumns: columns, panelRows: rows, chainLength: chain, colorDepth: setting.ours.depth ?? 8,
      lsbNanoseconds: setting.ours.lsb, slowdown: setting.ours.slowdown, depthFromContent: setting.ours.depth == nil)
    let amber = LEDColor.amber.rgb
    let board = fileBoard.fitted(to: [amber])
    var encoder = HUB75Encoder(board: board, color: amber)
    var program = HUB75Program()
    let frame = Frame(pixels: .textLikeStripes(width: board.width, height: board.height))
    encoder.encode(frame, into: &program)
    let pulses = program.steps.filter { if case .pulse = $0 { true } else { false } }.count
    let registerWrites = program.words.count - pulses
    let clocks = board.rowPairs * board.colorDepth * board.clocksPerRow
    let oursPerClock = Double(registerWrites) / Double(clocks)
    line.add("ours_depth", board.colorDepth)
    line.add("ours_writes_per_clock", oursPerClock)
    line.add("hzeller_writes_per_clock", HUB75Comparison.hzellerWritesPerClock)
    line.add("writes_ratio", oursPerClock / HUB75Comparison.hzellerWritesPerClock)
    for pi in HUB75Comparison.pis {
      let ours = HUB75Comparison.refreshSeconds(
        board, registerWrites: registerWrites, pulses: pulses, slowdown: setting.ours.slowdown, writesPerSecond: pi.writesPerSecond)
      // hzeller: each plane b (11 − bits ... 10) of each row pair takes the longer of its
      // shifting and the previous plane's pulse, lsb × 2^b.
      let (bits, lsb, slowdown) = setting.hzeller
      let shift = HUB75Comparison.hzellerWritesPerClock * Double(board.clocksPerRow * (1 + slowdown)) / pi.writesPerSecond
      var hzeller = 0.0
      for plane in (11 - bits)...10 { hzeller += max(shift, Double(lsb << plane) / 1e9) }
      hzeller *= Double(board.rowPairs)
      line.add("\(pi.name)_ours_hz", 1 / ours, decimals: 0)
      line.add("\(pi.name)_hzeller_hz", 1 / hzeller, decimals: 0)
    }
  }

  /// marquee's refresh on a Pi writing `writesPerSecond`: each plane the longer of its share
  /// of the register writes (the slowdown's copies too) and its pulse, both OE edges of each
  /// pulse, then the sixteenth of rest.
  static func refreshSeconds(_ board: HUB75Board, registerWrites: Int, pulses: Int, slowdown: Int, writesPerSecond: Double) -> Double {
    let planeWrites = Double(registerWrites * (1 + slowdown)) / Double(board.rowPairs * board.colorDepth)
    var seconds = Double(2 * pulses) / writesPerSecond
    for plane in 0..<board.colorDepth {
      seconds += Double(board.rowPairs) * max(planeWrites / writesPerSecond, Double(board.pulseNanoseconds(plane: plane)) / 1e9)
    }
    return seconds * 17 / 16
  }
}

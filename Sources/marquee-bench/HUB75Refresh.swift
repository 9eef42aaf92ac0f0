import Foundation
import Drivers
import MatrixCore
import Platform

/// The HUB75 refresh loop, in this process, on registers mapped from a memory file (as the
/// fake kernel serves `/dev/gpiomem`): for 64x32 and 128x64 signs at colour depths 1, 4
/// and 8, the time to encode a frame into its refresh program, the refresh rate reached, its
/// CPU share of one core, the register writes a
/// refresh takes against the least the protocol needs, and how much longer than asked the
/// output-enable pulses stayed lit (p50, p99, max).
///
/// The least the protocol needs, per refresh: two clock edges per column shifted, two latch
/// edges and two output-enable edges per row pair and bitplane, and one address change per
/// row pair. Stores to a memory file cost what a store to RAM costs; a Pi's GPIO block
/// takes longer (Docs/hardware.md turns the writes per refresh into a Pi's refresh rate).
struct HUB75Refresh {
  let seconds = 2.0

  func run() {
    let signs: [(name: String, columns: Int, rows: Int, chain: Int)] = [("64x32", 64, 32, 1), ("128x64", 64, 64, 2)]
    for sign in signs {
      for depth in [1, 4, 8] {
        measure(sign.name, columns: sign.columns, rows: sign.rows, chain: sign.chain, depth: depth)
      }
    }
    // The same pictures against hzeller's library: writes per clock and the rates on a Pi.
    HUB75Comparison().run()
  }

  func measure(_ name: String, columns: Int, rows: Int, chain: Int, depth: Int) {
    let path = "/tmp/marquee-bench-gpiomem-\(getpid())"
    defer { unlink(path) }
    guard let file = fopen(path, "w") else { return }
    fwrite([UInt8](repeating: 0, count: 4096), 1, 4096, file)
    fclose(file)
    let pi = RaspberryPi(model: "Raspberry Pi 4 (a memory file)", chip: .bcm2711, peripheralBase: 0xFE00_0000)
    var line = ResultLine(scenario: "hub75-\(name)-depth\(depth)", width: columns * chain, height: rows)
    do {
      let board = try HUB75Board(
        name: name, panelColumns: columns, panelRows: rows, chainLength: chain, colorDepth: depth, slowdown: 0, device: path)
      var encoder = HUB75Encoder(board: board, color: LEDColor.amber.rgb)
      var program = HUB75Program()
      // A third of the LEDs lit, in stripes, about as many as a line of text lights.
      let frame = Frame(pixels: .textLikeStripes(width: board.width, height: board.height))
      // The encoder's own cost: what each new frame takes before the refresh shows it.
      let encodes = 50
      let encodeStart = SystemClock.monotonicNanoseconds()
      for _ in 0..<encodes { encoder.encode(frame, into: &program) }
      let encodeMicroseconds = Double(SystemClock.monotonicNanoseconds() - encodeStart) / 1000 / Double(encodes)
      let scanner = try HUB75Scanner(board: board, pi: pi)
      try scanner.send(program)
      SystemClock.sleep(until: SystemClock.monotonicNanoseconds() + Int64(seconds * 1e9))
      try scanner.finish()
      let figures = scanner.statistics
      let edges = board.rowPairs * depth * (2 * board.clocksPerRow + 4) + board.rowPairs
      line.add("encode_us_per_frame", encodeMicroseconds)
      line.add("refresh_hz", figures.refreshHz)
      line.add("cpu_share", figures.cpuShare)
      line.add("writes_per_refresh", figures.writesPerRefresh)
      line.add("least_writes", edges)
      line.add("writes_ratio", Double(figures.writesPerRefresh) / Double(edges))
      // What a Pi would reach with the default slowdown 1 (Docs/hardware.md, "What a Pi
      // reaches"): the same writes at its write rate, by marquee's timing.
      let pulses = program.steps.filter { if case .pulse = $0 { true } else { false } }.count
      line.add("writes_slowdown1", (program.words.count - pulses) * 2 + 2 * pulses)
      for pi in HUB75Comparison.pis {
        let seconds = HUB75Comparison.refreshSeconds(
          board, registerWrites: program.words.count - pulses, pulses: pulses, slowdown: 1, writesPerSecond: pi.writesPerSecond)
        line.add("\(pi.name)_hz_slowdown1", 1 / seconds, decimals: 0)
      }
      line.add("lit_us_per_refresh", Double((0..<depth).map(board.pulseNanoseconds).reduce(0, +) * board.rowPairs) / 1000)
      line.add("pulse_late_p50_us", figures.pulseLateP50)
      line.add("pulse_late_p99_us", figures.pulseLateP99)
      line.add("pulse_late_max_us", figures.pulseLateMax)
      line.add("real_time", figures.realTime ? "yes" : "no")
    } catch {
      line.add("error", "\(error)")
    }
    line.print()
  }
}

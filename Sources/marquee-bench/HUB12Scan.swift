import Foundation
import Platform

/// The HUB12 scanning loop of the real `marquee` program, for one P10 panel and a 4x1 chain
/// (128x16): the full refresh rate it reached, its CPU share of one core, and how late the
/// row-slot deadlines were met (p50, p99, max). The fake kernel of the tests answers the
/// SPI and GPIO calls, and each SPI message takes its bits' time at the board's clock, as
/// spidev does on real hardware. Each board runs at its own 200 Hz and at 1000 Hz.
///
/// Flicker-free means at least 100 full refreshes a second with p99 lateness under one
/// row's slot.
struct HUB12Scan {
  let marquee: String
  let fakeKernel: String
  let seconds = 5

  func run() {
    for name in ["hub12-p10-32x16", "hub12-p10-128x16"] {
      for refresh in [200, 1000] {
        measure(name, refresh: refresh)
      }
    }
  }

  func measure(_ name: String, refresh: Int) {
    let report = "/tmp/marquee-bench-scan-\(getpid())"
    let board = "/tmp/marquee-bench-scan-board-\(getpid()).json"
    defer {
      unlink(report)
      unlink(board)
    }
    guard let source = DeviceEncoding.boardText(name) else { return }
    // The shipped board at another refresh rate.
    let text = source.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.contains("\"refreshHz\"") ? "  \"refreshHz\": \(refresh)," : String(line)
    }.joined(separator: "\n")
    guard let file = fopen(board, "w") else { return }
    fputs(text, file)
    fclose(file)
    let environment = [
      "LD_PRELOAD": fakeKernel, "MARQUEE_FAKE_SPIDEV": "/dev/spidev0.0", "MARQUEE_FAKE_GPIOCHIP": "/dev/gpiochip0=54",
      "MARQUEE_FAKE_WIRE_TIME": "1", "MARQUEE_SCAN_REPORT": report,
    ]
    let arguments = [marquee, "--board", board, "--fps", "10", "--frames", "\(seconds * 10)", "A P10 sign, scanned"]
    guard let run = ChildProcess.run(arguments, environment: environment), run.status == 0,
      let figures = readFigures(report)
    else {
      print("marquee-bench scenario=scan-\(name) error=marquee-did-not-run")
      return
    }
    let (width, height) = name.hasSuffix("128x16") ? (128, 16) : (32, 16)
    var line = ResultLine(scenario: "scan-\(name)", width: width, height: height)
    line.add("target_hz", refresh)
    for key in ["refresh_hz", "cpu_share", "late_p50_us", "late_p99_us", "late_max_us", "slot_us", "overruns", "real_time"] {
      line.add(key, figures[key] ?? "?")
    }
    let reached = Double(figures["refresh_hz"] ?? "") ?? 0
    let p99 = Double(figures["late_p99_us"] ?? "") ?? .infinity
    let slot = Double(figures["slot_us"] ?? "") ?? 0
    line.add("flicker_free", reached >= 100 && p99 < slot ? "yes" : "no")
    line.print()
  }

  /// The `key=value` pairs of the report file.
  func readFigures(_ path: String) -> [String: String]? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 1024)
    guard fgets(&buffer, 1024, file) != nil else { return nil }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var figures: [String: String] = [:]
    for pair in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
      let parts = pair.split(separator: "=", maxSplits: 1)
      if parts.count == 2 { figures[String(parts[0])] = String(parts[1]) }
    }
    return figures
  }
}

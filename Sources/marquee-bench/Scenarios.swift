import Foundation
import BitmapFonts
import Drivers
import Platform
import Marquee
import MatrixCore

/// The benchmark's scenarios. Each prints one `marquee-bench` line per measurement.
struct Scenarios {
  var width: Int
  var height: Int
  var frames: Int
  var message: String

  static let lumaMessage = "The quick brown fox jumps over the lazy dog 0123456789 ABCDEFG"

  /// An FC-16 chain covering the sign.
  var board: MAX7219Board { try! MAX7219Board(name: "bench", wiring: .fc16, columns: max(1, width / 8), rows: max(1, height / 8)) }

  /// Composes and encodes frames of `timeline` at 100 frames per second of timeline time.
  @discardableResult
  func composeAndEncode(
    _ scenario: String, _ timeline: some Timeline, frames: Int, extra: [(String, String)] = [], quiet: Bool = false
  ) -> Double {
    var frame = Frame(width: width, height: height)
    var workspace = FrameWorkspace()
    var encoder = MAX7219Encoder(board: board)
    var output = SPITransactions()
    encoder.startUp(into: &output)
    output.removeAll()
    var bytes = 0
    let result = Measure.loop(frames: frames) { index in
      timeline.render(at: Double(index) / 100, into: &frame, workspace: &workspace)
      encoder.encode(frame, into: &output)
      bytes += output.byteCount
      output.removeAll()
    }
    var line = ResultLine(scenario: scenario, width: width, height: height)
    line.add("frames", frames)
    line.add("us_per_frame", result.wallNs / 1000)
    line.add("cpu_us_per_frame", result.cpuNs / 1000)
    line.add("ns_per_frame", result.wallNs, decimals: 1)
    line.add("allocs_per_frame", result.allocs, decimals: 4)
    line.add("spi_bytes_per_frame", Double(bytes) / Double(frames + 200), decimals: 1)
    // The wire time of a full frame at 8 MHz: 8 rows x 2 bytes x chips, one byte per microsecond.
    let wireMicroseconds = Double(8 * 2 * board.chipCount)
    line.add("wire_us_at_8mhz", wireMicroseconds, decimals: 1)
    line.add("cpu_percent_of_wire", result.cpuNs / 1000 / wireMicroseconds * 100, decimals: 3)
    for (key, value) in extra { line.add(key, value) }
    if !quiet { line.print() }
    return result.wallNs / 1000
  }

  /// One pixel per frame, as luma's benchmark scrolls: speed 100 px/s at 100 frames a second.
  /// Returns microseconds per frame.
  @discardableResult
  func scroll(message: String, scenario: String = "scroll", quiet: Bool = false) throws -> Double {
    let timeline = try RibbonTimeline(
      messages: [message], renderer: TextRenderer(), width: width, height: height,
      settings: MarqueeSettings(alwaysScrolls: true, speed: 100, gap: 0))
    return composeAndEncode(
      scenario, timeline, frames: frames, extra: [("message_px", String(timeline.ribbon.width))], quiet: quiet)
  }

  func cycle() throws {
    let timeline = try CycleTimeline(
      messages: ["Platform 2", "Central 4 min", "On time"], renderer: TextRenderer(), width: width, height: height,
      settings: CycleSettings(dwell: 0.5, transition: .scrollUp, speed: 40))
    composeAndEncode("cycle", timeline, frames: frames)
  }

  /// Every frame inside a transition: dwell 0, one second per transition.
  func transition(_ name: String) throws {
    let transition = Transition(entry: try EffectCatalog.parse(name), duration: 1)
    let timeline = try CycleTimeline(
      messages: ["HELLO", "WORLD"], renderer: TextRenderer(), width: width, height: height,
      settings: CycleSettings(dwell: 0, transition: transition, alignment: .center))
    composeAndEncode("transition:\(name)", timeline, frames: max(200, frames / 10))
  }

  func zones() throws {
    let clockWidth = min(26, width / 2)
    let sign = try Sign(width: width, height: height, zones: [
      Zone(name: "clock", x: 0, y: 0, width: clockWidth, height: height, content: ZoneContent(messages: ["12:00"])),
      Zone(name: "ticker", x: clockWidth, y: 0, width: width - clockWidth, height: height,
           content: ZoneContent(messages: [Scenarios.lumaMessage], motion: .scroll(.init(speed: 100)))),
    ])
    composeAndEncode("zones", sign, frames: frames)
  }

  /// Time from process start to the first frame written, with Unifont and with the
  /// built-in font (median of seven runs each; memory is the `rss` scenario's).
  func firstFrame(marquee: String) {
    func median(_ arguments: [String]) -> Double? {
      var times: [Double] = []
      for _ in 0..<7 {
        guard let run = ChildProcess.run([marquee] + arguments), run.status == 0 else { return nil }
        times.append(Double(run.wallNs) / 1e6)
      }
      return times.sorted()[times.count / 2]
    }
    guard let builtin = median(["--width", "32", "--height", "8", "--frames", "1", "--no-wait", "--output", "ascii", "Hello"]) else {
      print("marquee-bench scenario=first-frame error=cannot-run-\(marquee)")
      return
    }
    var line = ResultLine(scenario: "first-frame-builtin", width: 32, height: 8)
    line.add("us_per_frame", builtin * 1000)  // the one frame, process start included
    line.add("first_frame_ms", builtin)
    line.print()
    guard FontLocator.path(named: "unifont") != nil,
      let unifont = median(["--font", "5x7,unifont", "--width", "32", "--height", "16", "--frames", "1", "--no-wait", "--output", "ascii", "中文"])
    else {
      print("marquee-bench scenario=first-frame-unifont skipped=needs-debian-package-unifont")
      return
    }
    line = ResultLine(scenario: "first-frame-unifont", width: 32, height: 16)
    line.add("us_per_frame", unifont * 1000)
    line.add("first_frame_ms", unifont)
    line.add("ratio_to_builtin", unifont / builtin, decimals: 2)
    line.print()
  }

  /// CPU used by the real player over 10 s of a still message, of a dwell, of a scroll, and
  /// of that scroll in an off period of the schedule (the chips asleep: the player and, on a
  /// HUB12 sign, the scan rest), driving an FC-16 chain whose bytes go to /dev/null and a
  /// HUB12 panel through the fake kernel.
  func idle(marquee: String) {
    let path = "/tmp/marquee-bench-board-\(getpid()).json"
    let json = #"{"driver": "max7219", "module": "fc16", "grid": {"columns": 4, "rows": 1}}"#
    let scroll = "/tmp/marquee-bench-scroll-\(getpid()).json", off = "/tmp/marquee-bench-off-\(getpid()).json"
    let text = #"{"messages": ["A message that scrolls all the time"], "speed": 50"#
    for (file, contents) in [(path, json), (scroll, text + "}"), (off, text + #", "off": [{"times": ["00:00-24:00"]}]}"#)] {
      guard let handle = fopen(file, "w") else { return }
      fputs(contents, handle)
      fclose(handle)
    }
    defer { for file in [path, scroll, off] { unlink(file) } }
    let fakeKernel = ChildProcess.ownFolder + "/libMarqueeFakeKernel.so"
    let hub12 = ["LD_PRELOAD": fakeKernel, "MARQUEE_FAKE_SPIDEV": "/dev/spidev0.0", "MARQUEE_FAKE_GPIOCHIP": "/dev/gpiochip0=54"]
    let max7219 = ["--board", path, "--spi-dump", "/dev/null"]
    let runs: [(String, [String], [String: String])] = [
      ("idle-still", max7219 + ["HELLO"], [:]), ("idle-dwell", max7219 + ["--mode", "cycle", "--dwell", "60", "ONE", "TWO"], [:]),
      ("idle-scroll", max7219 + ["--config", scroll], [:]), ("idle-off", max7219 + ["--config", off], [:]),
      ("idle-scroll-hub12", ["--board", "hub12-p10-32x16", "--config", scroll], hub12),
      ("idle-off-hub12", ["--board", "hub12-p10-32x16", "--config", off], hub12),
    ]
    for (name, extra, environment) in runs {
      // Once for 10 s and once for 2 s: the difference is the steady state, start-up cancelled.
      let arguments = [marquee, "--fps", "50", "--frames", "500"] + extra
      guard let run = ChildProcess.run(arguments, environment: environment), run.status == 0,
        let short = ChildProcess.run([marquee, "--fps", "50", "--frames", "100"] + extra, environment: environment), short.status == 0
      else {
        print("marquee-bench scenario=\(name) error=marquee-did-not-run")
        continue
      }
      var line = ResultLine(scenario: name, width: 32, height: name.hasSuffix("hub12") ? 16 : 8)
      line.add("us_per_frame", Double(run.cpuNs) / 1000 / 500)  // CPU per frame period
      line.add("seconds", Double(run.wallNs) / 1e9, decimals: 2)
      line.add("cpu_ms", Double(run.cpuNs) / 1e6, decimals: 1)
      line.add("cpu_percent", Double(run.cpuNs) / Double(run.wallNs) * 100, decimals: 3)
      line.add("steady_cpu_percent", Double(run.cpuNs - short.cpuNs) / Double(run.wallNs - short.wallNs) * 100, decimals: 3)
      line.print()
    }
  }

  /// Lateness of frame deadlines of the real player at 60 fps over 10 s.
  func pacing() throws {
    struct Recorder: Display {
      let width: Int, height: Int
      var wantsEveryFrame: Bool { true }
      var times: [Int64] = []
      mutating func show(_ frame: Frame, changed: Bool) throws { times.append(Measure.monotonic()) }
      mutating func shutdown() throws {}
    }
    let timeline = try RibbonTimeline(
      messages: [Scenarios.lumaMessage], renderer: TextRenderer(), width: width, height: height,
      settings: MarqueeSettings(speed: 30))
    var display = Recorder(width: width, height: height)
    display.times.reserveCapacity(700)
    let fps = 60.0
    let cpuBefore = Measure.processCPU()
    try Player(fps: fps, frameLimit: 600).run(timeline, on: &display, clock: MonotonicClock(), stop: StopFlag())
    let cpuPerFrame = Double(Measure.processCPU() - cpuBefore) / 1000 / 600
    guard let first = display.times.first else { return }
    let lateness = display.times.enumerated().map { index, time in
      Double(time - first) / 1e6 - Double(index) * 1000 / fps
    }.sorted()
    var line = ResultLine(scenario: "pacing", width: width, height: height)
    line.add("us_per_frame", cpuPerFrame)  // CPU per frame period, sleeping included
    line.add("fps", 60)
    line.add("frames", lateness.count)
    line.add("late_p50_ms", lateness[lateness.count / 2])
    line.add("late_p99_ms", lateness[lateness.count * 99 / 100])
    line.add("late_max_ms", lateness.last!)
    line.print()
  }

  /// Peak memory of `marquee` scrolling on the simulator, Latin and CJK.
  /// Whether a binary carries the Swift runtime inside (a release build of `marquee` does)
  /// rather than loading libswiftCore.so.
  static func linksSwiftRuntimeStatically(_ path: String) -> Bool {
    // Read in small pieces: this process's own peak memory must stay small, since a child
    // spawned from it starts with that peak on its count.
    let descriptor = Descriptor.open(path, OpenFlag.readOnly)
    guard descriptor >= 0 else { return false }
    defer { Descriptor.close(descriptor) }
    let needle = Array("libswiftCore.so".utf8)
    var window: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = FileBytes.read(descriptor, into: &chunk, count: chunk.count)
      if count <= 0 { return true }
      window = Array(window.suffix(needle.count - 1)) + chunk[0..<count]
      for start in 0...(window.count - needle.count) where window[start] == needle[0] {
        if window[start..<(start + needle.count)].elementsEqual(needle) { return false }
      }
    }
  }

  /// The peak resident memory of two seconds of `marquee` scrolling, with the figure beside
  /// it of luma.led_matrix drawing the same message (its median of three runs, in this run)
  /// when `lumaPython` is given.
  /// The value of `name=value` in a result line of luma_compare.py.
  static func field(_ name: String, of output: String) -> Substring? {
    output.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix(name + "=") }?.dropFirst(name.count + 1)
  }

  func memory(marquee: String, lumaPython: String? = nil, lumaScript: String = "") {
    var luma: Int?
    if let python = lumaPython {
      let peaks = (0..<3).compactMap { _ -> Int? in
        guard let run = ChildProcess.run([python, lumaScript, "--width", "32", "--height", "8", "--frames", "2000"]),
          run.status == 0 else { return nil }
        return Scenarios.field("peak_rss_kb", of: run.output).flatMap { Int($0) }
      }.sorted()
      luma = peaks.isEmpty ? nil : peaks[peaks.count / 2]
      if luma == nil { print("marquee-bench scenario=rss-luma error=luma-did-not-run") }
    }
    let runs: [(String, [String])] = [
      ("rss-scroll", ["--width", "32", "--height", "8", "--fps", "200", "--output", "ascii", Scenarios.lumaMessage]),
      ("rss-scroll-unifont", ["--font", "5x7,unifont", "--width", "32", "--height", "16", "--fps", "200", "--output", "ascii", "列车即将进站 The train is arriving 请站在黄线以内"]),
    ]
    for (name, arguments) in runs {
      if name.hasSuffix("unifont") && FontLocator.path(named: "unifont") == nil { continue }
      // Two seconds of scrolling (400 frames), then its peak is read and it is stopped.
      guard let run = ChildProcess.peakResident([marquee] + arguments, runFor: 2) else {
        print("marquee-bench scenario=\(name) error=marquee-did-not-run")
        continue
      }
      var line = ResultLine(scenario: name, width: 32, height: name.hasSuffix("unifont") ? 16 : 8)
      // CPU per frame period of the real program, start-up included (400 periods).
      line.add("us_per_frame", Double(run.cpuNs) / 1000 / 400)
      line.add("rss_kb", run.kib)
      line.add("swift_runtime", Scenarios.linksSwiftRuntimeStatically(marquee) ? "static" : "shared")
      if let luma {
        line.add("luma_rss_kb", luma)
        line.add("of_luma", Double(run.kib) / Double(luma), decimals: 2)
      }
      line.print()
    }
  }

  /// luma.led_matrix's benchmark for this size, interleaved with our scroll: each round
  /// times ours (median of three) and then one luma run, and the speed-up is the median of
  /// the rounds' ratios, so a burst of load on this shared machine hits one round, not one
  /// side. Once with luma's default `block_orientation=0` (the figure the performance issue
  /// quotes) and once with `-90`, the setting luma's documentation gives for FC-16 4-in-1
  /// modules, the wiring our scroll scenario encodes for.
  func luma(python: String, script: String, message: String, rounds: Int = 5) throws {
    for (scenario, orientation) in [("luma", "0"), ("luma-fc16", "-90")] {
      var arguments = [python, script, "--width", "\(width)", "--height", "\(height)", "--frames", "2000",
                       "--block-orientation", orientation]
      if height > 8 { arguments += ["--y-offset", "\((height - 8) / 2)"] }
      var lumaTimes: [Double] = [], ourTimes: [Double] = [], ratios: [Double] = [], rss: [Int] = []
      for _ in 0..<rounds {
        // At least 500,000 frames (about 30 ms a measurement): shorter loops are at the
        // mercy of a scheduler tick or the clock ramping up.
        var long = self
        long.frames = max(frames, 500_000)
        let ours = try (0..<3).map { _ in try long.scroll(message: message, quiet: true) }.sorted()[1]
        guard let run = ChildProcess.run(arguments), run.status == 0 else { continue }
        if let value = Scenarios.field("us_per_frame", of: run.output).flatMap({ Double($0) }) {
          lumaTimes.append(value)
          ourTimes.append(ours)
          ratios.append(value / ours)
        }
        if let value = Scenarios.field("peak_rss_kb", of: run.output).flatMap({ Int($0) }) { rss.append(value) }
      }
      guard !ratios.isEmpty else {
        print("marquee-bench scenario=\(scenario) width=\(width) height=\(height) error=luma-did-not-run")
        continue
      }
      func median<T: Comparable>(_ values: [T]) -> T { values.sorted()[values.count / 2] }
      var line = ResultLine(scenario: scenario, width: width, height: height)
      line.add("us_per_frame", median(lumaTimes))
      line.add("block_orientation", orientation)
      line.add("peak_rss_kb", median(rss))
      line.add("rounds", ratios.count)
      line.add("marquee_us_per_frame", median(ourTimes))
      line.add("speedup", median(ratios), decimals: 1)
      line.add("speedup_min", ratios.min()!, decimals: 1)
      line.add("speedup_max", ratios.max()!, decimals: 1)
      line.print()
    }
  }
}

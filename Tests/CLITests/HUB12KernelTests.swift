import Drivers
import Foundation
import MatrixCore
import TestSupport
import Testing

/// The real binary scanning HUB12 panels through spidev and the GPIO character device of
/// the fake kernel, which records every transfer and line change with its time; the
/// emulated shift registers, latches and row decoder integrate what each LED showed.
@Suite(.offThePool) struct HUB12KernelTests {
  static let environment = [
    "LD_PRELOAD": KernelDoorTests.library, "MARQUEE_FAKE_SPIDEV": "/dev/spidev0.0",
    "MARQUEE_FAKE_GPIOCHIP": "/dev/gpiochip0=54",
  ]

  static func board(_ name: String) throws -> HUB12Board {
    guard let board = try boardFile(name).family as? HUB12Board else {
      throw InvalidBoardValue(field: "Boards/\(name).json", reason: "not a HUB12 board")
    }
    return board
  }

  /// Runs the sign until the log holds `slots` row slots (bounded), stops it with SIGTERM,
  /// and returns the exit status and the log.
  func scan(_ arguments: [String], slots: Int, _ extra: [String: String] = [:]) throws -> (status: Int32, stderr: String, log: [String]) {
    try KernelDoorTests().runUntilStopped(arguments, HUB12KernelTests.environment.merging(extra) { $1 }, until: slots) {
      $0.hasPrefix("xfer ")
    }
  }

  /// Replays a log into the emulator: each line request's offsets name the signals, each
  /// `set` changes them, each `xfer` shifts bits, all at their recorded times.
  static func replay(_ log: [String], on board: HUB12Board) -> HUB12Emulator {
    var emulator = HUB12Emulator(board: board)
    var signalOfBit: [Int: HUB12Board.Signal] = [:]
    let signalOfOffset = Dictionary(uniqueKeysWithValues: board.lines.map { ($0.value.offset, $0.key) })
    func field(_ line: String, _ name: String) -> String? {
      line.split(separator: " ").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }
    for line in log {
      if line.hasPrefix("lines ") {
        let offsets = field(line, "offsets")!.split(separator: ",").map { Int($0)! }
        for (bit, offset) in offsets.enumerated() { signalOfBit[bit] = signalOfOffset[offset] }
      } else if line.hasPrefix("set ") {
        let t = Int64(field(line, "t")!)!
        let bits = UInt64(field(line, "bits")!, radix: 16)!, mask = UInt64(field(line, "mask")!, radix: 16)!
        var signalMask: UInt8 = 0, high: UInt8 = 0
        for (bit, signal) in signalOfBit where mask & (1 << UInt64(bit)) != 0 {
          signalMask |= HUB12Emulator.bit(signal)
          if bits & (1 << UInt64(bit)) != 0 { high |= HUB12Emulator.bit(signal) }
        }
        emulator.set(mask: signalMask, levels: high, at: t)
      } else if line.hasPrefix("xfer ") {
        let hex = Array(field(line, "data")!)
        let bytes = stride(from: 0, to: hex.count - 1, by: 2).map { UInt8(String(hex[$0...$0 + 1]), radix: 16)! }
        emulator.shift(bytes, at: Int64(field(line, "t")!)!)
      }
    }
    return emulator
  }

  /// The sign's picture as the text output draws it.
  static func expected(_ message: String, width: Int, height: Int) throws -> Framebuffer {
    let text = try BinaryRunner.run(["--width", "\(width)", "--height", "\(height)", "--output", "ascii", "--frames", "1", message]).stdout
    var pixels = Framebuffer(width: width, height: height)
    for (y, row) in text.split(separator: "\n").prefix(height).enumerated() {
      for (x, character) in row.enumerated() where character == "#" { pixels[x, y] = true }
    }
    return pixels
  }

  @Test(arguments: ["hub12-p10-32x16", "hub12-p10-128x16", "hub12-32x16-scan8"])
  func theScannedImageIsTheFrameEveryRowGetsItsShareAndNothingGhosts(_ name: String) throws {
    let board = try HUB12KernelTests.board(name)
    let message = "P10!"
    let run = try scan(["--board", name, "--fps", "10", message], slots: 40 * board.scan)
    #expect(run.status == 128 + SIGTERM, "\(run.stderr)")
    let emulator = HUB12KernelTests.replay(run.log, on: board)
    let frame = try HUB12KernelTests.expected(message, width: board.width, height: board.height)
    // The integrated image: every LED the frame lights, and no other, was lit.
    let longest = emulator.litTime.max() ?? 0
    try #require(longest > 0, "nothing was lit")
    var integrated = Framebuffer(width: board.width, height: board.height)
    for (index, time) in emulator.litTime.enumerated() where time > longest / 2 {
      integrated[index % board.width, index / board.width] = true
    }
    #expect(integrated == frame)
    // Each row group showed exactly its rows of the frame, every time it was lit: no LED
    // of another group glowed, and the latch and rows never changed while lit.
    for group in 0..<board.scan {
      var rows = Framebuffer(width: board.width, height: board.height)
      for y in stride(from: group, to: board.height, by: board.scan) {
        for x in 0..<board.width where frame[x, y] { rows[x, y] = true }
      }
      #expect(emulator.groupPictures[group] == [rows], "group \(group)")
    }
    #expect(emulator.switchesWhileLit == 0)
    // The same share for every row: the median time each group was lit, within 10 %
    // (the median leaves out the slots this shared machine's scheduler stretched).
    let medians = emulator.onIntervals.map { $0.sorted()[$0.count / 2] }
    let mean = Double(medians.reduce(0, +)) / Double(medians.count)
    #expect(medians.allSatisfy { abs(Double($0) - mean) <= 0.1 * mean }, "\(medians)")
    // Left dark: the last line change turned OE off.
    #expect(!emulator.isLit)
    #expect(run.log.last == "close /dev/gpiochip0" && run.log.contains("release /dev/gpiochip0"))
  }

  /// A scrolling message: every full scan cycle (groups 0 to 3 in a row) shows one frame of
  /// the scroll, never the rows of two (frames are swapped only between cycles).
  @Test func aMovingSignNeverTears() throws {
    let board = try HUB12KernelTests.board("hub12-p10-32x16")
    let moving = ["--fps", "40", "--speed", "40", "--mode", "scroll", "Scrolling along the P10 panel"]
    let run = try scan(["--board", "hub12-p10-32x16"] + moving, slots: 1600)
    #expect(run.status == 128 + SIGTERM, "\(run.stderr)")
    // Every frame the scroll can show in the run's time (at most 20 s), as the text output
    // renders them.
    let text = try BinaryRunner.run(moving + ["--width", "32", "--height", "16", "--output", "ascii", "--frames", "800", "--no-wait"])
    let frames = Set(asciiFrames(text.stdout).map { rows -> Framebuffer in
      var pixels = Framebuffer(width: 32, height: 16)
      for (y, row) in rows.prefix(16).enumerated() {
        for (x, character) in row.enumerated() where character == "#" { pixels[x, y] = true }
      }
      return pixels
    })
    let lightings = HUB12KernelTests.replay(run.log, on: board).lightings
    var cycles = 0, shown = Set<Framebuffer>()
    var index = lightings.firstIndex { $0.group == 0 } ?? lightings.count
    while index + board.scan <= lightings.count {
      let cycle = lightings[index..<(index + board.scan)]
      guard cycle.map(\.group) == Array(0..<board.scan) else {
        index += 1
        continue
      }
      var union = Framebuffer(width: 32, height: 16)
      for part in cycle {
        for y in 0..<16 { for x in 0..<32 where part.pixels[x, y] { union[x, y] = true } }
      }
      #expect(frames.contains(union), "cycle \(cycles) shows no single frame of the scroll")
      shown.insert(union)
      cycles += 1
      index += board.scan
    }
    #expect(cycles > 100 && shown.count > 5, "\(cycles) cycles, \(shown.count) frames")
  }

  /// Brightness is OE's share of each slot: step 7 of 15 lights half of it.
  @Test func brightnessIsOEOnTime() throws {
    let board = try HUB12KernelTests.board("hub12-p10-32x16")
    let run = try scan(["--board", "hub12-p10-32x16", "--intensity", "7", "--fps", "10", "HALF"], slots: 120)
    #expect(run.status == 128 + SIGTERM, "\(run.stderr)")
    let emulator = HUB12KernelTests.replay(run.log, on: board)
    let slot = Double(board.slotNanoseconds)
    for group in 0..<board.scan {
      let intervals = emulator.onIntervals[group].sorted()
      try #require(!intervals.isEmpty)
      let median = Double(intervals[intervals.count / 2])
      #expect(abs(median - slot / 2) < 0.1 * slot, "group \(group): lit \(median) ns of a \(slot) ns slot")
    }
  }

  @Test func lineErrorsAreNamedAndTheRunEnds() throws {
    let busy = try BinaryRunner.run(
      ["--board", "hub12-p10-32x16", "--frames", "1", "X"], environment: HUB12KernelTests.environment.merging(["MARQUEE_FAKE_GPIO_BUSY": "24"]) { $1 })
    #expect(busy.status == 1)
    #expect(busy.stderr.contains("/dev/gpiochip0: request lines 22, 23, 24, 25: a line is held by another program or driver"), "\(busy.stderr)")
    let missing = try BinaryRunner.run(
      ["--board", "hub12-p10-32x16", "--frames", "1", "X"], environment: HUB12KernelTests.environment.merging(["MARQUEE_FAKE_GPIOCHIP": "/dev/gpiochip9"]) { $1 })
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("/dev/gpiochip0: no such GPIO chip"), "\(missing.stderr)")
    let keep = try BinaryRunner.run(["--board", "hub12-p10-32x16", "--keep", "--frames", "1", "X"], environment: HUB12KernelTests.environment)
    #expect(keep.status == 64 && keep.stderr.contains("HUB12 panels hold nothing"))
  }

  /// A failing SPI device on the scanning thread ends the run with its reason, OE left off.
  @Test func aFailureOnTheScanningThreadEndsTheRun() throws {
    let run = try scan(["--board", "hub12-p10-32x16", "--fps", "10", "X"], slots: 1000, ["MARQUEE_FAKE_FAIL_AFTER": "50"])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stderr.contains("/dev/spidev0.0: write failed: Input/output error"), "\(run.stderr)")
    let board = try HUB12KernelTests.board("hub12-p10-32x16")
    #expect(!HUB12KernelTests.replay(run.log, on: board).isLit)
  }

  /// Without the right to real-time priority (dropped to user nobody), the loop still runs
  /// and says what to set.
  @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                 "needs root and setpriv (util-linux) to run marquee without privileges"))
  func withoutRealTimePriorityTheLoopRunsAndSaysWhatToSet() throws {
    let child = try ChildProcess("/usr/bin/setpriv", [
      "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", BinaryRunner.path,
      "--board", "hub12-p10-32x16", "--fps", "10", "--frames", "3", "X",
    ], environment: HUB12KernelTests.environment)
    let result = child.wait(timeout: 30)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.hasPrefix(
      "Warning: the HUB12 scanning loop runs without real-time priority (SCHED_FIFO: Operation not permitted)"))
    #expect(result.stderr.contains("set LimitRTPRIO=10 in the service's unit"))
  }
}

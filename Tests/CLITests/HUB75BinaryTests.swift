import Foundation
import MatrixCore
import Platform
import TestSupport
import Testing

@testable import Drivers
@testable import MAX7219Core

/// The real binary on HUB75 panels: its trace decoded by the emulated panels, and its run on
/// the registers the fake kernel serves (a file for `/dev/gpiomem`, a Pi 4's device tree).
@Suite(.offThePool) struct HUB75BinaryTests {
  static func board(_ name: String) throws -> HUB75Board {
    try #require(try boardFile(name).family as? HUB75Board)
  }

  /// The fake kernel with `registers` for `/dev/gpiomem` and `tree` for the device tree.
  static func environment(registers: String, tree: String) -> [String: String] {
    ["LD_PRELOAD": KernelDoorTests.library, "MARQUEE_FAKE_GPIOMEM": registers, "MARQUEE_FAKE_DEVICE_TREE": tree]
  }

  static func function(_ registers: [UInt32], _ pin: Int) -> UInt32 { (registers[pin / 10] >> UInt32(3 * (pin % 10))) & 7 }

  @Test(arguments: ["hub75-p4-2x-64x32", "hub75-p10-outdoor-32x16", "hub75-p3-64x64"])
  func theTraceDecodesToTheFrameInTheSignsColour(_ name: String) throws {
    let board = try HUB75BinaryTests.board(name)
    let trace = NSTemporaryDirectory() + "marquee-hub75-\(UInt32.random(in: 0...UInt32.max)).txt"
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let run = try BinaryRunner.run(["--board", name, "--hub75-dump", trace, "--frames", "1", "--color", "amber", "RGB"])
    #expect(run.status == 0, "\(run.stderr)")
    let text = try String(contentsOfFile: trace, encoding: .utf8)
    let read = try HUB75Trace.read(text)
    #expect(text.hasPrefix(HUB75Trace.header + "\n" + HUB75Trace.pinsLine(board) + "\n"))
    #expect(read.pins["clk"] == 17 && read.pins["oe"] == 18)
    var panels = HUB75Emulator(board: board)
    for step in read.steps { panels.run(step) }
    #expect(panels.pulses.allSatisfy { $0 == 1 } && panels.clockWithData == 0 && panels.badSelections == 0)
    let frame = try HUB12KernelTests.expected("RGB", width: board.width, height: board.height)
    try #require(frame.words.contains { $0 != 0 })
    let level = { (value: UInt8) in HUB75Encoder.level(value, depth: board.colorDepth, lightness: true) }
    let amber = (level(LEDColor.amber.rgb.red), level(LEDColor.amber.rgb.green), level(LEDColor.amber.rgb.blue))
    var wrong = 0
    for y in 0..<board.height {
      for x in 0..<board.width where panels.color(x: x, y: y) != (frame[x, y] ? amber : (0, 0, 0)) { wrong += 1 }
    }
    #expect(wrong == 0)
  }

  /// The trace read by another decoder, in Python, written from the protocol alone
  /// (Tests/HUB75/decode_trace.py): the same pixels in the same levels.
  @Test(arguments: ["hub75-p4-64x32", "hub75-p4-2x-64x32"])
  func anIndependentDecoderReadsTheTraceAsTheFrame(_ name: String) throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
      print("HUB75BinaryTests: skipped, needs python3 (Debian package python3)")
      return
    }
    let board = try HUB75BinaryTests.board(name)
    let trace = NSTemporaryDirectory() + "marquee-hub75-\(UInt32.random(in: 0...UInt32.max)).txt"
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let run = try BinaryRunner.run(["--board", name, "--hub75-dump", trace, "--frames", "1", "--color", "#ff8000", "Hub75!"])
    #expect(run.status == 0, "\(run.stderr)")
    let decoded = try ChildProcess.run("/usr/bin/python3", ["Tests/HUB75/decode_trace.py", trace, "\(board.width)", "\(board.height)"])
    #expect(decoded.status == 0, "\(decoded.stderr)")
    let rows = decoded.stdout.split(separator: "\n")
    try #require(rows.count == board.height)
    let frame = try HUB12KernelTests.expected("Hub75!", width: board.width, height: board.height)
    let lit = [255, 128, 0].map { HUB75Encoder.level(UInt8($0), depth: board.colorDepth, lightness: true) }.map(String.init).joined(separator: ",")
    var wrong = 0
    for (y, row) in rows.enumerated() {
      for (x, pixel) in row.split(separator: " ").enumerated() where pixel != (frame[x, y] ? lit : "0,0,0") { wrong += 1 }
    }
    #expect(wrong == 0)
  }

  /// A panel of FM6126A chips: its register writes come first in the trace, between
  /// comments, and the refresh after them decodes as the frame.
  @Test func anFM6126APanelsRegistersLeadTheTrace() throws {
    let folder = NSTemporaryDirectory() + "marquee-hub75-fm-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try #"{"driver": "hub75", "panel": {"rows": 32, "columns": 64}, "colorDepth": 2, "panelType": "fm6126a"}"#
      .write(toFile: folder + "/fm.json", atomically: true, encoding: .utf8)
    let run = try BinaryRunner.run(["--board", folder + "/fm.json", "--hub75-dump", folder + "/trace.txt", "--frames", "1", "FM"])
    #expect(run.status == 0, "\(run.stderr)")
    let text = try String(contentsOfFile: folder + "/trace.txt", encoding: .utf8)
    let lines = text.split(separator: "\n")
    #expect(lines[2] == "# panel init fm6126a" && lines.contains("# refresh"))
    let board = try #require(try SignBoard(json: #"{"driver": "hub75", "panel": {"rows": 32, "columns": 64}, "colorDepth": 2, "panelType": "fm6126a"}"#, path: "fm.json").family as? HUB75Board)
    var panels = HUB75Emulator(board: board)
    for step in try HUB75Trace.read(text).steps { panels.run(step) }
    #expect(panels.registerWrites.map(\.bits) == [0x7FFF, 0x0040])
    #expect(panels.pulses.allSatisfy { $0 == 1 })
    let decoded = try ChildProcess.run("/usr/bin/python3", ["Tests/HUB75/decode_trace.py", folder + "/trace.txt", "64", "32"])
    #expect(decoded.status == 0, "\(decoded.stderr)")
  }

  @Test func theBinaryDrivesTheRegistersAndPutsThePinsBackOnAStop() throws {
    let pi = PiFixtures.FakePi(tree: try PiFixtures.pi4Tree(), registers: try PiFixtures.registerFile(length: 4096))
    defer { pi.remove() }
    let (tree, registers) = (pi.tree, pi.registers)
    let child = try BinaryRunner.start(
      ["--board", "hub75-p4-64x32", "--fps", "20", "--mode", "scroll", "--speed", "20", "Scrolling in RGB"],
      environment: HUB75BinaryTests.environment(registers: registers, tree: tree))
    // Its 13 lines become outputs (A-D, not E, for 16 row pairs).
    let pins = [11, 27, 7, 8, 9, 10, 22, 23, 24, 25, 17, 4, 18]
    #expect(eventually(within: 20) {
      let words = (try? PiFixtures.words(registers)) ?? []
      return words.count == 1024 && pins.allSatisfy { HUB75BinaryTests.function(words, $0) == 1 }
    })
    #expect(HUB75BinaryTests.function(try PiFixtures.words(registers), 15) == 0, "E is not driven for 16 row pairs")
    child.send(SIGTERM)
    let result = child.wait()
    #expect(result.status == 128 + SIGTERM, "\(result.stderr)")
    let words = try PiFixtures.words(registers)
    for pin in pins { #expect(HUB75BinaryTests.function(words, pin) == 0, "GPIO \(pin) is an input again") }
    #expect(words[PiGPIORegisters.bcmSet] == 1 << 18, "the last write to the set register: OE high, dark")
  }

  /// On a Pi 5 the lines are RP1's: given to the RIO block and enabled through its set alias
  /// while the sign runs, and given back after. Run as the shipped unit runs it, with
  /// `/proc/device-tree` hidden (`ProcSubset=pid`): the tree is read from `/sys`.
  @Test func onAPi5TheBinaryDrivesRP1() throws {
    let pi = PiFixtures.FakePi(tree: try PiFixtures.pi5Tree(), registers: try PiFixtures.rp1RegisterFile())
    defer { pi.remove() }
    let (tree, registers) = (pi.tree, pi.registers)
    var environment = HUB75BinaryTests.environment(registers: registers, tree: tree)
    environment["MARQUEE_FAKE_PROC_SUBSET"] = "pid"
    let child = try BinaryRunner.start(["--board", "hub75-adafruit-hat-64x32", "--fps", "20", "Pi 5"], environment: environment)
    let pins = [5, 13, 6, 12, 16, 23, 22, 26, 27, 20, 17, 21, 4]
    #expect(eventually(within: 20) {
      let words = (try? PiFixtures.words(registers)) ?? []
      return words.count == 0x30000 / 4 && pins.allSatisfy { words[PiGPIORegisters.rp1Control($0)] & 0x1F == 5 }
    })
    child.send(SIGTERM)
    let result = child.wait()
    #expect(result.status == 128 + SIGTERM, "\(result.stderr)")
    let words = try PiFixtures.words(registers)
    for pin in pins { #expect(words[PiGPIORegisters.rp1Control(pin)] == 0x1F, "GPIO \(pin)'s function as it was") }
    #expect(words[PiGPIORegisters.rp1Control(18)] == 0x1F, "GPIO 18, joined to 4 by the PWM mod, never driven")
    #expect(words[PiGPIORegisters.rp1RIO + PiGPIORegisters.rp1SetAlias] == 1 << 4, "the last write to the set alias: OE high, dark")
  }

  /// Every row address kind on a Pi 5, the binary end to end: it claims the colour lines,
  /// the clock, latch and OE and exactly the address lines its kind drives (the 128x64 ABC
  /// panel, `b707`, that hzeller's Pi 5 code refuses, among them), refreshes, and gives
  /// every line back.
  @Test(arguments: [
    ("direct", 64, 32), ("ab-shift", 64, 32), ("abcd-line", 32, 16), ("abc-shift", 64, 32), ("sm5266", 64, 64), ("b707", 128, 64),
  ])
  func onAPi5EveryRowAddressKindRuns(_ kind: String, _ columns: Int, _ rows: Int) throws {
    let pi = PiFixtures.FakePi(tree: try PiFixtures.pi5Tree(), registers: try PiFixtures.rp1RegisterFile())
    defer { pi.remove() }
    let folder = NSTemporaryDirectory() + "marquee-pi5-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let multiplexing = kind == "abcd-line" ? "zstripe" : "direct"
    let json = #"{"driver": "hub75", "panel": {"rows": \#(rows), "columns": \#(columns)}, "rowAddress": "\#(kind)", "multiplexing": "\#(multiplexing)", "colorDepth": 2}"#
    try json.write(toFile: folder + "/board.json", atomically: true, encoding: .utf8)
    let board = try #require(try SignBoard(json: json, path: "board.json").family as? HUB75Board)
    let child = try BinaryRunner.start(
      ["--board", folder + "/board.json", "--fps", "20", "Pi 5"], environment: HUB75BinaryTests.environment(registers: pi.registers, tree: pi.tree))
    // The regular map: colours, clock, latch, OE; A-E are 22, 23, 24, 25, 15.
    let always = [11, 27, 7, 8, 9, 10, 17, 4, 18], address = [22, 23, 24, 25, 15]
    let driven = Set(board.rowAddress.lines(rowPairs: board.rowPairs).map { address[$0] })
    #expect(eventually(within: 20) {
      let words = (try? PiFixtures.words(pi.registers)) ?? []
      return words.count == 0x30000 / 4 && (always + driven).allSatisfy { words[PiGPIORegisters.rp1Control($0)] & 0x1F == 5 }
    }, "\(kind): the lines given to RIO")
    let words = try PiFixtures.words(pi.registers)
    for line in address where !driven.contains(line) {
      #expect(words[PiGPIORegisters.rp1Control(line)] == 0x1F, "\(kind): GPIO \(line) is not an address line it drives")
    }
    child.send(SIGTERM)
    let result = child.wait()
    #expect(result.status == 128 + SIGTERM, "\(result.stderr)")
    let after = try PiFixtures.words(pi.registers)
    for pin in always + address { #expect(after[PiGPIORegisters.rp1Control(pin)] == 0x1F, "\(kind): GPIO \(pin)'s function as it was") }
  }

  /// A board file without `colorDepth` takes the planes its colours need: one for pure red,
  /// yellow or white text (each channel off or full; brightness is the OE duty), seven for
  /// the named amber and eight for its red, whose levels need them; the trace's pulses say how many planes
  /// each row pair shows, and the frame decodes right either way.
  @Test(arguments: [("#ff0000", 1), ("#ffff00", 1), ("#ffffff", 1), ("amber", 7), ("red", 8)])
  func aBoardWithoutDepthTakesThePlanesItsColoursNeed(_ color: String, _ planes: Int) throws {
    let folder = NSTemporaryDirectory() + "marquee-depth-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let json = #"{"driver": "hub75", "panel": {"rows": 16, "columns": 32}}"#
    try json.write(toFile: folder + "/board.json", atomically: true, encoding: .utf8)
    let run = try BinaryRunner.run(["--board", folder + "/board.json", "--hub75-dump", folder + "/trace.txt", "--frames", "1", "--color", color, "Hi"])
    #expect(run.status == 0, "\(run.stderr)")
    let read = try HUB75Trace.read(try String(contentsOfFile: folder + "/trace.txt", encoding: .utf8))
    let pulses = read.steps.filter { if case .pulse = $0 { true } else { false } }
    #expect(pulses.count == 8 * planes, "\(color): \(pulses.count) pulses for 8 row pairs")
    let board = try #require(try SignBoard(json: json, path: "board.json").family as? HUB75Board)
    let fitted = board.fitted(to: [try #require(LEDColor(color)).rgb])
    #expect(fitted.colorDepth == planes)
    var panels = HUB75Emulator(board: fitted)
    for step in read.steps { panels.run(step) }
    let frame = try HUB12KernelTests.expected("Hi", width: 32, height: 16)
    var wrong = 0
    for y in 0..<16 { for x in 0..<32 where (panels.color(x: x, y: y) != (0, 0, 0)) != frame[x, y] { wrong += 1 } }
    #expect(wrong == 0 && panels.badSelections == 0)
  }

  /// `ditherBits` in a board file: the trace holds 2^d refreshes of the top planes, and the
  /// emulated panels add them up to 2^d times the frame's levels in the sign's colour.
  @Test func aDitheredBoardsTraceAddsUpToTheFrame() throws {
    let folder = NSTemporaryDirectory() + "marquee-dither-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let json = #"{"driver": "hub75", "panel": {"rows": 16, "columns": 32}, "colorDepth": 6, "ditherBits": 2}"#
    try json.write(toFile: folder + "/board.json", atomically: true, encoding: .utf8)
    let run = try BinaryRunner.run(["--board", folder + "/board.json", "--hub75-dump", folder + "/trace.txt", "--frames", "1", "--color", "amber", "Hi"])
    #expect(run.status == 0, "\(run.stderr)")
    let board = try #require(try SignBoard(json: json, path: "board.json").family as? HUB75Board)
    var panels = HUB75Emulator(board: board)
    for step in try HUB75Trace.read(try String(contentsOfFile: folder + "/trace.txt", encoding: .utf8)).steps { panels.run(step) }
    #expect(panels.pulses.enumerated().allSatisfy { $0.element == ($0.offset % 6 < 2 ? 0 : 4) }, "4 refreshes of planes 2-5")
    let level = { (value: UInt8) in min(HUB75Encoder.level(value, depth: 6, lightness: true), 64 - 4) << 2 }
    let amber = (level(LEDColor.amber.rgb.red), level(LEDColor.amber.rgb.green), level(LEDColor.amber.rgb.blue))
    let frame = try HUB12KernelTests.expected("Hi", width: 32, height: 16)
    var wrong = 0
    for y in 0..<16 { for x in 0..<32 where panels.color(x: x, y: y) != (frame[x, y] ? amber : (0, 0, 0)) { wrong += 1 } }
    #expect(wrong == 0)
  }

  @Test func aMachineThatIsNoPiIsRefused() throws {
    let pi = PiFixtures.FakePi(
      tree: try PiFixtures.deviceTree(["radxa,rock-5b", "rockchip,rk3588"], model: "Radxa ROCK 5B", ranges: []),
      registers: try PiFixtures.registerFile(length: 4096))
    defer { pi.remove() }
    let (tree, registers) = (pi.tree, pi.registers)
    let run = try BinaryRunner.run(
      ["--board", "hub75-p4-64x32", "--frames", "3", "Hi"], environment: HUB75BinaryTests.environment(registers: registers, tree: tree))
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("Error: this machine is not a Raspberry Pi 1 to 5 ('Radxa ROCK 5B'): its device tree names radxa,rock-5b, rockchip,rk3588."))
  }

  @Test func pinsHeldBySPIOrAMissingDeviceAreClearErrors() throws {
    let pi = PiFixtures.FakePi(tree: try PiFixtures.pi4Tree(), registers: try PiFixtures.registerFile(length: 4096, functions: [9: 4, 10: 4, 11: 4]))
    defer { pi.remove() }
    let (tree, registers) = (pi.tree, pi.registers)
    var run = try BinaryRunner.run(
      ["--board", "hub75-p4-64x32", "--frames", "3", "Hi"], environment: HUB75BinaryTests.environment(registers: registers, tree: tree))
    #expect(run.status == 1)
    #expect(run.stderr.contains("Error: GPIO 11 (R1) is in use as ALT0 (SPI0: turn SPI off with dtparam=spi=off in config.txt)"), "\(run.stderr)")
    #expect(try PiFixtures.words(registers)[0...2] == [4 << 27, 4 | 4 << 3, 0], "nothing changed")
    run = try BinaryRunner.run(
      ["--board", "hub75-p4-64x32", "--frames", "3", "Hi"], environment: HUB75BinaryTests.environment(registers: registers + ".missing", tree: tree))
    #expect(run.status == 1)
    #expect(run.stderr.contains("Error: /dev/gpiomem: no such device"), "\(run.stderr)")
    var refused = HUB75BinaryTests.environment(registers: registers, tree: tree)
    refused["MARQUEE_FAKE_OPEN_ERRNO"] = "\(EACCES)"
    run = try BinaryRunner.run(["--board", "hub75-p4-64x32", "--frames", "3", "Hi"], environment: refused)
    #expect(run.status == 1)
    #expect(run.stderr.contains("Error: /dev/gpiomem: permission denied — add your user to the 'gpio' group"), "\(run.stderr)")
  }

  @Test func optionsThatDoNotFitAHUB75SignAreUsageErrors() throws {
    var run = try BinaryRunner.run(["--board", "hub75-p4-64x32", "--keep", "Hi"])
    #expect(run.status == 64 && run.stderr.contains("'--keep': HUB75 panels hold nothing"))
    run = try BinaryRunner.run(["--board", "hub75-p4-64x32", "--spi-dump", "/dev/null", "Hi"])
    #expect(run.status == 64)
    #expect(run.stderr.contains("is driven through the GPIO registers: write its bytes with '--hub75-dump <file>', not '--spi-dump'"), "\(run.stderr)")
    run = try BinaryRunner.run(["--board", "ws2812-8x32", "--hub75-dump", "/dev/null", "Hi"])
    #expect(run.status == 64 && run.stderr.contains("is on an SPI bus: write its bytes with '--spi-dump <file>', not '--hub75-dump'"))
    run = try BinaryRunner.run(["--board", "hub75-p4-64x32", "--hub75-dump", "/dev/null", "--spi-dump", "/dev/null", "Hi"])
    #expect(run.status == 64 && run.stderr.contains("Use one of '--spi-dump', '--hub75-dump'"))
  }

  @Test func theSimulatorShowsWhatTheEmulatedPanelsLight() throws {
    let run = try BinaryRunner.run(["--board", "hub75-p10-outdoor-32x16", "--simulate", "--output", "ascii", "--frames", "1", "P10"])
    #expect(run.status == 0, "\(run.stderr)")
    let shown = asciiFrames(run.stdout).first ?? []
    let expected = try HUB12KernelTests.expected("P10", width: 32, height: 16)
    var pixels = Framebuffer(width: 32, height: 16)
    for (y, row) in shown.prefix(16).enumerated() {
      for (x, character) in row.enumerated() where character == "#" { pixels[x, y] = true }
    }
    #expect(pixels == expected)
  }
}

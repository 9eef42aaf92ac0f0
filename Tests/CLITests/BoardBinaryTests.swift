import Drivers
import Foundation
import TestSupport
import Testing

/// Decodes a `--spi-dump` of an FC-16 chain knowing only the documented convention: each
/// transaction is 2 x N bytes; the last word of a transaction lands in chip 0, the rightmost
/// module; register r+1 holds pixel row r; bit 7 is the module's leftmost pixel. Returns the
/// pixels after each transaction, as '#'/'.' rows.
func decodeFC16Dump(_ bytes: [UInt8], modules: Int) -> [[String]] {
  var digits = [[UInt8]](repeating: [UInt8](repeating: 0, count: 8), count: modules)
  var awake = [Bool](repeating: false, count: modules)
  var states: [[String]] = []
  let size = 2 * modules
  for start in stride(from: 0, to: bytes.count - size + 1, by: size) {
    for word in 0..<modules {
      let chip = modules - 1 - word  // first word -> farthest chip
      let register = bytes[start + 2 * word] & 0x0F, data = bytes[start + 2 * word + 1]
      if (1...8).contains(register) { digits[chip][Int(register) - 1] = data }
      if register == 0x0C { awake[chip] = data & 1 == 1 }
    }
    var rows: [String] = []
    for row in 0..<8 {
      var line = ""
      for module in 0..<modules {
        let chip = modules - 1 - module  // module 0 is the leftmost = the farthest chip
        for bit in stride(from: 7, through: 0, by: -1) {
          line += awake[chip] && digits[chip][row] & (1 << UInt8(bit)) != 0 ? "#" : "."
        }
      }
      rows.append(line)
    }
    states.append(rows)
  }
  return states
}

@Suite(.offThePool) struct BoardBinaryTests {
  let fc16 = "Boards/max7219-fc16-32x8.json"

  func temporaryPath(_ name: String) -> String {
    NSTemporaryDirectory() + "marquee-\(getpid())-\(name)"
  }

  @Test func dumpDecodedIndependentlyMatchesTheSimulator() throws {
    let dump = temporaryPath("hi.bin")
    defer { try? FileManager.default.removeItem(atPath: dump) }
    let sent = try BinaryRunner.run(["--board", fc16, "--spi-dump", dump, "--frames", "1", "--keep", "--align", "left", "HI"])
    #expect(sent.status == 0, "\(sent.stderr)")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dump)))
    #expect(bytes.count % 8 == 0)
    let shown = try #require(decodeFC16Dump(bytes, modules: 4).last)
    let simulated = try BinaryRunner.run(["--board", fc16, "--simulate", "--output", "ascii", "--frames", "1", "--align", "left", "HI"])
    #expect(simulated.status == 0)
    let frame = try #require(asciiFrames(simulated.stdout).first)
    #expect(shown == frame)
    #expect(frame[0].hasPrefix("#...#.###"))
  }

  @Test func withoutKeepTheDumpEndsBlankAndShutDown() throws {
    let dump = temporaryPath("blank.bin")
    defer { try? FileManager.default.removeItem(atPath: dump) }
    let result = try BinaryRunner.run(["--board", fc16, "--spi-dump", dump, "--frames", "3", "--no-wait", "HELLO WORLD"])
    #expect(result.status == 0)
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dump)))
    #expect(Array(bytes.suffix(8)) == [0x0C, 0, 0x0C, 0, 0x0C, 0, 0x0C, 0])
    let states = decodeFC16Dump(bytes, modules: 4)
    #expect(states.last!.allSatisfy { !$0.contains("#") })
    #expect(states.contains { $0.contains { $0.contains("#") } })
  }

  @Test func aStillFrameIsNotSentAgain() throws {
    let dump = temporaryPath("still.bin")
    defer { try? FileManager.default.removeItem(atPath: dump) }
    _ = try BinaryRunner.run(["--board", fc16, "--spi-dump", dump, "--frames", "1", "--keep", "HI"])
    let one = try Data(contentsOf: URL(fileURLWithPath: dump)).count
    _ = try BinaryRunner.run(["--board", fc16, "--spi-dump", dump, "--frames", "50", "--fps", "1000", "--keep", "HI"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: dump)).count == one)
  }

  @Test func simulateUsesTheBoardsGeometry() throws {
    let result = try BinaryRunner.run(["--board", "Boards/max7219-fc16-32x16.json", "--simulate", "--output", "ascii", "--frames", "1", "X"])
    let frame = try #require(asciiFrames(result.stdout).first)
    #expect(frame.count == 16 && frame[0].count == 32)
  }

  @Test func boardsListsTheNamesBoardTakes() throws {
    let result = try BinaryRunner.run(["boards"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first?.hasPrefix("NAME") == true)
    for name in ["max7219-fc16-32x8", "max7219-fc16-64x8", "max7219-fc16-32x16", "max7219-generic-8x8",
                 "max7219-icstation-32x8", "max7219-fc16-luma-32x8", "max7219-fc16-luma-64x8"] {
      #expect(lines.contains { $0.hasPrefix(name + " ") }, "\(name) listed")
    }
    #expect(!result.stdout.contains("unusable"))
  }

  @Test func aBoardNameWorksInAnyCaseFromAnyFolderAndAnUnknownOneIsAUsageError() throws {
    // From another folder, the package's own Boards/ still has the name.
    let elsewhere = try ChildProcess.shell(
      "cd / && '\(BinaryRunner.path)' --board MAX7219-FC16-32x8 --simulate --frames 1 --output ascii Hi")
    #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
    #expect(asciiFrames(elsewhere.stdout).first?.count == 8)
    let typo = try BinaryRunner.run(["--board", "max7219-fc16-32x9", "--simulate", "X"])
    #expect(typo.status == 64)
    #expect(typo.stderr.contains("No board named 'max7219-fc16-32x9'. Did you mean 'max7219-fc16-32x8'?"))
  }

  @Test func aFolderInMarqueeBoardsAddsItsBoards() throws {
    let folder = temporaryPath("boards-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try #"{"name": "Shop window", "driver": "max7219", "module": "fc16", "grid": {"columns": 2}}"#
      .write(toFile: folder + "/shop-window.json", atomically: false, encoding: .utf8)
    let listing = try BinaryRunner.run(["boards"], environment: ["MARQUEE_BOARDS": folder])
    #expect(listing.stdout.contains("shop-window"))
    let run = try BinaryRunner.run(["--board", "shop-window", "--simulate", "--frames", "1", "--output", "ascii", "X"],
                                   environment: ["MARQUEE_BOARDS": folder])
    #expect(run.status == 0 && asciiFrames(run.stdout).first?.first?.count == 16, "\(run.stderr)")
  }

  func board(_ json: String) throws -> String {
    let path = temporaryPath("board-\(UUID().uuidString).json")
    try json.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  @Test(arguments: [
    (#"{"module": "fc16", "grid": {"columns": 4}}"#, "field 'driver': missing (it is required)"),
    (#"{"driver": "max7219", "module": "fc16", "grid": {"columns": "four"}}"#,
     "field 'grid.columns': expected a whole number from 1 to 256, got the string \"four\""),
    (#"{"driver": "max7219", "module": "fc16", "grid": {"columns": 4}, "intensity": 16}"#,
     "field 'intensity': 16 is out of range (0 to 15)"),
    (#"{"driver": "max7219", "module": "fc17", "grid": {"columns": 4}}"#,
     "field 'module': 'fc17' is not a module variant"),
    (#"{"driver": "max7219", "module": "fc16", "grid": {"columns": 4}, "rotaton": 90}"#,
     "field 'rotaton': unknown field"),
    (#"{"driver": "max7219", "module": "fc16", "grid": {"columns": 4}, "rotation": 45}"#,
     "field 'rotation': 45 is not 0, 90, 180 or 270"),
    (#"{"driver": "max7219", "module": "fc16", "grid": {"columns": 4}"#, "line 1, column"),
  ])
  func badBoardFilesAreRejectedBeforeAnythingIsSent(json: String, message: String) throws {
    let path = try board(json)
    let dump = temporaryPath("never-\(UUID().uuidString).bin")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try BinaryRunner.run(["--board", path, "--spi-dump", dump, "--frames", "1", "X"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: \(path): \(message)"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dump))
  }

  @Test func missingDeviceAndRegularFileGetClearErrors() throws {
    let missing = try board(#"{"driver": "max7219", "module": "fc16", "grid": {"columns": 4}, "spi": {"device": "/dev/spidev7.3"}}"#)
    defer { try? FileManager.default.removeItem(atPath: missing) }
    let result = try BinaryRunner.run(["--board", missing, "--frames", "1", "X"])
    #expect(result.status == 1)
    #expect(result.stderr == "Error: /dev/spidev7.3: no such device — is SPI enabled (dtparam=spi=on)?\n")
    let plain = temporaryPath("plain-file")
    _ = FileManager.default.createFile(atPath: plain, contents: Data())
    defer { try? FileManager.default.removeItem(atPath: plain) }
    let regular = try board(#"{"driver": "max7219", "module": "fc16", "grid": {"columns": 4}, "spi": {"device": "\#(plain)"}}"#)
    defer { try? FileManager.default.removeItem(atPath: regular) }
    let second = try BinaryRunner.run(["--board", regular, "--frames", "1", "X"])
    #expect(second.status == 1)
    #expect(second.stderr.hasPrefix("Error: \(plain): not an SPI device"))
  }

  @Test func aWriteThatFailsMidRunEndsWithAClearError() throws {
    let result = try BinaryRunner.run(["--board", fc16, "--spi-dump", "/dev/full", "--frames", "5", "HI"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("Error: /dev/full: No space left on device"))
  }

  @Test func boardOptionsNeedABoardAndSizesMustMatch() throws {
    #expect(try BinaryRunner.run(["--simulate", "X"]).status == 64)
    let mismatch = try BinaryRunner.run(["--board", fc16, "--simulate", "--width", "40", "X"])
    #expect(mismatch.status == 64)
    #expect(mismatch.stderr.contains("do not match the board's 32x8"))
  }
}

@Suite(.offThePool) struct IdentifyBinaryTests {
  @Test func identifyLightsEachModuleInChainOrder() throws {
    let result = try BinaryRunner.run([
      "identify", "--board", "Boards/max7219-fc16-64x8.json", "--simulate", "--output", "ascii",
      "--fps", "1", "--frames", "8", "--no-wait",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let frames = asciiFrames(result.stdout)
    try #require(frames.count == 8)
    for (chip, frame) in frames.enumerated() {
      // Chip 0 is the rightmost module of an FC-16 row; its top-left pixel is lit.
      let module = 7 - chip
      let top = Array(frame[0])
      #expect(top[module * 8] == "#", "chip \(chip)")
      let litColumns = (0..<64).filter { x in frame.contains { Array($0)[x] == "#" } }
      #expect(litColumns.allSatisfy { $0 / 8 == module }, "only module \(module) lights")
    }
  }

  /// Each zone of a layout lights in its own colour on an RGB panel: the SPI bytes, decoded
  /// by the WS2812B emulator.
  @Test func zonesOfALayoutLightInTheirColoursOnAnRGBPanel() throws {
    let dump = NSTemporaryDirectory() + "marquee-rgb-zones-\(getpid()).bin"
    defer { try? FileManager.default.removeItem(atPath: dump) }
    let result = try BinaryRunner.run([
      "--board", "ws2812-16x16", "--layout", "Docs/examples/rgb-zones.json", "--spi-dump", dump, "--frames", "1", "--no-wait",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
    try #require(bytes.count == 3 * 2490, "dark, one frame, dark")
    var emulator = WS2812Emulator(ledCount: 256)
    emulator.receive(bytes[2490..<4980], speedHz: 2_400_000)
    let board = try SignBoard(json: try String(contentsOfFile: "Boards/ws2812-16x16.json", encoding: .utf8), path: "b")
    guard let panel = board.family as? PixelBoard else { return }
    // The panel's 500 mA limit dims the frame as a whole, so check each zone's hue and that
    // both share one scale: the full channel (blue above, red below) is the same everywhere.
    var top = 0, bottom = 0
    var full = Set<UInt8>()
    for (index, pixel) in panel.ledPixels.enumerated() {
      let led = Array(emulator.led(index)).map(Int.init)  // g, r, b
      guard led != [0, 0, 0] else { continue }
      if pixel.y < 8 {
        top += 1
        #expect(led[1] == 0 && abs(led[0] * 255 - led[2] * 160) <= 255, "#00a0ff, LED \(index): \(led)")
        full.insert(UInt8(led[2]))
      } else {
        bottom += 1
        #expect(led[2] == 0 && abs(led[0] * 255 - led[1] * 170) <= 255, "amber (255, 170, 0), LED \(index): \(led)")
        full.insert(UInt8(led[1]))
      }
    }
    #expect(full.count == 1 && full.first! > 0 && full.first! <= 64, "one scale for both zones, at most a quarter")
    #expect(top > 0 && bottom > 0)
  }

  /// Backpacks light in the order listed, panels from the host with their first LED marked.
  @Test func identifyLightsBackpacksAndPanelsInDataOrder() throws {
    let backpacks = try BinaryRunner.run([
      "identify", "--board", "ht16k33-adafruit-32x8", "--simulate", "--output", "ascii", "--fps", "1", "--frames", "4", "--no-wait",
    ])
    #expect(backpacks.status == 0, "\(backpacks.stderr)")
    for (index, frame) in asciiFrames(backpacks.stdout).enumerated() {
      let litColumns = (0..<32).filter { x in frame.contains { Array($0)[x] == "#" } }
      #expect(!litColumns.isEmpty && litColumns.allSatisfy { $0 / 8 == index }, "backpack \(index) at 0x7\(index)")
      #expect(Array(frame[0])[index * 8] == "#", "its top-left pixel")
    }
    // HUB12 panels from the host: the rightmost P10 first.
    let hub12 = try BinaryRunner.run([
      "identify", "--board", "hub12-p10-128x16", "--simulate", "--output", "ascii", "--fps", "1", "--frames", "4", "--no-wait",
    ])
    #expect(hub12.status == 0, "\(hub12.stderr)")
    for (index, frame) in asciiFrames(hub12.stdout).enumerated() {
      let litColumns = (0..<128).filter { x in frame.contains { Array($0)[x] == "#" } }
      #expect(!litColumns.isEmpty && litColumns.allSatisfy { $0 / 32 == 3 - index }, "P10 \(index) from the host")
      #expect(Array(frame[0])[(3 - index) * 32] == "#", "its top-left pixel")
    }
    let panels = try BinaryRunner.run([
      "identify", "--board", "ws2812-64x8-two-panels", "--simulate", "--output", "ascii", "--fps", "1", "--frames", "2", "--no-wait",
    ])
    #expect(panels.status == 0, "\(panels.stderr)")
    let frames = asciiFrames(panels.stdout)
    try #require(frames.count == 2)
    for (index, frame) in frames.enumerated() {
      let litColumns = (0..<64).filter { x in frame.contains { Array($0)[x] == "#" } }
      #expect(!litColumns.isEmpty && litColumns.allSatisfy { $0 / 32 == index }, "panel \(index)")
      #expect(Array(frame[0])[index * 32] == "#", "the panel's first LED, top-left")
    }
  }
}

@Suite(.offThePool) struct SignalDumpTests {
  @Test func eachStoppingSignalBlanksAndShutsDownTheChain() throws {
    for (signal, name) in [(SIGINT, "INT"), (SIGTERM, "TERM"), (SIGHUP, "HUP")] {
      let dump = NSTemporaryDirectory() + "marquee-signal-\(getpid())-\(name).bin"
      defer { try? FileManager.default.removeItem(atPath: dump) }
      let child = try BinaryRunner.start(["--board", "Boards/max7219-fc16-32x8.json", "--spi-dump", dump, "--fps", "20", "a long message that scrolls along"])
      // Wait (bounded) until frames are being sent, then signal.
      for _ in 0..<100 where ((try? FileManager.default.attributesOfItem(atPath: dump)[.size] as? Int) ?? 0) < 200 {
        Thread.sleep(forTimeInterval: 0.02)
      }
      child.send(signal)
      let result = child.wait(timeout: 30)
      #expect(!result.timedOut && !result.signalled && result.status == 128 + signal, "SIG\(name): \(result)")
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dump)))
      #expect(Array(bytes.suffix(8)) == [0x0C, 0, 0x0C, 0, 0x0C, 0, 0x0C, 0], "SIG\(name): ends with shutdown")
      let states = decodeFC16Dump(bytes, modules: 4)
      #expect(states.last!.allSatisfy { !$0.contains("#") }, "SIG\(name): blank")
    }
  }
}

/// `--intensity` sets the board's step at full brightness, the ceiling of every fade and level.
@Suite(.offThePool) struct BrightnessBinaryTests {
  /// The intensity register values written, in order, from a dump of 4-chip transactions.
  func intensities(_ arguments: [String]) throws -> [UInt8] {
    let dump = NSTemporaryDirectory() + "marquee-brightness-\(getpid())-\(UUID().uuidString).bin"
    defer { try? FileManager.default.removeItem(atPath: dump) }
    let result = try BinaryRunner.run(["--board", "max7219-fc16-32x8", "--spi-dump", dump] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dump)))
    return stride(from: 0, to: bytes.count - 1, by: 2).compactMap { bytes[$0] == 0x0A ? bytes[$0 + 1] : nil }
  }

  @Test func theStartUpAndEveryFadeStayUnderTheBrightnessGiven() throws {
    let fade = ["--mode", "cycle", "--in", "fade", "--dwell", "0.1", "--duration", "0.5", "--fps", "50", "--frames", "60",
                "--no-wait", "ONE", "TWO"]
    let board = try intensities(fade)
    #expect(board.first == 7, "the board file's brightness")
    let dimmed = try intensities(["--intensity", "3"] + fade)
    #expect(dimmed.first == 3)
    #expect(dimmed.allSatisfy { $0 <= 3 } && Set(dimmed).count > 1, "a fade under the ceiling: \(Set(dimmed).sorted())")
    #expect(try BinaryRunner.run(["--intensity", "3", "X"]).status == 64)
    #expect(try BinaryRunner.run(["--board", "max7219-fc16-32x8", "--simulate", "--intensity", "16", "X"]).status == 64)
  }

  /// The old name of the board's step (`--brightness`, a board file's `brightness`) still
  /// works as `intensity` does, so a sign set up before the rename starts the same.
  @Test func theOldNameOfTheIntensityStillWorks() throws {
    let still = ["--frames", "2", "--no-wait", "X"]
    #expect(try intensities(["--brightness", "3"] + still).first == 3)
    let folder = NSTemporaryDirectory() + "marquee-old-brightness-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let old = folder + "/old.json", both = folder + "/both.json"
    try #"{"driver": "max7219", "module": "fc16", "grid": {"columns": 4}, "brightness": 2}"#.write(toFile: old, atomically: true, encoding: .utf8)
    try #"{"driver": "max7219", "module": "fc16", "grid": {"columns": 4}, "brightness": 2, "intensity": 4}"#
      .write(toFile: both, atomically: true, encoding: .utf8)
    let dump = folder + "/spi.bin"
    let result = try BinaryRunner.run(["--board", old, "--spi-dump", dump] + still)
    #expect(result.status == 0 && result.stderr.contains("Notice: \(old): 'brightness' is the old name"), "\(result.stderr)")
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dump)))
    #expect(stride(from: 0, to: bytes.count - 1, by: 2).first { bytes[$0] == 0x0A }.map { bytes[$0 + 1] } == 2)
    let refused = try BinaryRunner.run(["--board", both, "--simulate"] + still)
    #expect(refused.status == 64 && refused.stderr.contains("field 'brightness': the old name of 'intensity'; give one of them"), "\(refused.stderr)")
  }
}

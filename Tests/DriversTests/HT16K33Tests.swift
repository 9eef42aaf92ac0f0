import MarqueeTesting
import MatrixCore
import SimpleJSON
import Testing

@testable import Drivers
@testable import MAX7219Core

/// HT16K33 backpacks: the bytes on the bus checked against Adafruit's drawing rules, and
/// round trips through the chip emulator.
@Suite struct HT16K33Tests {
  static func board(_ module: HT16K33Module, color: HT16K33Module.Color = .green, rotation: ModuleRotation = .none) throws
    -> HT16K33Board
  {
    try HT16K33Board(
      name: "t", backpacks: [.init(address: 0x70, module: module, x: 0, y: 0, rotation: rotation)], color: color)
  }

  /// The RAM one frame of a single pixel writes (the 16 bytes after the pointer of the
  /// first full write that follows start-up).
  static func ram(_ board: HT16K33Board, litAt x: Int, _ y: Int) -> [UInt8] {
    var encoder = HT16K33Encoder(board: board)
    var writes = I2CWrites()
    encoder.startUp(into: &writes)
    writes.removeAll()
    var frame = Frame(width: board.width, height: board.height)
    frame.pixels[x, y] = true
    encoder.encode(frame, into: &writes)
    var ram = [UInt8](repeating: 0, count: 16)
    for index in 0..<writes.count {
      let bytes = Array(writes.bytes(index))
      for (offset, byte) in bytes.dropFirst().enumerated() { ram[Int(bytes[0]) + offset] = byte }
    }
    return ram
  }

  /// Adafruit_8x8matrix::drawPixel at rotation 0: bit (x + 7) % 8 of byte 2y.
  @Test func the8x8BackpackHasAdafruitsColumnQuirk() throws {
    let board = try HT16K33Tests.board(.matrix8x8)
    for y in 0..<8 {
      for x in 0..<8 {
        var expected = [UInt8](repeating: 0, count: 16)
        expected[2 * y] = 1 << UInt8((x + 7) % 8)
        #expect(HT16K33Tests.ram(board, litAt: x, y) == expected, "pixel \(x),\(y)")
      }
    }
  }

  /// Adafruit_8x16matrix::drawPixel: lying (rotation 1, no transform) x is bit x of row y;
  /// standing (rotation 0) x, y becomes x' = y, y' = 7 - x.
  @Test func the16x8BackpackLyingAndStanding() throws {
    let lying = try HT16K33Tests.board(.matrix16x8)
    let standing = try HT16K33Tests.board(.matrix8x16)
    #expect((lying.width, lying.height) == (16, 8))
    #expect((standing.width, standing.height) == (8, 16))
    for y in 0..<8 {
      for x in 0..<16 {
        var expected = [UInt8](repeating: 0, count: 16)
        expected[2 * y + x / 8] = 1 << UInt8(x % 8)
        #expect(HT16K33Tests.ram(lying, litAt: x, y) == expected)
      }
    }
    for y in 0..<16 {
      for x in 0..<8 {
        let (row, common) = (y, 7 - x)
        var expected = [UInt8](repeating: 0, count: 16)
        expected[2 * common + row / 8] = 1 << UInt8(row % 8)
        #expect(HT16K33Tests.ram(standing, litAt: x, y) == expected)
      }
    }
  }

  /// Adafruit_BicolorMatrix::drawPixel: green is bit x of byte 2y, red bit x of byte 2y + 1.
  @Test func theBicolorBackpackLightsTheColourTheBoardSays() throws {
    for (color, green, red) in [(HT16K33Module.Color.green, true, false), (.red, false, true), (.yellow, true, true)] {
      let board = try HT16K33Tests.board(.bicolor8x8, color: color)
      var expected = [UInt8](repeating: 0, count: 16)
      if green { expected[2 * 5] = 1 << 3 }
      if red { expected[2 * 5 + 1] = 1 << 3 }
      #expect(HT16K33Tests.ram(board, litAt: 3, 5) == expected, "\(color)")
    }
  }

  @Test func startUpAndShutdownFollowTheDatasheet() throws {
    let board = try HT16K33Board(
      name: "t", backpacks: [.init(address: 0x70, module: .matrix8x8, x: 0, y: 0), .init(address: 0x74, module: .matrix8x8, x: 8, y: 0)],
      intensity: 9)
    var display = try HT16K33Display(board: board, transport: I2CRecordingTransport())
    let zeros = [UInt8](repeating: 0, count: 17)
    let startUp: [(UInt8, [UInt8])] = [
      (0x70, [0x21]), (0x70, [0xE9]), (0x74, [0x21]), (0x74, [0xE9]), (0x70, zeros), (0x74, zeros), (0x70, [0x81]), (0x74, [0x81]),
    ]
    #expect(display.transport.messages.map(\.address) == startUp.map(\.0))
    #expect(display.transport.messages.map(\.bytes) == startUp.map(\.1))
    try display.shutdown()
    let rest = display.transport.messages.dropFirst(startUp.count)
    #expect(rest.map(\.address) == [0x70, 0x74, 0x70, 0x70, 0x74, 0x74])
    #expect(rest.map(\.bytes) == [zeros, zeros, [0x80], [0x20], [0x80], [0x20]])
  }

  /// An off period: the chips go dark and into standby (display off, oscillator off), and
  /// the next frame starts them up and lights it whole, as the emulated chips show.
  @Test func sleepIsStandbyAndTheNextFrameWakesTheChips() throws {
    let board = try HT16K33Tests.board(.matrix8x8)
    var display = try HT16K33Display(board: board, transport: I2CRecordingTransport())
    var frame = Frame(width: 8, height: 8)
    frame.pixels[2, 2] = true
    try display.show(frame, changed: true)
    var emulator = HT16K33Emulator(addresses: [0x70])
    func lit() -> Bool { (0..<16).contains { row in (0..<8).contains { emulator.chips[0x70]!.isLit(row: row, common: $0) } } }
    func replay(from start: Int) {
      for message in display.transport.messages.dropFirst(start) { emulator.receive(address: message.address, message.bytes[...]) }
    }
    replay(from: 0)
    #expect(lit())
    let awake = display.transport.messages.count
    try display.sleep()
    #expect(display.isAsleep)
    #expect(display.transport.messages.dropFirst(awake).suffix(2).map(\.bytes) == [[0x80], [0x20]])
    replay(from: awake)
    #expect(!lit(), "lit in standby")
    // The same frame again: not changed, yet it wakes the chips.
    let asleep = display.transport.messages.count
    try display.show(frame, changed: false)
    #expect(!display.isAsleep && display.transport.messages.dropFirst(asleep).first?.bytes == [0x21])
    replay(from: asleep)
    #expect(lit())
  }

  @Test func onlyTheChangedBytesAreWritten() throws {
    let board = try HT16K33Tests.board(.matrix16x8)
    var display = try HT16K33Display(board: board, transport: I2CRecordingTransport())
    let sent = display.transport.messages.count
    var frame = Frame(width: 16, height: 8)
    frame.pixels[3, 2] = true
    frame.pixels[12, 6] = true
    try display.show(frame, changed: true)
    // Bytes 4 (row 2, x 0-7) to 13 (row 6, x 8-15): one write from the pointer.
    #expect(display.transport.messages[sent].bytes == [0x04, 0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0x10])
    try display.show(frame, changed: true)
    #expect(display.transport.messages.count == sent + 1, "the same frame writes nothing")
    frame.pixels[3, 2] = false
    try display.show(frame, changed: true)
    #expect(display.transport.messages[sent + 1].bytes == [0x04, 0x00])
  }

  @Test func brightnessIsTheDimmingCommandAndZeroIsDark() throws {
    let board = try HT16K33Tests.board(.matrix8x8).with(intensity: 15)
    var emulation = HT16K33Emulation(board: board)
    var frame = Frame(width: 8, height: 8)
    frame.pixels[2, 2] = true
    var seen = Frame(width: 8, height: 8)
    frame.brightness = 0.5
    emulation.show(frame, into: &seen)
    #expect(emulation.emulator.bus.chips[0x70]!.dimming == 7)
    #expect(seen.brightness == 0.5 && seen.pixels == frame.pixels)
    frame.brightness = 0
    emulation.show(frame, into: &seen)
    #expect(seen.pixels == Framebuffer(width: 8, height: 8))
  }

  /// Random frames on tiled backpacks of every kind and turn, in any address order: what
  /// the emulated chips light is the frame.
  @Test func randomFramesRoundTripThroughTheEmulator() throws {
    var random = SplitMix64(seed: 16)
    for module in HT16K33Module.allCases {
      for rotation in ModuleRotation.allCases {
        let size = rotation.turned(width: module.width, height: module.height)
        let backpacks = (0..<4).map { index in
          HT16K33Board.Backpack(
            address: UInt8(0x77 - index), module: module, x: (index % 2) * size.width, y: (index / 2) * size.height,
            rotation: rotation)
        }
        let board = try HT16K33Board(name: "t", backpacks: backpacks.shuffled(using: &random), color: .yellow)
        var emulation = HT16K33Emulation(board: board)
        var seen = Frame(width: board.width, height: board.height)
        for _ in 0..<5 {
          let frame = randomFrame(width: board.width, height: board.height, using: &random)
          emulation.show(frame, into: &seen)
          #expect(seen.pixels == frame.pixels, "\(module) at \(rotation)")
        }
        #expect(emulation.emulator.bus.unacknowledged == 0)
        #expect(emulation.emulator.bus.chips.values.allSatisfy { $0.unknownCommands == 0 })
      }
    }
  }

  @Test func theEmulatorFollowsTheDatasheetsCommands() {
    var emulator = HT16K33Emulator(addresses: [0x70])
    // RAM writes start at the pointer and wrap from 0x0F to 0x00.
    emulator.receive(address: 0x70, [0x0E, 0xAA, 0xBB, 0xCC][...])
    #expect(emulator.chips[0x70]!.ram[14] == 0xAA && emulator.chips[0x70]!.ram[15] == 0xBB && emulator.chips[0x70]!.ram[0] == 0xCC)
    #expect(!emulator.chips[0x70]!.isLit(row: 1, common: 7), "dark until oscillator and display are on")
    emulator.receive(address: 0x70, [0x21][...])
    emulator.receive(address: 0x70, [0x85][...])  // display on, blink 2 (1 Hz)
    #expect(emulator.chips[0x70]!.isLit(row: 1, common: 7) && emulator.chips[0x70]!.blink == 2)
    emulator.receive(address: 0x70, [0x20][...])
    #expect(!emulator.chips[0x70]!.isLit(row: 1, common: 7), "standby is dark")
    let answered = emulator.receive(address: 0x71, [0x21][...])
    #expect(!answered && emulator.unacknowledged == 1, "no chip at 0x71 answers")
    emulator.receive(address: 0x70, [0x40][...])
    #expect(emulator.chips[0x70]!.unknownCommands == 1)
  }

  @Test func badBoardsNameTheField() throws {
    func error(_ json: String) -> String { boardFileError(json, path: "b.json") }
    #expect(error(#"{"driver": "ht16k33", "module": "8x8", "backpacks": [{"address": "0x70"}, {"address": 112, "x": 8}]}"#)
      == "b.json: field 'backpacks[1].address': 0x70 is used by another backpack")
    #expect(error(#"{"driver": "ht16k33", "module": "8x8", "backpacks": [{"address": "0x69"}]}"#)
      == "b.json: field 'backpacks[0].address': '0x69' is not an address from 0x70 to 0x77")
    #expect(error(#"{"driver": "ht16k33", "module": "8x8", "backpacks": [{"address": "0x70"}, {"address": "0x71", "x": 4}]}"#)
      == "b.json: field 'backpacks[1]': overlaps backpacks[0]")
    #expect(error(#"{"driver": "ht16k33", "backpacks": [{"address": "0x70"}]}"#)
      == "b.json: field 'backpacks[0].module': missing (and no 'module' for every backpack)")
    #expect(error(#"{"driver": "ht16k33", "module": "8x8", "backpacks": [{"address": "0x70"}], "intensity": 16}"#)
      == "b.json: field 'intensity': 16 is out of range (0 to 15)")
  }

  @Test func everyHT16K33BoardFileLoads() throws {
    for name in ["8x8", "32x8", "16x8", "8x16", "bicolor-8x8"] {
      let path = "Boards/ht16k33-adafruit-\(name).json"
      let board = try SignBoard(json: try String(contentsOfFile: path, encoding: .utf8), path: path)
      guard board.family is HT16K33Board else { Issue.record("\(path) is not an HT16K33 board"); continue }
    }
  }
}

import Foundation
import MatrixCore
import Platform
import Synchronization
import SimpleJSON
import TestSupport
import Testing

@testable import Drivers
@testable import MAX7219Core

/// HUB75 RGB panels: the refresh program decoded by the emulated panels in every wiring,
/// address kind, multiplexing, chain, parallel chains and depth; the trace; board files;
/// the Pi's registers mapped from a file.
@Suite struct HUB75Tests {
  static let amber = RGBColor(red: 255, green: 170, blue: 0)
  static let teal = RGBColor(red: 0, green: 200, blue: 160)

  /// Runs `frame` through the encoder and the emulated panels, one refresh after another,
  /// and checks the second: each lit pixel shows its zone's levels, dark ones nothing, each
  /// row pair and plane pulsed once, no clock edge with data, one row selected each pulse.
  static func roundTrip(_ board: HUB75Board, _ frame: Frame, regions: [ColorRegion], sourceLocation: SourceLocation = #_sourceLocation) {
    var encoder = HUB75Encoder(board: board, color: amber, regions: regions)
    var program = HUB75Program()
    encoder.encode(frame, into: &program)
    var panels = HUB75Emulator(board: board)
    // The driver chips' registers first, as the scanner writes them.
    if let panelInit = board.panelInit { panels.run(panelInit.program(for: board)) }
    for refresh in 0..<2 {
      panels.resetCounts()
      panels.run(program)
      let label = "\(board.name) refresh \(refresh)"
      #expect(panels.clockWithData == 0, "\(label)", sourceLocation: sourceLocation)
      #expect(panels.badSelections == 0, "\(label)", sourceLocation: sourceLocation)
      #expect(panels.pulses.allSatisfy { $0 == 1 }, "\(label)", sourceLocation: sourceLocation)
      #expect(panels.clocks == board.clocksPerRow * board.rowPairs * board.colorDepth, "\(label)", sourceLocation: sourceLocation)
      #expect(panels.latches == board.rowPairs * board.colorDepth, "\(label)", sourceLocation: sourceLocation)
      var wrong = 0
      for y in 0..<board.height {
        for x in 0..<board.width {
          let color = regions.last { $0.contains(x, y) }?.color ?? amber
          let level = { (value: UInt8) in HUB75Encoder.level(value, depth: board.colorDepth, lightness: board.lightnessCorrection) }
          let expected = frame.pixels[x, y] ? (level(color.red), level(color.green), level(color.blue)) : (0, 0, 0)
          if panels.color(x: x, y: y) != expected { wrong += 1 }
        }
      }
      #expect(wrong == 0, "\(label): \(wrong) pixels wrong", sourceLocation: sourceLocation)
    }
  }

  static func frame(_ board: HUB75Board, seed: UInt64) -> Frame {
    var random = SplitMix64(seed: seed)
    return randomFrame(width: board.width, height: board.height, using: &random)
  }

  /// A zone in teal over the sign's amber: its left half's top rows.
  static func regions(_ board: HUB75Board) -> [ColorRegion] {
    [ColorRegion(x: 0, y: 0, width: board.width / 2, height: max(1, board.height / 3), color: teal)]
  }

  @Test(arguments: HUB75RowAddress.allCases)
  func everyRowAddressKindLightsTheFrame(_ kind: HUB75RowAddress) throws {
    let (rows, multiplexing): (Int, HUB75Multiplexing) = switch kind {
    case .abcdLine: (16, .zstripe)
    case .sm5266: (64, .direct)
    default: (32, .direct)
    }
    let board = try HUB75Board(name: kind.rawValue, panelColumns: 32, panelRows: rows, rowAddress: kind, multiplexing: multiplexing, colorDepth: 3)
    HUB75Tests.roundTrip(board, HUB75Tests.frame(board, seed: 75), regions: HUB75Tests.regions(board))
  }

  /// No refresh outgrows the room the encoder gives its program at the first frame, nor the
  /// scanner's copy of it, so the frame loop allocates nothing for a frame with more lines
  /// changing than any before it: lit, striped, random, and in white the frame whose every
  /// clock takes lines both down and up (the most words), which fills the room exactly.
  @Test(arguments: HUB75RowAddress.allCases)
  func noRefreshOutgrowsTheRoomOfTheFirst(_ kind: HUB75RowAddress) throws {
    let rows = kind == .abcdLine ? 16 : kind == .sm5266 ? 64 : 32
    let board = try HUB75Board(
      name: kind.rawValue, panelColumns: 32, panelRows: rows, rowAddress: kind, multiplexing: kind == .abcdLine ? .zstripe : .direct,
      colorDepth: 3)
    var encoder = HUB75Encoder(board: board, color: RGBColor(red: 255, green: 255, blue: 255))
    func frame(_ lit: (Int, Int) -> Bool) -> Frame {
      var frame = Frame(width: board.width, height: board.height)
      for y in 0..<board.height { for x in 0..<board.width where lit(x, y) { frame.pixels[x, y] = true } }
      return frame
    }
    let frames = [frame { x, _ in x == 0 }, frame { _, _ in true }, frame { x, _ in x % 2 == 0 }, frame { x, y in (x + y) % 2 == 0 }]
      + (0..<3).map { HUB75Tests.frame(board, seed: UInt64(80 + $0)) }
      + [frame { x, y in (x % 2 == 0) == (y < board.height / 2) }]
    var program = HUB75Program(), copy = HUB75Program()
    encoder.encode(frames[0], into: &program)
    copy.assign(program)
    let room = program.words.capacity, copyRoom = copy.words.capacity
    var most = 0
    for (index, frame) in frames.enumerated() {
      encoder.encode(frame, into: &program)
      copy.assign(program)
      most = max(most, program.words.count)
      #expect(program.words.capacity == room && copy.words.capacity == copyRoom, "frame \(index)")
    }
    #expect(most == encoder.maximumWords)
  }

  /// hzeller's schemes on the panels they are made for.
  static let schemes: [(HUB75Multiplexing, columns: Int, rows: Int)] = [
    (.direct, 32, 16), (.stripe, 32, 16), (.checkered, 32, 16), (.spiral, 32, 16), (.zstripe, 32, 16),
    (.znmirrorzstripe, 32, 16), (.coreman, 32, 32), (.kaler2scan, 32, 16), (.zstripeuneven, 32, 16), (.p10_128x4_z, 32, 16),
  ]

  @Test(arguments: HUB75Tests.schemes)
  func everyMultiplexingLightsTheFrame(_ scheme: HUB75Multiplexing, columns: Int, rows: Int) throws {
    #expect(scheme.misfit(columns: columns, rows: rows) == nil)
    let address: HUB75RowAddress = scheme.stretch == 4 || (rows == 16 && scheme != .direct) ? .abcdLine : .direct
    for chainLength in [1, 2] {
      let board = try HUB75Board(
        name: scheme.rawValue, panelColumns: columns, panelRows: rows, chainLength: chainLength, rowAddress: address, multiplexing: scheme,
        colorDepth: 2)
      HUB75Tests.roundTrip(board, HUB75Tests.frame(board, seed: UInt64(chainLength)), regions: HUB75Tests.regions(board))
    }
  }

  /// The schemes' places as hzeller's formulas give them, worked out by hand for a 32x16
  /// panel (the matrix is 64x8, or 128x4).
  @Test func theMultiplexingPlacesArehzellers() {
    let place = { (scheme: HUB75Multiplexing, x: Int, y: Int) in
      let p = scheme.matrixPosition(x: x, y: y, columns: 32, rows: 16)
      return [p.x, p.y]
    }
    // Stripe: rows 0-3 and 8-11 are top stripes, shifted one panel width on.
    #expect(place(.stripe, 0, 0) == [32, 0])
    #expect(place(.stripe, 0, 4) == [0, 0])
    #expect(place(.stripe, 5, 9) == [37, 5])
    #expect(place(.checkered, 0, 0) == [16, 0])
    #expect(place(.checkered, 20, 0) == [52, 0])
    #expect(place(.checkered, 20, 4) == [36, 0])
    // Spiral: quarters of 8; the top stripe mirrored inside its quarter.
    #expect(place(.spiral, 0, 0) == [7, 0])
    #expect(place(.spiral, 0, 4) == [8, 0])
    #expect(place(.spiral, 9, 0) == [22, 0])
    // ZStripe: 8x4 tiles; odd tile rows one tile on.
    #expect(place(.zstripe, 0, 0) == [0, 0])
    #expect(place(.zstripe, 0, 4) == [8, 0])
    #expect(place(.zstripe, 8, 0) == [16, 0])
    #expect(place(.zstripe, 8, 4) == [24, 0])
    #expect(place(.zstripe, 0, 8) == [0, 4])
    #expect(place(.znmirrorzstripe, 4, 0) == [12, 0])
    #expect(place(.znmirrorzstripe, 0, 4) == [4, 0])
    #expect(place(.zstripeuneven, 0, 0) == [8, 0])
    #expect(place(.zstripeuneven, 0, 4) == [0, 0])
    // Kaler2Scan: rows 0-1 of each 8 reversed groups at column 64 on.
    #expect(place(.kaler2scan, 0, 0) == [71, 0])
    #expect(place(.kaler2scan, 0, 2) == [72, 0])
    #expect(place(.kaler2scan, 0, 4) == [7, 0])
    #expect(place(.kaler2scan, 0, 9) == [71, 3])
    // P10-128x4-Z.
    #expect(place(.p10_128x4_z, 0, 0) == [127, 3])
    #expect(place(.p10_128x4_z, 8, 0) == [95, 3])
    #expect(place(.p10_128x4_z, 0, 2) == [112, 3])
    #expect(place(.p10_128x4_z, 8, 2) == [80, 3])
    #expect(place(.p10_128x4_z, 0, 9) == [127, 0])
  }

  @Test(arguments: [1, 4, 8, 11])
  func chainsParallelChainsAndDepths(_ depth: Int) throws {
    for (chain, parallel) in [(1, 1), (3, 1), (2, 3)] {
      let board = try HUB75Board(
        name: "\(chain)x\(parallel)@\(depth)", panelColumns: 16, panelRows: 16, chainLength: chain, parallel: parallel, colorDepth: depth)
      HUB75Tests.roundTrip(board, HUB75Tests.frame(board, seed: UInt64(depth * 10 + chain)), regions: HUB75Tests.regions(board))
    }
  }

  @Test func theNamedWiringsAndAMapOfOnesOwn() throws {
    let own = try SignBoard(
      json: """
        {"driver": "hub75", "panel": {"rows": 16, "columns": 32}, "grid": {"rows": 2},
         "mapping": {"r1": 0, "g1": 1, "b1": 2, "r2": 3, "g2": 4, "b2": 5, "r1_1": 6, "g1_1": 7, "b1_1": 8, "r2_1": 9, "g2_1": 10,
                     "b2_1": 11, "a": 12, "b": 13, "c": 14, "clk": 15, "lat": 16, "oe": 17}}
        """, path: "own.json"
    ).family as! HUB75Board
    #expect(own.pins.address == [12, 13, 14, -1, -1])
    for pins in HUB75PinMap.named + [own.pins] {
      let board = try HUB75Board(name: pins.name, panelColumns: 32, panelRows: 16, parallel: pins.chains.count > 1 ? 2 : 1, pins: pins, colorDepth: 2)
      HUB75Tests.roundTrip(board, HUB75Tests.frame(board, seed: 9), regions: HUB75Tests.regions(board))
    }
  }

  /// FM6126A and FM6127 panels: their control registers written as hzeller writes them, read
  /// back by the emulated chips (clocks with LAT high pick the register, the last 16 bits are
  /// its value); every colour line carries the pattern, and the refresh after it shows the
  /// frame as on any panel.
  @Test func panelChipsGetTheirRegistersWritten() throws {
    let board = try HUB75Board(name: "fm", panelColumns: 64, panelRows: 32, chainLength: 2, parallel: 2, colorDepth: 3, panelInit: .fm6126a)
    var panels = HUB75Emulator(board: board)
    panels.run(HUB75PanelInit.fm6126a.program(for: board))
    #expect(panels.registerWrites.map(\.latchClocks) == [11, 12])
    #expect(panels.registerWrites.map(\.bits) == [0x7FFF, 0x0040])
    #expect(panels.clockWithData == 0 && panels.clocks == 2 * board.clocksPerRow)
    let fm6127 = try HUB75Board(name: "fm7", panelColumns: 32, panelRows: 16, panelInit: .fm6127)
    var others = HUB75Emulator(board: fm6127)
    others.run(HUB75PanelInit.fm6127.program(for: fm6127))
    #expect(others.registerWrites.map(\.latchClocks) == [11, 12, 10])
    #expect(others.registerWrites.map(\.bits) == [0xFFCE, 0xE062, 0x5F00])
    // The refresh after the writes shows the frame (the registers leave the data path as it was).
    HUB75Tests.roundTrip(board, HUB75Tests.frame(board, seed: 6126), regions: [])
    // Without them the panel stays dark, as such panels do; with one register only, too.
    var encoder = HUB75Encoder(board: board, color: HUB75Tests.amber)
    var program = HUB75Program()
    encoder.encode(HUB75Tests.frame(board, seed: 6126), into: &program)
    var dark = HUB75Emulator(board: board)
    dark.run(program)
    #expect(!dark.outputsEnabled && dark.weights.allSatisfy { $0 == 0 } && dark.pulses.contains { $0 > 0 })
    var half = HUB75Emulator(board: board)
    let registers = HUB75PanelInit.fm6126a.program(for: board)
    for word in registers.words.prefix(registers.words.count / 2) { half.run(HUB75Program.step(word)) }
    half.run(program)
    #expect(!half.outputsEnabled && half.weights.allSatisfy { $0 == 0 })
    let read = try SignBoard(json: #"{"driver": "hub75", "panelType": "fm6126a"}"#, path: "fm.json").family as! HUB75Board
    #expect(read.panelInit == .fm6126a)
    #expect(boardFileError(#"{"driver": "hub75", "panelType": "fm6124"}"#, path: "b.json").contains("field 'panelType': 'fm6124' is not one of fm6126a, fm6127"))
  }

  @Test func theLightnessCorrection() {
    #expect(HUB75Encoder.level(255, depth: 8, lightness: true) == 255)
    #expect(HUB75Encoder.level(0, depth: 8, lightness: true) == 0)
    // L* 50.2 is a luminance of 0.186: 47 of 255; linear, 128.
    #expect(HUB75Encoder.level(128, depth: 8, lightness: true) == 47)
    #expect(HUB75Encoder.level(128, depth: 8, lightness: false) == 128)
    #expect(HUB75Encoder.level(255, depth: 11, lightness: true) == 2047)
    let levels = (0...255).map { HUB75Encoder.level(UInt8($0), depth: 11, lightness: true) }
    #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 <= $1 })
    // An amber zone stays amber at 4 bitplanes: red full, green a third (L* 66.7 is a
    // luminance of 0.362: 5 of 15), no blue.
    #expect([255, 170, 0].map { HUB75Encoder.level(UInt8($0), depth: 4, lightness: true) } == [15, 5, 0])
  }

  @Test func aDarkFrameOrNoBrightnessRunsNothing() throws {
    let board = try HUB75Board(name: "p", panelColumns: 32, panelRows: 16)
    var encoder = HUB75Encoder(board: board, color: HUB75Tests.amber)
    var program = HUB75Program()
    var frame = Frame(width: 32, height: 16)
    encoder.encode(frame, into: &program)
    #expect(program.words.isEmpty && program.onFraction == 0)
    frame.pixels[3, 3] = true
    frame.brightness = 0
    encoder.encode(frame, into: &program)
    #expect(program.words.isEmpty)
    frame.brightness = 0.5
    encoder.encode(frame, into: &program)
    #expect(program.onFraction == 0.5 && !program.words.isEmpty)
  }

  /// The bitplane times: hzeller's planes 11 − depth … 10, so a refresh is lit as long at any
  /// depth; the trace's weights are 2^plane.
  @Test func thePulseTimesAndTheTrace() throws {
    let board = try HUB75Board(name: "t", panelColumns: 16, panelRows: 16, colorDepth: 4)
    #expect((0..<4).map(board.pulseNanoseconds) == [130 * 128, 130 * 256, 130 * 512, 130 * 1024])
    var encoder = HUB75Encoder(board: board, color: HUB75Tests.amber)
    var program = HUB75Program()
    encoder.encode(HUB75Tests.frame(board, seed: 4), into: &program)
    var text: [UInt8] = []
    HUB75Trace.append(program, pins: Array((HUB75Trace.header + "\n" + HUB75Trace.pinsLine(board) + "\n").utf8), to: &text)
    let trace = String(decoding: text, as: UTF8.self)
    #expect(trace.hasPrefix("# hub75 trace v1\npins r1=11 g1=27 b1=7 r2=8 g2=9 b2=10 a=22 b=23 c=24 d=25 e=15 clk=17 lat=4 oe=18\n"))
    #expect(trace.contains("\nset 0x00020000\n"))
    #expect(trace.contains("\noe 8\n") && !trace.contains("\noe 16\n"))
    let read = try HUB75Trace.read(trace)
    #expect(read.steps == program.steps)
    #expect(read.pins["oe"] == 18 && read.pins["e"] == 15)
    #expect(throws: HUB75Trace.TraceError.self) { try HUB75Trace.read("# hub75 trace v1\noe 3\n") }
  }

  @Test func theIssuesBoardFileMeansWhatItSays() throws {
    let board = try SignBoard(
      json: """
        {"schema": 1, "driver": "hub75", "panel": {"rows": 32, "columns": 64},
         "grid": {"columns": 2, "rows": 1}, "mapping": "regular", "rowAddress": "direct",
         "multiplexing": "direct", "colorDepth": 4}
        """, path: "two.json")
    let hub75 = try #require(board.family as? HUB75Board)
    #expect(board.width == 128 && board.height == 32)
    #expect(hub75.chainLength == 2 && hub75.parallel == 1 && hub75.colorDepth == 4 && hub75.rowPairs == 16)
    #expect(hub75.clocksPerRow == 128)
    #expect(board.kind == "hub75/64x32-1:16")
  }

  @Test(arguments: [
    (#"{"driver": "hub75", "colorDepth": 12}"#, "field 'colorDepth': 12 is out of range"),
    (#"{"driver": "hub75", "panel": {"rows": 24}}"#, "field 'panel.rows': 24 is not 8, 16, 32 or 64"),
    (#"{"driver": "hub75", "grid": {"rows": 2}, "mapping": "adafruit-hat"}"#, "'adafruit-hat' wiring has lines for 1"),
    (#"{"driver": "hub75", "rowAddress": "abcd-line"}"#, "field 'rowAddress': 'abcd-line': it addresses at most 4 row pairs"),
    (#"{"driver": "hub75", "multiplexing": "coreman", "panel": {"rows": 16, "columns": 32}}"#, "field 'multiplexing': 'coreman'"),
    (#"{"driver": "hub75", "multiplexing": "zigzag"}"#, "field 'multiplexing': 'zigzag' is not one of direct, stripe"),
    (#"{"driver": "hub75", "mapping": "classic"}"#, "field 'mapping': 'classic' is not one of regular, adafruit-hat, adafruit-hat-pwm"),
    (#"{"driver": "hub75", "mapping": {"r1": 0, "g1": 1, "b1": 2, "r2": 3, "g2": 4, "b2": 5, "a": 6, "clk": 7, "lat": 8, "oe": 9}}"#,
     "field 'mapping.b': missing: 'direct' addressing of 16 row pairs needs A, B, C, D"),
    (#"{"driver": "hub75", "mapping": {"r1": 0, "g1": 1, "b1": 2, "r2": 3, "g2": 4, "b2": 5, "a": 6, "b": 7, "c": 8, "d": 9, "clk": 10, "lat": 11, "oe": 0}}"#,
     "GPIO 0 is also r1"),
    (#"{"driver": "hub75", "mapping": {"r1": 30}}"#, "field 'mapping.r1': 30 is out of range"),
    (#"{"driver": "hub75", "refreshHz": 10}"#, "field 'refreshHz': 10 is out of range"),
    (#"{"driver": "hub75", "gpio": {}}"#, "field 'gpio': unknown field"),
  ])
  func badBoardFilesSayWhatIsWrong(_ json: String, _ message: String) {
    let error = boardFileError(json, path: "bad.json")
    #expect(error.hasPrefix("bad.json: "))
    #expect(error.contains(message), "\(error)")
  }

  // MARK: The Pi's registers

  @Test func thePiIsReadFromItsDeviceTree() throws {
    let pi4 = try PiFixtures.deviceTree(["raspberrypi,4-model-b", "brcm,bcm2711"], model: "Raspberry Pi 4 Model B Rev 1.4", ranges: [0x7e00_0000, 0, 0xfe00_0000, 0x0180_0000])
    let pi3 = try PiFixtures.deviceTree(["raspberrypi,3-model-b-plus", "brcm,bcm2837"], model: "Raspberry Pi 3 Model B Plus Rev 1.3", ranges: [0x7e00_0000, 0x3f00_0000, 0x0100_0000])
    let pi5 = try PiFixtures.deviceTree(["raspberrypi,5-model-b", "brcm,bcm2712"], model: "Raspberry Pi 5 Model B Rev 1.0", ranges: [])
    let rock = try PiFixtures.deviceTree(["radxa,rock-5b", "rockchip,rk3588"], model: "Radxa ROCK 5B", ranges: [])
    defer { for folder in [pi4, pi3, pi5, rock] { try? FileManager.default.removeItem(atPath: folder) } }
    #expect(try RaspberryPi.detect(deviceTree: pi4) == RaspberryPi(model: "Raspberry Pi 4 Model B Rev 1.4", chip: .bcm2711, peripheralBase: 0xfe00_0000))
    #expect(try RaspberryPi.detect(deviceTree: pi3).peripheralBase == 0x3f00_0000)
    let five = try RaspberryPi.detect(deviceTree: pi5)
    #expect(five.hasRP1 && five.gpioDevice == "/dev/gpiomem0" && five.peripheralBase == nil)
    #expect(try RaspberryPi.detect(deviceTree: pi3).gpioDevice == "/dev/gpiomem")
    let error = #expect(throws: NotARaspberryPi.self) { try RaspberryPi.detect(deviceTree: rock) }
    #expect(error?.description.hasPrefix("this machine is not a Raspberry Pi 1 to 5 ('Radxa ROCK 5B'): its device tree names radxa,rock-5b, rockchip,rk3588") == true)
    let none = #expect(throws: NotARaspberryPi.self) { try RaspberryPi.detect(deviceTree: rock + "/missing") }
    #expect(none?.description.contains("no device tree") == true)
  }

  static let pi4 = RaspberryPi(model: "Raspberry Pi 4", chip: .bcm2711, peripheralBase: 0xfe00_0000)
  static let pi5 = RaspberryPi(model: "Raspberry Pi 5", chip: .bcm2712, peripheralBase: nil)

  @Test func theScanRunsOnTheRegistersAndPutsThePinsBack() throws {
    let path = try PiFixtures.registerFile(length: PiGPIORegisters.bcmLength, functions: [2: 4, 3: 4])
    defer { try? FileManager.default.removeItem(atPath: path) }
    let board = try HUB75Board(name: "p", panelColumns: 32, panelRows: 16, colorDepth: 2, slowdown: 2, device: path)
    let scanner = try HUB75Scanner(board: board, pi: HUB75Tests.pi4)
    // Outputs now: the regular map's 13 lines of a 16-row panel (A-C), OE high.
    let used = [11, 27, 7, 8, 9, 10, 22, 23, 24, 17, 4, 18]
    var registers = try PiFixtures.words(path)
    for pin in used { #expect((registers[pin / 10] >> UInt32(3 * (pin % 10))) & 7 == 1, "GPIO \(pin)") }
    #expect((registers[25 / 10] >> UInt32(3 * 5)) & 7 == 0, "D is not needed")
    #expect(registers[PiGPIORegisters.bcmSet] & (1 << 18) != 0, "OE high (dark) first")
    var encoder = HUB75Encoder(board: board, color: HUB75Tests.amber)
    var program = HUB75Program()
    encoder.encode(HUB75Tests.frame(board, seed: 3), into: &program)
    try scanner.send(program)
    #expect(eventually(within: 10) { scanner.refreshesSoFar >= 20 })
    try scanner.finish()
    let figures = scanner.statistics
    let stores = program.words.filter { $0 & HUB75Program.tagMask != HUB75Program.pulseTag }.count
    #expect(figures.writesPerRefresh == stores * 3 + 2 * figures.pulsesPerRefresh)
    #expect(figures.pulsesPerRefresh == board.rowPairs * 2)
    #expect(figures.refreshHz > 0 && figures.pulseLateMax >= 0)
    registers = try PiFixtures.words(path)
    for pin in used { #expect((registers[pin / 10] >> UInt32(3 * (pin % 10))) & 7 == 0, "GPIO \(pin) an input again") }
    #expect((registers[0] >> 6) & 7 == 4 && (registers[0] >> 9) & 7 == 4, "I2C's pins untouched")
    #expect(registers[PiGPIORegisters.bcmSet] == 1 << 18, "the last write: OE high")
  }

  final class Heard: Sendable {
    let warnings = Mutex<[String]>([])
  }

  /// A sign that cannot refresh as often as its board asks says so, once.
  @Test func aRefreshBelowTheBoardsRateIsReported() throws {
    let path = try PiFixtures.registerFile(length: PiGPIORegisters.bcmLength)
    defer { try? FileManager.default.removeItem(atPath: path) }
    // 8.5 ms of light a refresh cannot make 2,000 refreshes a second.
    let board = try HUB75Board(name: "big", panelColumns: 64, panelRows: 64, chainLength: 2, colorDepth: 8, refreshHz: 2000, device: path)
    let heard = Heard()
    let scanner = try HUB75Scanner(board: board, pi: HUB75Tests.pi4) { message in heard.warnings.withLock { $0.append(message) } }
    var encoder = HUB75Encoder(board: board, color: HUB75Tests.amber)
    var program = HUB75Program()
    encoder.encode(HUB75Tests.frame(board, seed: 8), into: &program)
    try scanner.send(program)
    #expect(eventually(within: 20) { heard.warnings.withLock { !$0.isEmpty } })
    try scanner.finish()
    let warnings = heard.warnings.withLock { $0 }
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("below the board's refreshHz 2000 Hz: lower 'colorDepth' or 'lsbNanoseconds'") == true, "\(warnings)")
  }

  @Test func pinsHeldBySPIAreRefusedAndNothingChanges() throws {
    let path = try PiFixtures.registerFile(length: PiGPIORegisters.bcmLength, functions: [10: 4])
    defer { try? FileManager.default.removeItem(atPath: path) }
    let board = try HUB75Board(name: "p", panelColumns: 32, panelRows: 16, device: path)
    let error = #expect(throws: GPIORegisterError.self) { _ = try HUB75Scanner(board: board, pi: HUB75Tests.pi4) }
    #expect(error?.description == "GPIO 10 (B2) is in use as ALT0 (SPI0: turn SPI off with dtparam=spi=off in config.txt); free it or choose a mapping without it")
    let registers = try PiFixtures.words(path)
    #expect(registers[0] == 0 && registers[1] == 4 && registers[2] == 0)
  }

  @Test func onAPi5TheRIOBlockDrivesThePins() throws {
    let path = try PiFixtures.rp1RegisterFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let board = try HUB75Board(name: "p", panelColumns: 32, panelRows: 16, pins: .adafruitHat, device: path)
    let registers = try PiGPIORegisters(pi: HUB75Tests.pi5, device: path)
    try registers.claim(outputs: [4, 17, 21], high: 1 << 4, inputs: [18], names: [:])
    var words = try PiFixtures.words(path)
    #expect(words[PiGPIORegisters.rp1Control(17)] & 0x1F == 5, "the RIO function")
    #expect(words[PiGPIORegisters.rp1RIO + PiGPIORegisters.rp1SetAlias + 1] == 1 << 21, "output enabled through the set alias (the last one)")
    #expect(words[PiGPIORegisters.rp1RIO + PiGPIORegisters.rp1SetAlias] == 1 << 4, "OE high through the RIO set alias")
    registers.release()
    words = try PiFixtures.words(path)
    #expect(words[PiGPIORegisters.rp1Control(17)] == 0x1F, "the function as it was")
    #expect(words[PiGPIORegisters.rp1RIO + PiGPIORegisters.rp1ClearAlias + 1] == 1 << 21, "output disabled through the clear alias")
    _ = board
  }

  /// A file standing for the registers that is shorter than the map (a board's `device`
  /// pointing at the wrong file) is an error, not a SIGBUS at the first store.
  @Test func aRegisterFileTooShortIsRefused() throws {
    let path = try PiFixtures.registerFile(length: 4096)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let error = #expect(throws: GPIORegisterError.self) { _ = try PiGPIORegisters(pi: HUB75Tests.pi5, device: path) }
    #expect(error?.description == "\(path): map 196608 bytes of registers from a file of 4096 bytes failed: Invalid argument")
  }
}

/// Temporal dithering (hzeller's `--led-pwm-dither-bits`): a program of 2^d refreshes, each
/// shifting the top `depth − d` planes, whose lit weights add up to 2^d times each level
/// (the top 2^d − 1 levels show as the highest the shown planes reach).
@Suite struct HUB75DitherTests {
  @Test(arguments: [(4, 1), (4, 2), (6, 2), (8, 1), (8, 2)])
  func theRefreshesAddUpToTheLevels(_ depth: Int, _ dither: Int) throws {
    let board = try HUB75Board(name: "dither", panelColumns: 32, panelRows: 16, colorDepth: depth, lightnessCorrection: false, ditherBits: dither)
    let plain = try HUB75Board(name: "plain", panelColumns: 32, panelRows: 16, colorDepth: depth, lightnessCorrection: false)
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<12 {
      let color = RGBColor(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator), blue: .random(in: 0...255, using: &generator))
      var frame = Frame(width: 32, height: 16)
      frame.pixels.fill(x: 3, y: 2, width: 20, height: 11, lit: true)
      var encoder = HUB75Encoder(board: board, color: color)
      var program = HUB75Program()
      encoder.encode(frame, into: &program)
      #expect(program.refreshes == 1 << dither)
      var panels = HUB75Emulator(board: board)
      panels.run(program)
      let top = (1 << depth) - (1 << dither)
      let levels = [color.red, color.green, color.blue].map { min(HUB75Encoder.level($0, depth: depth, lightness: false), top) << dither }
      #expect(panels.color(x: 5, y: 5) == (levels[0], levels[1], levels[2]), "\(color) at depth \(depth), dither \(dither)")
      #expect(panels.color(x: 0, y: 0) == (0, 0, 0))
      // Each row pair: the low planes never, the others once in every refresh.
      for row in 0..<board.rowPairs {
        for plane in 0..<depth { #expect(panels.pulses[row * depth + plane] == (plane < dither ? 0 : 1 << dither)) }
      }
      #expect(panels.badSelections == 0 && panels.clockWithData == 0)
      // Fewer writes a refresh than the same picture undithered.
      var plainEncoder = HUB75Encoder(board: plain, color: color)
      var plainProgram = HUB75Program()
      plainEncoder.encode(frame, into: &plainProgram)
      #expect(program.words.count / program.refreshes < plainProgram.words.count)
    }
  }

  @Test func ditherBitsMustLeaveAPlaneAndBoardFilesTakeThem() throws {
    #expect(throws: InvalidBoardValue(field: "ditherBits", reason: "2 leaves no plane of 2 to show: it must be below colorDepth")) {
      _ = try HUB75Board(name: "d", colorDepth: 2, ditherBits: 2)
    }
    #expect(throws: InvalidBoardValue.self) { _ = try HUB75Board(name: "d", ditherBits: 3) }
    let board = try #require(try SignBoard(json: #"{"driver": "hub75", "ditherBits": 2}"#, path: "d.json").family as? HUB75Board)
    #expect(board.ditherBits == 2 && board.depthFromContent)
    // A pure colour needs one plane: no dithering is left to do.
    #expect(board.fitted(to: [RGBColor(red: 255, green: 0, blue: 0)]).ditherBits == 0)
    #expect(board.fitted(to: [LEDColor.amber.rgb]).ditherBits == 2)
  }
}

/// The refresh loop's order of writes, recorded: the next plane is shifted while a pulse is
/// lit, the latch and the address never change while lit, every pulse is lit at least its
/// time and starts no sooner than the one before it ended its whole time.
@Suite struct HUB75OverlapTests {
  struct Recorder: HUB75Registers {
    var events: [(set: Bool, mask: UInt32, ns: Int64)] = []
    mutating func set(_ mask: UInt32) { events.append((true, mask, SystemClock.monotonicNanoseconds())) }
    mutating func clear(_ mask: UInt32) { events.append((false, mask, SystemClock.monotonicNanoseconds())) }
  }

  @Test(arguments: [HUB75RowAddress.direct, .abShift, .sm5266])
  func theNextPlaneIsShiftedWhileAPulseIsLit(_ kind: HUB75RowAddress) throws {
    let path = try PiFixtures.registerFile(length: 4096)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let board = try HUB75Board(
      name: "overlap", panelColumns: 64, panelRows: 32, rowAddress: kind, colorDepth: 4, lsbNanoseconds: 200, slowdown: 0, device: path)
    let scanner = try HUB75Scanner(board: board, pi: HUB75Tests.pi4)
    defer { try? scanner.finish() }
    var frame = Frame(width: 64, height: 32)
    for y in 0..<32 { for x in 0..<64 where (x + y) % 3 == 0 { frame.pixels[x, y] = true } }
    var encoder = HUB75Encoder(board: board, color: LEDColor.amber.rgb)
    var program = HUB75Program()
    encoder.encode(frame, into: &program)
    let oe = UInt32(1) << UInt32(board.pins.oe)
    let pulseNs = (0..<board.colorDepth).map { Int64(board.pulseNanoseconds(plane: $0)) }
    // Several refreshes: the order holds in each; shifting under the pulses in the best of
    // them (a refresh in which this shared machine stalled the thread does less).
    var mostShifted = 0
    for _ in 0..<5 {
      var recorder = Recorder()
      // Room for every write: no array growth stalls the loop under a pulse.
      recorder.events.reserveCapacity(4 * program.words.count)
      scanner.run(program, oe: oe, pulseNs: pulseNs, on: &recorder)
      // The writes other than OE's are the program's, in order.
      let written = recorder.events.filter { $0.mask != oe }.map { $0.set ? HUB75Program.Step.set($0.mask) : .clear($0.mask) }
      #expect(written == program.steps.filter { if case .pulse = $0 { false } else { true } })
      // Each pulse: lit at least its time, nothing but colour and clock while lit, and the
      // whole time of the one before passed.
      let darkOnly = board.pins.addressMasks.reduce(UInt32(1) << UInt32(board.pins.lat), |)
      let planes = program.steps.compactMap { if case .pulse(let plane) = $0 { plane } else { nil } }
      var litStart: Int64?, pulse = 0, previousEnd: Int64 = 0, shiftedWhileLit = 0
      for event in recorder.events {
        if event.mask == oe {
          if !event.set {
            #expect(event.ns >= previousEnd - 500, "pulse \(pulse) started before the last one's whole time")
            litStart = event.ns
          } else if let start = litStart {
            // Timed from the clock read just before OE's write; the record's own time of that
            // write comes a little later.
            #expect(event.ns - start >= pulseNs[planes[pulse]] - 500, "pulse \(pulse) lit too short")
            previousEnd = start + pulseNs[planes[pulse]]
            (litStart, pulse) = (nil, pulse + 1)
          }
        } else if litStart != nil {
          #expect(event.mask & darkOnly == 0, "the latch or an address line changed while lit")
          shiftedWhileLit += 1
        }
      }
      #expect(pulse == planes.count)
      mostShifted = max(mostShifted, shiftedWhileLit)
    }
    #expect(mostShifted > program.words.count / 4, "most shifting happens under a pulse: \(mostShifted) of \(program.words.count)")
  }
}

/// `colorOrder` (hzeller's `--led-rgb-sequence`): each colour input carries the level of the
/// colour it lights on the panel, on the wire; a board file takes it by name.
@Suite struct HUB75ColorOrderTests {
  @Test func eachInputCarriesTheColourItLights() throws {
    let board = try HUB75Board(name: "bgr", panelColumns: 32, panelRows: 16, colorDepth: 1, colorOrder: .bgr)
    var encoder = HUB75Encoder(board: board, color: RGBColor(red: 255, green: 0, blue: 0))
    var program = HUB75Program()
    var frame = Frame(width: 32, height: 16)
    frame.pixels[0, 0] = true
    encoder.encode(frame, into: &program)
    // Red lights on the B input of a BGR panel: the regular map's B1 is GPIO 7, R1 is 11.
    let lines = program.steps.reduce(UInt32(0)) { lines, step in if case .set(let mask) = step { lines | mask } else { lines } }
    #expect(lines & (1 << 7) != 0 && lines & (1 << 11) == 0)
    let read = try #require(try SignBoard(json: #"{"driver": "hub75", "colorOrder": "GRB"}"#, path: "o.json").family as? HUB75Board)
    #expect(read.colorOrder == .grb)
    #expect(boardFileError(#"{"driver": "hub75", "colorOrder": "RRB"}"#, path: "o.json").contains("field 'colorOrder': 'RRB' is not one of RGB, RBG, GRB, GBR, BRG, BGR"))
  }
}

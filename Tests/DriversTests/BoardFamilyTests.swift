import Drivers
import Foundation
import MatrixCore
import Testing

/// The family registry and the family layer as an embedder uses it: a board file to a
/// display, with the same checks `marquee` makes.
@Suite struct BoardFamilyTests {
  @Test func everyDriverNameBelongsToExactlyOneFamily() {
    let names = SignBoard.families.flatMap { $0.drivers }
    #expect(Set(names).count == names.count)
    #expect(Set(names) == ["max7219", "ht16k33", "hub12", "hub75", "ws2812", "sk6812-rgbw", "apa102", "sk9822"])
    #expect(SignBoard.drivers == names)
  }

  @Test func everyShippedBoardReadsThroughItsFamily() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: "Boards").filter { $0.hasSuffix(".json") }
    #expect(files.count >= 20)
    for file in files {
      let text = try String(contentsOfFile: "Boards/" + file, encoding: .utf8)
      let board = try SignBoard(json: text, path: file)
      #expect(board.units.count >= 1, "\(file)")
      #expect(board.devices.first == board.device, "\(file)")
      // The family the registry chose is the one whose drivers name the file's.
      let driver = try #require(text.firstMatch(of: /"driver": *"([^"]+)"/)?.1)
      #expect(type(of: board.family).drivers.contains(String(driver)), "\(file): \(driver)")
      // The units cover the sign and stay inside it.
      for unit in board.units {
        #expect(unit.x >= 0 && unit.y >= 0 && unit.x + unit.width <= board.width && unit.y + unit.height <= board.height, "\(file)")
      }
      #expect(try board.with(intensity: 2) != board.with(intensity: 9), "\(file): the brightness is part of the board")
    }
  }

  /// Counts the frames a display takes.
  struct ShowOneFrame: DisplayVisitor {
    var shown = 0
    mutating func visit<D: Display>(_ display: inout D) throws {
      var frame = Frame(width: display.width, height: display.height)
      frame.pixels[0, 0] = true
      try display.show(frame, changed: true)
      shown += 1
      try display.shutdown()
    }
  }

  @Test func anEmbedderGetsTheFamilysChecksAndDisplays() throws {
    let hub12 = try SignBoard(json: try String(contentsOfFile: "Boards/hub12-p10-32x16.json", encoding: .utf8), path: "hub12")
    #expect(hub12.family.refusal(BoardSettings(keepLastFrame: true))?.hasPrefix("'--keep': HUB12 panels hold nothing") == true)
    #expect(hub12.family.refusal(BoardSettings()) == nil)
    let max7219 = try SignBoard(json: try String(contentsOfFile: "Boards/max7219-fc16-32x8.json", encoding: .utf8), path: "max")
    #expect(max7219.family.refusal(BoardSettings(keepLastFrame: true)) == nil)
    #expect(max7219.family.dataBus == .spi)
    // Its bytes to a dump file, as --spi-dump writes them.
    let path = NSTemporaryDirectory() + "marquee-family-\(getpid()).bin"
    defer { unlink(path) }
    var visitor = ShowOneFrame()
    try max7219.family.drive(BoardSettings(dumpPath: path), &visitor)
    #expect(visitor.shown == 1)
    // The same bytes as the family's encoder on a recorder, through the same visit.
    let bytes = try #require(FileManager.default.contents(atPath: path))
    var recorded = try EncodedDisplay(encoder: MAX7219Encoder(board: try #require(max7219.family as? MAX7219Board)), transport: RecordingTransport())
    var again = ShowOneFrame()
    try again.visit(&recorded)
    #expect(!bytes.isEmpty && [UInt8](bytes) == recorded.transport.transactions.joined().map { $0 })
    // The emulation the simulator shows, on a screen of the board's size.
    var emulated = ShowOneFrame()
    let null = open("/dev/null", O_WRONLY)
    defer { close(null) }
    try max7219.family.emulate(on: AsciiDisplay(width: 32, height: 8, descriptor: null), BoardSettings(), &emulated)
    #expect(emulated.shown == 1)
  }

  @Test func aHUB12SignRecordsItsScanCycles() throws {
    let board = try #require(try SignBoard(json: try String(contentsOfFile: "Boards/hub12-p10-32x16.json", encoding: .utf8), path: "h").family as? HUB12Board)
    var display = try EncodedDisplay(encoder: HUB12Encoder(board: board), transport: HUB12RecordingTransport())
    var frame = Frame(width: board.width, height: board.height)
    frame.pixels[3, 5] = true
    try display.show(frame, changed: true)
    let cycles = display.transport.cycles
    #expect(!cycles.isEmpty)
    let last = try #require(cycles.last)
    #expect(last.groups.count == board.scan)
    #expect(last.groups.joined().contains { $0 != (board.dataActiveLow ? 0xFF : 0x00) })
  }
}

/// The one placement model: `grid` and `chain` in every family, the same places as the
/// explicit lists they stand for.
@Suite struct BoardPlacementTests {
  func board(_ json: String) throws -> SignBoard { try SignBoard(json: json, path: "b.json") }

  @Test func ledPanelsInAGridAreTheListTheyStandFor() throws {
    let grid = try board(#"{"driver": "ws2812", "maxMilliamps": 3000, "panel": {"width": 32, "height": 8}, "grid": {"columns": 2, "rows": 2}, "chain": {"start": "top-left", "direction": "rows", "serpentine": true}}"#)
    let list = try board(#"{"driver": "ws2812", "maxMilliamps": 3000, "panel": {"width": 32, "height": 8}, "panels": [{"x": 0, "y": 0}, {"x": 32, "y": 0}, {"x": 32, "y": 8}, {"x": 0, "y": 8}]}"#)
    #expect(grid.units == list.units)
    #expect(grid == list)
    #expect(grid.width == 64 && grid.height == 16)
  }

  @Test func backpacksInAGridTakeAddressesInChainOrder() throws {
    let grid = try board(#"{"driver": "ht16k33", "module": "8x8", "grid": {"columns": 4}, "chain": {"start": "top-left"}}"#)
    let list = try board(
      #"{"driver": "ht16k33", "module": "8x8", "backpacks": [{"address": "0x70", "x": 0}, {"address": "0x71", "x": 8}, {"address": "0x72", "x": 16}, {"address": "0x73", "x": 24}]}"#)
    #expect(grid == list)
    #expect(grid.units.map(\.x) == [0, 8, 16, 24])
    #expect(throws: BoardFileError.self) { try board(#"{"driver": "ht16k33", "module": "8x8", "grid": {"columns": 9}}"#) }
  }

  @Test func bothFormsAtOnceAreRefusedNamingTheField() throws {
    do {
      _ = try board(#"{"driver": "apa102", "panel": {"width": 8, "height": 8}, "panels": [{"x": 0}], "grid": {"columns": 2}}"#)
      Issue.record("accepted")
    } catch {
      #expect("\(error)" == "b.json: field 'panels': give the units either as 'panels' or as 'grid' and 'chain', not both")
    }
  }

  @Test func theChipChainsStillReadTheirGridAndChain() throws {
    let max7219 = try board(#"{"driver": "max7219", "module": "fc16", "grid": {"columns": 4, "rows": 2}, "chain": {"start": "top-right", "serpentine": true}}"#)
    #expect(max7219.width == 32 && max7219.height == 16)
    #expect(max7219.units.first?.x == 24 && max7219.units.first?.y == 0)
    #expect(throws: BoardFileError.self) { try board(#"{"driver": "max7219", "module": "fc16", "chain": {"start": "top-left"}}"#) }
  }
}

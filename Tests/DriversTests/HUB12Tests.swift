import MarqueeTesting
import MatrixCore
import SimpleJSON
import TestSupport
import Testing

@testable import Drivers
@testable import MAX7219Core

/// HUB12 panels: the bytes checked against the Freetronics DMD library's scan, the
/// emulated panels against the frame, and board files.
@Suite struct HUB12Tests {
  static func board(_ name: String) throws -> HUB12Board {
    guard let board = try boardFile(name).family as? HUB12Board else {
      throw InvalidBoardValue(field: "Boards/\(name).json", reason: "not a HUB12 board")
    }
    return board
  }

  /// What DMD's `scanDisplayBySPI` shifts for row group `group` of `panels` panels in a row:
  /// its screen RAM holds each pixel row as 4 bytes a panel, 0 for a lit LED, MSB leftmost;
  /// for each column byte i it sends the bytes of rows g+12, g+8, g+4 and g.
  static func dmdScan(_ frame: Framebuffer, panels: Int, group: Int) -> [UInt8] {
    let rowSize = panels * 4
    var ram = [UInt8](repeating: 0xFF, count: rowSize * 16)
    for y in 0..<16 {
      for x in 0..<(32 * panels) where frame[x, y] { ram[y * rowSize + x / 8] &= ~(0x80 >> UInt8(x % 8)) }
    }
    let row1: Int = panels << 4
    let row2: Int = panels << 5
    let row3: Int = ((panels << 2) * 3) << 2
    let offset = rowSize * group
    var sent: [UInt8] = []
    for i in 0..<rowSize {
      let at = offset + i
      sent += [ram[at + row3], ram[at + row2], ram[at + row1], ram[at]]
    }
    return sent
  }

  @Test(arguments: ["hub12-p10-32x16", "hub12-p10-128x16"])
  func theBytesAreWhatTheDMDLibraryShifts(_ name: String) throws {
    let board = try HUB12Tests.board(name)
    var random = SplitMix64(seed: 12)
    var encoder = HUB12Encoder(board: board)
    var cycle = HUB12Cycle()
    for _ in 0..<5 {
      let frame = randomFrame(width: board.width, height: board.height, using: &random)
      encoder.encode(frame, into: &cycle)
      try #require(cycle.groups.count == 4)
      for group in 0..<4 {
        #expect(Array(cycle.groups.transaction(group)) == HUB12Tests.dmdScan(frame.pixels, panels: board.panelCount, group: group))
      }
      #expect(cycle.onFraction == 1)
    }
  }

  /// Random frames through the emulated shift registers, latches and decoder, for every
  /// shipped board, polarity and a serpentine grid: one scan cycle lights the frame.
  @Test func randomFramesRoundTripThroughTheEmulatedPanels() throws {
    var random = SplitMix64(seed: 1612)
    var boards = try ["hub12-p10-32x16", "hub12-p10-128x16", "hub12-p10-64x32", "hub12-32x16-scan8"].map(HUB12Tests.board)
    let lines: [HUB12Board.Signal: HUB12Board.Line] = [
      .oe: .init(chip: "c", offset: 1), .a: .init(chip: "c", offset: 2), .b: .init(chip: "c", offset: 3),
      .c: .init(chip: "c", offset: 4), .d: .init(chip: "c", offset: 5), .lat: .init(chip: "c", offset: 6),
    ]
    boards.append(try HUB12Board(
      name: "1/16, active-high data, active-low OE", panelWidth: 64, panelHeight: 32, scan: 16, order: .rows,
      dataActiveLow: false, oeActiveHigh: false, columns: 2, rows: 2,
      chainOrder: ChainOrder(start: .bottomLeft, direction: .columns, serpentine: true), lines: lines))
    for board in boards {
      var emulation = HUB12Emulation(board: board)
      var seen = Frame(width: board.width, height: board.height)
      for _ in 0..<4 {
        let frame = randomFrame(width: board.width, height: board.height, using: &random)
        emulation.show(frame, into: &seen)
        #expect(seen.pixels == frame.pixels, "\(board.name)")
      }
    }
  }

  @Test func fadesAndBrightnessAreTheOnShare() throws {
    let board = try HUB12Tests.board("hub12-p10-32x16").with(intensity: 7)
    var encoder = HUB12Encoder(board: board)
    var cycle = HUB12Cycle()
    var frame = Frame(width: 32, height: 16)
    frame.brightness = 0.5
    encoder.encode(frame, into: &cycle)
    #expect(cycle.onFraction == 0.25)
    encoder.shutDown(into: &cycle)
    #expect(cycle.onFraction == 0 && cycle.groups.bytes.allSatisfy { $0 == 0xFF }, "dark: every bit off (active low)")
  }

  @Test func badBoardsNameTheField() throws {
    func error(_ json: String) -> String { boardFileError(json, path: "h.json") }
    let gpio = #""gpio": {"oe": 22, "a": 23, "b": 24, "lat": 25}"#
    #expect(error(#"{"driver": "hub12", "panel": {"scan": 8}, \#(gpio)}"#)
      == "h.json: field 'gpio.c': missing: a 8-row-group panel needs oe, a, b, lat, c")
    #expect(error(#"{"driver": "hub12", "gpio": {"oe": 22, "a": 23, "b": 22, "lat": 25}}"#)
      == "h.json: field 'gpio.b': line 22 of /dev/gpiochip0 is also oe")
    #expect(error(#"{"driver": "hub12", "panel": {"width": 64, "order": "dmd"}, \#(gpio)}"#)
      == "h.json: field 'panel.order': 'dmd' is the order of 32x16 1/4-scan panels; use 'rows'")
    #expect(error(#"{"driver": "hub12", "panel": {"height": 14, "order": "rows"}, \#(gpio)}"#)
      == "h.json: field 'panel.height': 14 rows do not split into 4 row groups")
    #expect(error(#"{"driver": "hub12", "panel": {"scan": 5}, \#(gpio)}"#) == "h.json: field 'panel.scan': 5 is not 4, 8 or 16")
    #expect(error(#"{"driver": "hub12"}"#) == "h.json: field 'gpio': missing (it is required)")
    #expect(error(#"{"driver": "hub12", "gpio": {"oe": {"chip": "/dev/gpiochip1"}, "a": 23, "b": 24, "lat": 25}}"#)
      == "h.json: field 'gpio.oe.line': missing (it is required)")
  }
}

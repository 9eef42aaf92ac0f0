import Foundation
import MatrixCore
import Testing

import Drivers

/// luma.led_matrix's MAX7219 mapping, written from its documented algorithm
/// (`max7219.preprocess` and `display`): the frame is turned by `rotate` quarter turns
/// clockwise, each 8x8 block is turned by `block_orientation` degrees counter-clockwise (PIL's
/// `Image.rotate`), the block order is mirrored when `blocks_arranged_in_reverse_order`, and
/// then digit register n of the chip at chain position k holds column n of block k from the
/// top left, bit y the block's row y.
struct LumaModel {
  var blockOrientation: Int
  var reversed = false
  var rotate = 0

  /// The digit registers of each chip, chain position 0 (wired to the host) first.
  func registers(_ frame: Framebuffer) -> [[UInt8]] {
    var image = frame
    for _ in 0..<rotate { image = LumaModel.turnedClockwise(image) }
    let blocks = image.width / 8 * (image.height / 8)
    var result: [[UInt8]] = []
    for block in 0..<blocks {
      let bx = block % (image.width / 8) * 8, by = block / (image.width / 8) * 8
      var cell = image.cropped(x: bx, y: by, width: 8, height: 8)
      // PIL rotates counter-clockwise by the angle: -90 is a quarter turn clockwise.
      let quarters = ((-blockOrientation / 90) % 4 + 4) % 4
      for _ in 0..<quarters { cell = LumaModel.turnedClockwise(cell) }
      result.append((0..<8).map { n in
        (0..<8).reduce(UInt8(0)) { byte, y in cell[n, y] ? byte | UInt8(1) << y : byte }
      })
    }
    if reversed { result.reverse() }
    return result
  }

  static func turnedClockwise(_ image: Framebuffer) -> Framebuffer {
    var turned = Framebuffer(width: image.height, height: image.width)
    for y in 0..<image.height { for x in 0..<image.width where image[x, y] { turned[image.height - 1 - y, x] = true } }
    return turned
  }
}

@Suite struct LumaMountingTests {
  /// Random frames of a board's size.
  static func frames(width: Int, height: Int) -> [Framebuffer] {
    var random = SplitMix64(seed: 42)
    return (0..<6).map { _ in
      var frame = Framebuffer(width: width, height: height)
      for y in 0..<height { for x in 0..<width where random.next() % 3 == 0 { frame[x, y] = true } }
      return frame
    }
  }

  /// The digit registers our encoder leaves in each chip, through the chip emulator.
  static func ourRegisters(_ board: MAX7219Board, _ frame: Framebuffer) -> [[UInt8]] {
    var encoder = MAX7219Encoder(board: board)
    var emulator = MAX7219ChainEmulator(chips: board.chipCount)
    var output = SPITransactions()
    encoder.startUp(into: &output)
    encoder.encode(Frame(pixels: frame), into: &output)
    emulator.receive(output)
    return emulator.chips.map(\.digits)
  }

  static func matches(_ board: MAX7219Board, _ luma: LumaModel) -> Bool {
    frames(width: board.width, height: board.height).allSatisfy { ourRegisters(board, $0) == luma.registers($0) }
  }

  /// The rows of Docs/hardware.md's table: luma's settings, and the board-file fields that
  /// drive the same hardware the same way.
  static let table: [(luma: LumaModel, board: String)] = [
    (LumaModel(blockOrientation: -90), #""module": "fc16", "rotation": 180, "chain": {"start": "top-left"}"#),
    (LumaModel(blockOrientation: -90, rotate: 2), #""module": "fc16", "chain": {"start": "top-right"}"#),
    (LumaModel(blockOrientation: 90, reversed: true), #""module": "fc16", "chain": {"start": "top-right"}"#),
    (LumaModel(blockOrientation: 90), #""module": "fc16", "chain": {"start": "top-left"}"#),
    (LumaModel(blockOrientation: 0), #""module": "generic", "rotation": 180, "chain": {"start": "top-left"}"#),
    (LumaModel(blockOrientation: 180), #""module": "generic", "chain": {"start": "top-left"}"#),
  ]

  @Test(arguments: table.indices)
  func eachRowOfTheTableLightsWhatLumaLights(row: Int) throws {
    let (luma, fields) = LumaMountingTests.table[row]
    for columns in [1, 4, 8] {
      let json = #"{"driver": "max7219", "grid": {"columns": \#(columns)}, \#(fields)}"#
      let board = try MAX7219Board(json: json, path: "row \(row)")
      #expect(LumaMountingTests.matches(board, luma), "\(fields) at \(columns) modules")
    }
  }

  @Test(arguments: ["max7219-fc16-luma-32x8.json", "max7219-fc16-luma-64x8.json"])
  func theLumaBoardFilesMatchBlockOrientationMinus90(file: String) throws {
    let board = try MAX7219Board(json: try String(contentsOfFile: "Boards/" + file, encoding: .utf8), path: file)
    #expect(LumaMountingTests.matches(board, LumaModel(blockOrientation: -90)))
    // And not the stock FC-16 mounting: the two differ on every random frame.
    let stock = try MAX7219Board(name: "stock", wiring: .fc16, columns: board.columns)
    #expect(!LumaMountingTests.matches(stock, LumaModel(blockOrientation: -90)))
  }

  /// The model against luma itself, as captured from its SPI writes (shared research notes):
  /// with no block rotation, pixel (31, 0) of a 32x8 chain is in the first pair of the
  /// DIGIT7 write (the chip farthest from the Pi) and pixel (0, 0) in the last pair of the
  /// DIGIT0 write (the chip wired to the Pi).
  @Test func theModelAgreesWithLumasCapturedWrites() {
    var corner = Framebuffer(width: 32, height: 8)
    corner[31, 0] = true
    #expect(LumaModel(blockOrientation: 0).registers(corner)[3][7] == 1)
    var origin = Framebuffer(width: 32, height: 8)
    origin[0, 0] = true
    #expect(LumaModel(blockOrientation: 0).registers(origin)[0][0] == 1)
    #expect(LumaModel(blockOrientation: 0).registers(origin).joined().filter { $0 != 0 }.count == 1)
  }

  @Test func twoRowsOfBlocksChainAsLumaNumbersThem() throws {
    // luma numbers the blocks of a grid row by row from the top left.
    let board = try MAX7219Board(name: "grid", wiring: .fc16, columns: 4, rows: 2, rotation: .half, chainStart: .topLeft)
    #expect(LumaMountingTests.matches(board, LumaModel(blockOrientation: -90)))
  }
}

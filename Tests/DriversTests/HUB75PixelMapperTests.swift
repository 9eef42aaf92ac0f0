import MatrixCore
import TestSupport
import Testing

@testable import Drivers
@testable import MAX7219Core

/// hzeller's pixel mappers, checked against a model of the arrangements his documentation
/// draws (rpi-rgb-led-matrix, examples-api-use/README "Remapping coordinates"), not his code:
/// each visible pixel lit alone, encoded, refreshed into the emulated panels, must light the
/// LED of the chain's canvas the drawing says; and every picture comes back whole through
/// the simulator.
///
/// The chain's canvas, as his drawings view the LED side: panels side by side, the one
/// nearest the Pi's connector at the right (P1), the farthest at the left.
@Suite struct HUB75PixelMapperTests {
  /// The chain canvas's LED the one lit visible pixel (x, y) lights, read from the panels.
  func litLED(_ board: HUB75Board, x: Int, y: Int) -> (x: Int, y: Int)? {
    let lit = litLEDs(board, x: x, y: y)
    return lit.count == 1 ? lit[0] : nil
  }

  /// Every LED of the chain's canvas the one lit visible pixel (x, y) lights.
  func litLEDs(_ board: HUB75Board, x: Int, y: Int) -> [(x: Int, y: Int)] {
    var frame = Frame(width: board.width, height: board.height)
    frame.pixels[x, y] = true
    var encoder = HUB75Encoder(board: board, color: RGBColor(red: 255, green: 255, blue: 255))
    var program = HUB75Program()
    encoder.encode(frame, into: &program)
    var panels = HUB75Emulator(board: board)
    panels.run(program)
    var lit: [(Int, Int)] = []
    for my in 0..<board.matrixHeight {
      for mx in 0..<board.matrixWidth where panels.color(x: mx, y: my).red > 0 { lit.append((mx, my)) }
    }
    return lit
  }

  func board(_ mapper: String, columns: Int = 32, rows: Int = 32, chain: Int, parallel: Int = 1) throws -> HUB75Board {
    try HUB75Board(name: "mapped", panelColumns: columns, panelRows: rows, chainLength: chain, parallel: parallel, colorDepth: 1,
                   pixelMapper: try HUB75PixelMapper(parsing: mapper))
  }

  /// "[<][<][<][<] }- Pi" folded as "[<][<] }--- Pi" over "[>][>]": four 32x32 panels make a
  /// 64x64 sign. Top row: P2 then P1, upright; bottom row: P3 then P4, upside down.
  @Test func uMapperFoldsTheChainAsDrawn() throws {
    let board = try board("U-mapper", chain: 4)
    #expect((board.width, board.height) == (64, 64))
    // The chain canvas's panels: P1 at x 96-127 (nearest the Pi) ... P4 at x 0-31.
    let panelStart = [1: 96, 2: 64, 3: 32, 4: 0]
    // Each visible quadrant: which panel, and whether it is upside down.
    let quadrants: [(x: Int, y: Int, panel: Int, turned: Bool)] = [(0, 0, 2, false), (32, 0, 1, false), (0, 32, 3, true), (32, 32, 4, true)]
    for quadrant in quadrants {
      for (dx, dy) in [(0, 0), (5, 9), (31, 31)] {
        let (inX, inY) = quadrant.turned ? (31 - dx, 31 - dy) : (dx, dy)
        let expected = (panelStart[quadrant.panel]! + inX, inY)
        let lit = litLED(board, x: quadrant.x + dx, y: quadrant.y + dy)
        #expect(lit.map { $0 == expected } == true, "visible (\(quadrant.x + dx), \(quadrant.y + dy)): \(String(describing: lit)), want \(expected)")
      }
    }
  }

  /// The panels as `boards --check` and `identify` place them, from the same drawing: in
  /// data order (P1 first), each one's box on the sign and its first LED, which a turned
  /// panel has at the far corner.
  @Test func theUnitsAreThePanelsWhereTheyLand() throws {
    let units = try board("U-mapper", chain: 4).units
    let expected: [(x: Int, y: Int, first: (Int, Int))] = [(32, 0, (32, 0)), (0, 0, (0, 0)), (0, 32, (31, 63)), (32, 32, (63, 63))]
    #expect(units.count == 4)
    for (unit, want) in zip(units, expected) {
      #expect(unit.x == want.x && unit.y == want.y && unit.width == 32 && unit.height == 32, "\(unit)")
      #expect(unit.firstLED.map { $0 == want.first } == true, "\(unit)")
    }
  }

  /// Two chains folded each: "--led-chain=8 --led-parallel=2": two slabs, one under the other.
  @Test func uMapperFoldsEachParallelChain() throws {
    let board = try board("U-mapper", columns: 32, rows: 16, chain: 4, parallel: 2)
    #expect((board.width, board.height) == (64, 64))
    // The second slab (visible y 32-63) is chain 2 (canvas y 16-31): its top row upright.
    #expect(litLED(board, x: 0, y: 32).map { $0 == (64, 16) } == true)
    #expect(litLED(board, x: 0, y: 63).map { $0 == (63, 16) } == true)
  }

  /// "V-mapper": each chain's panels stacked upwards from the connector at the bottom, the
  /// parallel chains side by side; "V-mapper:Z" turns every other one from the bottom.
  @Test(arguments: [false, true])
  func vMapperStacksPanelsUpwards(zigzag: Bool) throws {
    let board = try board(zigzag ? "V-mapper:Z" : "V-mapper", columns: 32, rows: 16, chain: 3, parallel: 2)
    #expect((board.width, board.height) == (64, 48))
    // Chain c's panels: P1 (nearest the Pi) at canvas x 64-95 ... P3 at x 0-31, rows 16c.
    // Visible: chain c is column block c; bottom panel row P1, then P2, then P3 at the top.
    for (block, chain) in [(0, 0), (1, 1)] {
      for (panelRow, panel) in [(2, 1), (1, 2), (0, 3)] {
        let turned = zigzag && panel % 2 == 0
        let (dx, dy) = (3, 5)
        let (inX, inY) = turned ? (31 - dx, 15 - dy) : (dx, dy)
        let expected = ((3 - panel) * 32 + inX, chain * 16 + inY)
        let lit = litLED(board, x: block * 32 + dx, y: panelRow * 16 + dy)
        #expect(lit.map { $0 == expected } == true, "block \(block), P\(panel): \(String(describing: lit)), want \(expected)")
      }
    }
  }

  /// Rotate turns the picture clockwise on the panels; Mirror flips it; both on a 64x32 panel.
  @Test(arguments: [
    ("Rotate:90", 32, 64, [((0, 0), (63, 0)), ((31, 0), (63, 31)), ((0, 63), (0, 0))]),
    ("Rotate:180", 64, 32, [((0, 0), (63, 31)), ((63, 31), (0, 0))]),
    ("Rotate:270", 32, 64, [((0, 0), (0, 31)), ((31, 63), (63, 0))]),
    ("Mirror:H", 64, 32, [((0, 0), (63, 0)), ((10, 5), (53, 5))]),
    ("Mirror", 64, 32, [((0, 0), (63, 0))]),
    ("Mirror:V", 64, 32, [((0, 0), (0, 31)), ((10, 5), (10, 26))]),
    ("Rotate:90;Mirror:H", 32, 64, [((0, 0), (63, 31)), ((31, 0), (63, 0))]),
  ])
  func rotateAndMirror(mapper: String, width: Int, height: Int, points: [((Int, Int), (Int, Int))]) throws {
    let board = try board(mapper, columns: 64, rows: 32, chain: 1)
    #expect((board.width, board.height) == (width, height))
    for (visible, expected) in points {
      let lit = litLED(board, x: visible.0, y: visible.1)
      #expect(lit.map { $0 == expected } == true, "\(mapper) \(visible): \(String(describing: lit)), want \(expected)")
    }
  }

  /// Whatever the mappers, the simulator shows the picture drawn: the encoder and the
  /// emulated panels agree through the map and its inverse.
  @Test(arguments: [
    "U-mapper;Rotate:90", "V-mapper:Z;Mirror:V", "Rotate:270;Mirror:H", "U-mapper;Rotate:180;Mirror:V", "StackToRow:Z;Rotate:90", "StackToRow:F",
    "Remap:64,64|0,0n|32,0s|0,16n|32,16n|0,32s|32,32n|0,48n|32,48s;Mirror:H",
  ])
  func theSimulatorShowsThePictureDrawn(mapper: String) throws {
    let board = try board(mapper, columns: 32, rows: 16, chain: 4, parallel: 2)
    var random = SplitMix64(seed: 7)
    let frame = randomFrame(width: board.width, height: board.height, using: &random)
    var emulation = HUB75Emulation(board: board, color: RGBColor(red: 255, green: 0, blue: 0))
    var seen = Frame(width: board.width, height: board.height)
    emulation.show(frame, into: &seen)
    #expect(seen.pixels == frame.pixels, "\(mapper)")
  }

  /// "Remap": each panel, in data order (P1 nearest the Pi), where its box's corner is and
  /// which way its top edge faces: three 32x16 panels on a 64x48 canvas, P1 upright at the
  /// top left, P2 turned round beside it, P3 a quarter turn clockwise (its top to the right)
  /// in a 16x32 box under P1: its top-left LED at the box's top-right corner, its top row
  /// running down the box's right edge.
  @Test func remapPutsEachPanelWhereItsListSays() throws {
    let board = try board("Remap:64,48|0,0n|32,0s|0,16e", columns: 32, rows: 16, chain: 3)
    #expect((board.width, board.height) == (64, 48))
    // The chain's canvas: P1 at x 64-95, P2 at 32-63, P3 at 0-31.
    let expected: [((Int, Int), (Int, Int))] = [
      ((0, 0), (64, 0)), ((5, 3), (69, 3)),
      ((32, 0), (63, 15)), ((63, 15), (32, 0)),
      ((15, 16), (0, 0)), ((15, 47), (31, 0)), ((0, 16), (0, 15)),
    ]
    for (visible, led) in expected {
      let lit = litLED(board, x: visible.0, y: visible.1)
      #expect(lit.map { $0 == led } == true, "visible \(visible): \(String(describing: lit)), want \(led)")
    }
    // A place no panel covers lights nothing.
    #expect(litLEDs(board, x: 40, y: 30).isEmpty)
    // "w": a quarter turn the other way: the top-left LED at the box's bottom-left corner.
    let west = try self.board("Remap:16,32|0,0w", columns: 32, rows: 16, chain: 1)
    #expect(litLED(west, x: 0, y: 31).map { $0 == (0, 0) } == true)
    #expect(litLED(west, x: 15, y: 31).map { $0 == (0, 15) } == true)
    #expect(litLED(west, x: 0, y: 0).map { $0 == (31, 0) } == true)
  }

  /// "x" leaves a panel off the sign; two panels over one place both show it; `boards
  /// --check` and `identify` see the panel left off as not shown.
  @Test func remapLeavesPanelsOffAndShowsOnePlaceTwice() throws {
    let board = try board("Remap:32,16|0,0n|0,0x|0,0n", columns: 32, rows: 16, chain: 3)
    let lit = litLEDs(board, x: 2, y: 1)
    #expect(lit.count == 2 && lit.contains { $0 == (66, 1) } && lit.contains { $0 == (2, 1) }, "\(lit)")
    let units = board.units
    #expect(units[1].width == 0 && units[0].width == 32 && units[2].width == 32)
  }

  /// "StackToRow": three parallel chains of one 32x16 panel, stacked on the chain's canvas,
  /// set side by side: chain b is band b of a 96x16 sign; Z turns band 1 round, F bands 1
  /// and 2 (the right half, from the middle band), both together band 2 alone.
  @Test(arguments: [("StackToRow", [false, false, false]), ("StackToRow:Z", [false, true, false]), ("StackToRow:F", [false, true, true]), ("StackToRow:ZF", [false, false, true])])
  func stackToRowSetsTheChainsSideBySide(mapper: String, turned: [Bool]) throws {
    let board = try board(mapper, columns: 32, rows: 16, chain: 1, parallel: 3)
    #expect((board.width, board.height) == (96, 16))
    for band in 0..<3 {
      let (inX, inY) = turned[band] ? (31 - 3, 15 - 5) : (3, 5)
      let lit = litLED(board, x: band * 32 + 3, y: 5)
      #expect(lit.map { $0 == (inX, band * 16 + inY) } == true, "\(mapper) band \(band): \(String(describing: lit))")
    }
  }

  @Test(arguments: [
    ("Remap:64,64|0,0n", "the board has 2"),
    ("Remap:64,64|0,0n|500,0n", "Remap puts panel 2 at 500,0, wholly outside the 64x64 canvas"),
  ])
  func aRemapMustPlaceEveryPanelOnTheCanvas(mapper: String, reason: String) throws {
    #expect {
      try board(mapper, columns: 32, rows: 16, chain: 2)
    } throws: { error in
      (error as? InvalidBoardValue)?.field == "pixelMapper" && (error as? InvalidBoardValue)?.reason.contains(reason) == true
    }
  }

  @Test(arguments: [
    ("Remap", "'Remap': Remap begins with the canvas's WIDTH,HEIGHT"),
    ("Remap:64,0|0,0n", "'Remap:64,0|0,0n': Remap begins with the canvas's WIDTH,HEIGHT"),
    ("Remap:99999999999999999999,2|0,0n", "Remap begins with the canvas's WIDTH,HEIGHT"),
    ("Remap:64,64|0,0q", "panel 1 is '0,0q', not X,Y and a facing"),
    ("Remap:64,64|0,n", "panel 1 is '0,n'"),
    ("StackToRow:Q", "StackToRow takes Z, F or both"),
    ("Rotate:90;Remap:64,64|0,0n", "Remap describes the chain: put it first"),
  ])
  func badRemapsAreRefused(mapper: String, reason: String) {
    #expect {
      try HUB75PixelMapper(parsing: mapper)
    } throws: { error in
      (error as? InvalidBoardValue)?.field == "pixelMapper" && (error as? InvalidBoardValue)?.reason.contains(reason) == true
    }
  }

  @Test(arguments: [
    ("Rotate:45", "'Rotate:45': Rotate takes 0, 90, 180 or 270 (clockwise)"),
    ("Sideways", "'Sideways': not one of U-mapper, V-mapper, V-mapper:Z, StackToRow, Remap, Rotate:ANGLE, Mirror:H, Mirror:V"),
    ("Rotate:90;U-mapper", "'U-mapper': U-mapper describes the chain: put it first"),
    ("Mirror:X", "'Mirror:X': Mirror takes H or V"),
  ])
  func badMappersAreRefusedAtTheirField(mapper: String, reason: String) {
    #expect(throws: InvalidBoardValue(field: "pixelMapper", reason: reason)) { try HUB75PixelMapper(parsing: mapper) }
  }

  @Test func aUMapperNeedsAnEvenChainAndBoardFilesTakeTheMapper() throws {
    #expect(throws: InvalidBoardValue(field: "pixelMapper", reason: "U-mapper folds each chain in two: its length (grid.columns) must be even, not 3")) {
      try board("U-mapper", chain: 3)
    }
    let file = try SignBoard(json: #"{"driver": "hub75", "panel": {"columns": 32, "rows": 32}, "grid": {"columns": 4}, "pixelMapper": "U-mapper; Rotate:90"}"#, path: "u.json")
    #expect((file.width, file.height) == (64, 64))
    #expect((file.family as? HUB75Board)?.pixelMapper.description == "U-mapper;Rotate:90")
    let remap = try HUB75PixelMapper(parsing: "Remap:64,48|0,0N|32,0s|0,16e; Mirror:V")
    #expect(remap.description == "Remap:64,48|0,0n|32,0s|0,16e;Mirror:V")
    #expect(try HUB75PixelMapper(parsing: "StackToRow:zf").description == "StackToRow:ZF")
  }
}

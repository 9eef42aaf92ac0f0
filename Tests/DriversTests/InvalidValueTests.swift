import MatrixCore
import Testing

import Drivers
import Marquee

/// Public initialisers refuse what the hardware (or the format) cannot take, with an error
/// that names the parameter, instead of writing a wrong value or trapping.
@Suite struct InvalidValueTests {
  @Test(arguments: [-1, 16, 255])
  func aBoardRefusesAnIntensityTheChipCannotTake(intensity: Int) {
    #expect(throws: MAX7219Board.InvalidValue(field: "intensity", reason: "\(intensity) is outside 0...15")) {
      try MAX7219Board(name: "b", wiring: .fc16, columns: 4, intensity: intensity)
    }
  }

  @Test func aBoardRefusesAnImpossibleGridClockOrDevice() throws {
    #expect(throws: MAX7219Board.InvalidValue.self) { try MAX7219Board(name: "b", wiring: .fc16, columns: 0) }
    #expect(throws: MAX7219Board.InvalidValue.self) { try MAX7219Board(name: "b", wiring: .fc16, columns: 4, rows: 0) }
    #expect(throws: MAX7219Board.InvalidValue(field: "grid", reason: "2048 modules is more than 1024")) {
      try MAX7219Board(name: "b", wiring: .fc16, columns: 256, rows: 8)
    }
    #expect(throws: MAX7219Board.InvalidValue.self) { try MAX7219Board(name: "b", wiring: .fc16, columns: 4, speedHz: 20_000_000) }
    #expect(throws: MAX7219Board.InvalidValue.self) { try MAX7219Board(name: "b", wiring: .fc16, columns: 4, device: "") }
    // Every limit taken exactly still makes a board.
    let board = try MAX7219Board(name: "b", wiring: .fc16, columns: 256, rows: 4, speedHz: 10_000_000, intensity: 15)
    #expect(board.chipCount == 1024 && board.intensity == 15)
  }

  @Test func theBoardFileAndTheInitialiserShareTheirLimits() {
    #expect(throws: BoardFileError.self) {
      try MAX7219Board(json: #"{"driver": "max7219", "module": "fc16", "grid": {"columns": 4}, "intensity": 16}"#, path: "b.json")
    }
  }

  @Test func anEmulatedBoardRefusesAScreenOfAnotherSize() throws {
    let board = try MAX7219Board(name: "b", wiring: .fc16, columns: 4)
    #expect(throws: MAX7219Board.InvalidValue.self) {
      try EmulatedBoardDisplay(board: board, screen: AsciiDisplay(width: 16, height: 8, descriptor: -1))
    }
  }

  @Test(arguments: [0.0, -5, .infinity, .nan])
  func aPlayerRefusesAFrameRateThatIsNotPositive(fps: Double) {
    #expect(throws: MarqueeError.self) { try Player(fps: fps) }
  }

  @Test func aGIFLargerThanTheFormatIsAnErrorNamingTheLimit() {
    #expect(throws: GIFError.self) { try GIFRecorder(width: 4096, height: 8, fps: 10, scale: 16) }
    do {
      _ = try GIFWriter(width: 65_536, height: 1, palette: [(0, 0, 0)])
    } catch {
      #expect(error.reason.contains("at most 65535 pixels a side"))
    }
    #expect(throws: Never.self) { try GIFWriter(width: 65_535, height: 1, palette: [(0, 0, 0)]) }
  }
}

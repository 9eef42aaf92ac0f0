import Foundation
import MatrixCore
import Platform
import TestSupport
import Testing

@testable import Drivers

/// Every row address kind and multiplexing on a Pi 5: the refresh's register writes go
/// through RP1's RIO block (the scanner's own store of each step, on a file that stands for
/// `/dev/gpiomem0`), are read back at the offsets RP1's datasheet gives from a second map of
/// the same file, and the emulated panel of that kind shows the picture. hzeller's Pi 5
/// back end takes only row address kinds 0 and 2 (his issue #1603: 128x64 ABC panels).
@Suite struct HUB75Pi5Tests {
  /// RP1's bank 0, in 32-bit words: RIO at 0x10000, its set alias at +0x2000 and its clear
  /// alias at +0x3000 (RP1 peripherals datasheet, "SYS_RIO").
  static let setAlias = (0x10000 + 0x2000) / 4, clearAlias = (0x10000 + 0x3000) / 4

  /// Runs `program` on the RIO block a step at a time, each write read back from `window`
  /// into `panel`; pulses as the scanner drives OE (low through the clear alias, high
  /// through the set alias).
  static func run(_ program: HUB75Program, registers: PiGPIORegisters, window: RegisterWindow, oe: UInt32, into panel: inout HUB75Emulator) {
    for word in program.words {
      window.store(0, at: setAlias)
      window.store(0, at: clearAlias)
      if HUB75Scanner.write(word, set: registers.setRegister, clear: registers.clearRegister, repeats: 1) {
        let (set, clear) = (window.load(setAlias), window.load(clearAlias))
        if clear != 0 { panel.run(.clear(clear)) }
        if set != 0 { panel.run(.set(set)) }
      } else {
        storeRegister(registers.clearRegister, oe)
        #expect(window.load(clearAlias) == oe, "OE low through the clear alias")
        panel.run(.pulse(plane: Int(word & ~HUB75Program.tagMask)))
        storeRegister(registers.setRegister, oe)
      }
    }
  }

  @Test(arguments: HUB75RowAddress.allCases)
  func everyKindAndMultiplexingReachesThePanelThroughRIO(_ kind: HUB75RowAddress) throws {
    let path = try PiFixtures.rp1RegisterFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let window = try RegisterWindow(path: path, length: 0x30000)
    var driven = 0
    for (columns, rows) in [(64, 32), (32, 16), (128, 64)] {
      for multiplexing in HUB75Multiplexing.allCases {
        guard let board = try? HUB75Board(
          name: "pi5", panelColumns: columns, panelRows: rows, rowAddress: kind, multiplexing: multiplexing, colorDepth: 1, device: path)
        else { continue }
        let registers = try PiGPIORegisters(pi: HUB75Tests.pi5, device: path)
        let lines = board.pins.namedLines(parallel: 1).filter { line in
          guard let index = ["a", "b", "c", "d", "e"].firstIndex(of: line.name) else { return true }
          return kind.lines(rowPairs: board.rowPairs).contains(index)
        }
        try registers.claim(outputs: lines.map(\.gpio), high: 1 << UInt32(board.pins.oe), inputs: [], names: [:])
        var picture = Framebuffer(width: board.width, height: board.height)
        for y in 0..<board.height { for x in 0..<board.width where (x * 7 + y * 3) % 5 < 2 { picture[x, y] = true } }
        var encoder = HUB75Encoder(board: board, color: RGBColor(red: 255, green: 255, blue: 255))
        var program = HUB75Program()
        encoder.encode(Frame(pixels: picture), into: &program)
        var panel = HUB75Emulator(board: board)
        // Twice: the second refresh as a panel shows it for good (shift-register rows start
        // from their power-up state).
        for _ in 0..<2 {
          panel.resetCounts()
          HUB75Pi5Tests.run(program, registers: registers, window: window, oe: 1 << UInt32(board.pins.oe), into: &panel)
        }
        var wrong = 0
        for y in 0..<board.height {
          for x in 0..<board.width where (panel.color(x: x, y: y).red > 0) != picture[x, y] { wrong += 1 }
        }
        #expect(wrong == 0 && panel.badSelections == 0 && panel.pulses.allSatisfy { $0 == 1 }, "\(kind) \(multiplexing) \(columns)x\(rows)")
        registers.release()
        // Every line given back to no function, as RP1 came up.
        for line in lines { #expect(window.load((8 * line.gpio + 4) / 4) == 0x1F) }
        driven += 1
      }
    }
    #expect(driven > 0)
    print("HUB75Pi5Tests: \(kind.rawValue) (\(kind.hzellerNumber)): \(driven) panel and multiplexing pairs shown through RIO")
  }
}

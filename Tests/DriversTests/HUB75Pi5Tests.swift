import Foundation
import MatrixCore
import Platform
import TestSupport
import Testing

@testable import Drivers

/// Every row address kind and multiplexing on a Pi 5: the refresh loop itself (the scanner's
/// `run`, pulses overlapping the shifting as on a panel) writes through RP1's RIO block on a
/// file that stands for `/dev/gpiomem0`; each write is read back at the offsets RP1's
/// datasheet gives from a second map of the same file, and the emulated panel of that kind
/// shows the picture. hzeller's Pi 5 back end takes only row address kinds 0 and 2 (his issue
/// #1603: 128x64 ABC panels).
@Suite struct HUB75Pi5Tests {
  /// RP1's bank 0, in 32-bit words: RIO at 0x10000, its set alias at +0x2000 and its clear
  /// alias at +0x3000 (RP1 peripherals datasheet, "SYS_RIO").
  static let setAlias = (0x10000 + 0x2000) / 4, clearAlias = (0x10000 + 0x3000) / 4

  /// The scanner's registers, each write read back from `window` into `panel`: OE driven
  /// low through the clear alias is the program's next pulse (its planes in order), OE high
  /// its end.
  struct ObservedRIO: HUB75Registers {
    let mapped: MappedRegisters, window: RegisterWindow, oe: UInt32, planes: [Int]
    var panel: HUB75Emulator
    var pulses = 0

    mutating func set(_ mask: UInt32) { observe(mask, set: true) }
    mutating func clear(_ mask: UInt32) { observe(mask, set: false) }

    mutating func observe(_ mask: UInt32, set isSet: Bool) {
      window.store(0, at: HUB75Pi5Tests.setAlias)
      window.store(0, at: HUB75Pi5Tests.clearAlias)
      if isSet { mapped.set(mask) } else { mapped.clear(mask) }
      let (set, clear) = (window.load(HUB75Pi5Tests.setAlias), window.load(HUB75Pi5Tests.clearAlias))
      if clear == oe && set == 0 {
        panel.run(.pulse(plane: planes[pulses % planes.count]))
        pulses += 1
      } else if !(set == oe && clear == 0) {
        if clear != 0 { panel.run(.clear(clear)) }
        if set != 0 { panel.run(.set(set)) }
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
          name: "pi5", panelColumns: columns, panelRows: rows, rowAddress: kind, multiplexing: multiplexing, colorDepth: 1, lsbNanoseconds: 50,
          device: path)
        else { continue }
        let scanner = try HUB75Scanner(board: board, pi: HUB75Tests.pi5)
        let lines = board.pins.namedLines(parallel: 1).filter { line in
          guard let index = ["a", "b", "c", "d", "e"].firstIndex(of: line.name) else { return true }
          return kind.lines(rowPairs: board.rowPairs).contains(index)
        }
        var picture = Framebuffer(width: board.width, height: board.height)
        for y in 0..<board.height { for x in 0..<board.width where (x * 7 + y * 3) % 5 < 2 { picture[x, y] = true } }
        var encoder = HUB75Encoder(board: board, color: RGBColor(red: 255, green: 255, blue: 255))
        var program = HUB75Program()
        encoder.encode(Frame(pixels: picture), into: &program)
        let oe = UInt32(1) << UInt32(board.pins.oe)
        var rio = ObservedRIO(
          mapped: MappedRegisters(setAddress: scanner.gpio.setRegister, clearAddress: scanner.gpio.clearRegister), window: window, oe: oe,
          planes: program.steps.compactMap { if case .pulse(let plane) = $0 { plane } else { nil } }, panel: HUB75Emulator(board: board))
        // Twice: the second refresh as a panel shows it for good (shift-register rows start
        // from their power-up state).
        for _ in 0..<2 {
          rio.panel.resetCounts()
          scanner.run(program, oe: oe, pulseNs: [Int64(board.pulseNanoseconds(plane: 0))], on: &rio)
        }
        #expect(rio.pulses == 2 * rio.planes.count)
        let panel = rio.panel
        var wrong = 0
        for y in 0..<board.height {
          for x in 0..<board.width where (panel.color(x: x, y: y).red > 0) != picture[x, y] { wrong += 1 }
        }
        #expect(wrong == 0 && panel.badSelections == 0 && panel.pulses.allSatisfy { $0 == 1 }, "\(kind) \(multiplexing) \(columns)x\(rows)")
        try scanner.finish()
        // Every line given back to no function, as RP1 came up.
        for line in lines { #expect(window.load((8 * line.gpio + 4) / 4) == 0x1F) }
        driven += 1
      }
    }
    #expect(driven > 0)
    print("HUB75Pi5Tests: \(kind.rawValue) (\(kind.hzellerNumber)): \(driven) panel and multiplexing pairs shown through RIO")
  }
}

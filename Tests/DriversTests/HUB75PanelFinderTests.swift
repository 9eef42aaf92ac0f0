import MatrixCore
import TestSupport
import Testing

@testable import Drivers

/// The panel finder walked to its end for a panel of every setting: a stand-in for the person
/// looks at an emulated panel of that setting (not the finder's prediction) and answers, and
/// the setting found must draw any picture on that panel as it should.
@Suite struct HUB75PanelFinderTests {
  /// Walks the finder for a panel of `truth`: each probe run on the emulated panel, the
  /// answer what the stand-in sees. Returns the setting found and the questions asked.
  static func walk(_ finder: inout HUB75PanelFinder, truth: HUB75PanelFinder.Setting) -> (HUB75PanelFinder.Setting?, Int) {
    let panel = finder.board(for: truth)
    while let probe = finder.nextProbe() {
      // A panel that does not use E never has it driven (its connector's pin may be ground).
      if !panel.rowAddress.lines(rowPairs: panel.rowPairs).contains(4) {
        let e = panel.pins.addressMasks[4]
        let drivesE = finder.program(for: probe).words.contains { word in
          if case .set(let mask) = HUB75Program.step(word) { mask & e != 0 } else { false }
        }
        #expect(!drivesE, "\(probe) drives E on a panel of \(truth)")
      }
      let seen = HUB75PanelFinder.run(finder.program(for: probe), on: panel)
      let weights = (0..<truth.panelRows).map { y in (0..<finder.panelColumns).map { seen.color(x: $0, y: y).red } }
      finder.record(PanelEye.answer(probe.pattern, weights: weights, finder: finder), for: probe)
    }
    return (finder.found(), finder.asked.count)
  }

  /// Walks a copy of `start` for a panel of each of `truths`, each walk taking over what the
  /// walks before worked out (so each probe is emulated once per setting): each truth with
  /// the setting found and the questions asked.
  static func walks(
    _ start: HUB75PanelFinder, _ truths: [HUB75PanelFinder.Setting]
  ) -> [(truth: HUB75PanelFinder.Setting, found: HUB75PanelFinder.Setting?, questions: Int)] {
    var known = start.predictions
    return truths.map { truth in
      var finder = start
      finder.predictions = known
      let (found, questions) = walk(&finder, truth: truth)
      known.merge(finder.predictions) { old, new in old.merging(new) { first, _ in first } }
      return (truth, found, questions)
    }
  }

  /// Whether `found` drives a panel of `truth` right: random pictures and the number
  /// pattern light exactly their pixels, all alike.
  static func drawsRight(_ found: HUB75PanelFinder.Setting, truth: HUB75PanelFinder.Setting, finder: HUB75PanelFinder) -> Bool {
    guard found.panelRows == truth.panelRows else { return false }
    var generator = SystemRandomNumberGenerator()
    let rows = truth.panelRows
    var pictures = [finder.picture(.numbers, rows: rows), finder.picture(.everything, rows: rows)]
    for _ in 0..<3 {
      var pixels = Framebuffer(width: finder.panelColumns, height: rows)
      for y in 0..<pixels.height { for x in 0..<pixels.width where Bool.random(using: &generator) { pixels[x, y] = true } }
      pictures.append(pixels)
    }
    let (board, panelBoard) = (finder.board(for: found), finder.board(for: truth))
    for picture in pictures {
      var encoder = HUB75Encoder(board: board, color: RGBColor(red: 255, green: 255, blue: 255))
      var program = HUB75Program()
      encoder.encode(Frame(pixels: picture), into: &program)
      let panel = HUB75PanelFinder.run(program, on: panelBoard)
      for y in 0..<picture.height {
        for x in 0..<picture.width where panel.color(x: x, y: y).red != (picture[x, y] ? 1 : 0) { return false }
      }
    }
    return true
  }

  @Test(arguments: [(64, 32), (32, 16), (64, 64)])
  func everySettingIsFoundAndDrawsRight(_ size: (Int, Int)) throws {
    let start = try HUB75PanelFinder(panelColumns: size.0, panelRows: size.1)
    var counts: [Int: Int] = [:]
    var report: [String] = []
    for (truth, found, questions) in HUB75PanelFinderTests.walks(start, start.settings) {
      counts[questions, default: 0] += 1
      report.append("\(truth): \(questions)")
      let setting = try #require(found, "\(truth): no setting fits the answers")
      #expect(HUB75PanelFinderTests.drawsRight(setting, truth: truth, finder: start), "\(truth) found as \(setting)")
    }
    print("HUB75PanelFinderTests \(size.0)x\(size.1), questions each: " + report.joined(separator: "; "))
    print("HUB75PanelFinderTests \(size.0)x\(size.1): \(start.settings.count) settings; questions: "
      + counts.keys.sorted().map { "\($0): \(counts[$0]!)" }.joined(separator: ", "))
  }

  /// With the width alone, the finder finds the height too: every setting of every height
  /// a panel that wide is made in is a candidate, and the walk must end at the true height
  /// and a setting that draws on that panel right. Walks at every height of 32- and 64-wide
  /// panels for every row address kind (multiplexed directly) and every multiplexing (rows
  /// addressed directly); every setting of every height takes about four times as long
  /// (it passed so when this was written: 116 and 139 walks).
  @Test(arguments: [32, 64])
  func theHeightIsFoundWithTheRest(_ columns: Int) throws {
    let start = try HUB75PanelFinder(panelColumns: columns)
    #expect(start.rowChoices == (columns == 64 ? [32, 64, 16] : [16, 32, 64]))
    // A guess first; one under 16 rows (one row of parts to name) is taken as it is.
    #expect(try HUB75PanelFinder(panelColumns: columns, findingRowsFrom: 64).rowChoices.first == 64)
    #expect(try HUB75PanelFinder(panelColumns: columns, findingRowsFrom: 8).rowChoices == [8])
    var counts: [Int: Int] = [:]
    let sample = start.settings.filter { $0.multiplexing == .direct || $0.rowAddress == .direct }
    for (truth, found, questions) in HUB75PanelFinderTests.walks(start, sample) {
      counts[questions, default: 0] += 1
      let setting = try #require(found, "\(truth): no setting fits the answers")
      #expect(setting.panelRows == truth.panelRows, "\(truth) found as \(setting)")
      #expect(HUB75PanelFinderTests.drawsRight(setting, truth: truth, finder: start), "\(truth) found as \(setting)")
    }
    print("HUB75PanelFinderTests \(columns) wide, height found: \(start.settings.count) settings; questions: "
      + counts.keys.sorted().map { "\($0): \(counts[$0]!)" }.joined(separator: ", "))
  }

  /// A board that says 64 rows on a panel of 32 or 16 (the page's finder guesses the board's
  /// height first): the finder still never drives E on it, and finds its height.
  @Test func aGuessOfSixtyFourRowsNeverDrivesEOnAShorterPanel() throws {
    let start = try HUB75PanelFinder(panelColumns: 64, findingRowsFrom: 64)
    #expect(start.rowChoices == [64, 32, 16])
    // (Without the rule, the SM5266 panel of 16 rows had E driven at the first question.)
    let kinds: [(HUB75RowAddress, Int)] = [(.sm5266, 16), (.sm5266, 32), (.direct, 32), (.direct, 16), (.abcShift, 32)]
    let truths = kinds.map { HUB75PanelFinder.Setting(rowAddress: $0.0, multiplexing: .direct, panelRows: $0.1) }
    for (truth, found, _) in HUB75PanelFinderTests.walks(start, truths) {
      #expect(found?.panelRows == truth.panelRows, "\(truth) found as \(String(describing: found))")
    }
  }

  /// The colour test on a panel of every colour order: the colours lit in the three blocks,
  /// read from the panel's LEDs, name the order; a board of that order then lights pure red,
  /// green and blue as asked.
  @Test(arguments: HUB75ColorOrder.allCases)
  func theColourTestNamesThePanelsOrder(_ order: HUB75ColorOrder) throws {
    let finder = try HUB75PanelFinder(panelColumns: 64, panelRows: 32)
    let setting = HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .direct, panelRows: 32)
    let panel = HUB75PanelFinder.run(finder.colorProgram(for: setting), on: finder.board(for: setting, colorOrder: order))
    let seen = (0..<3).map { block -> String in
      let (red, green, blue) = panel.color(x: block * 21 + 10, y: 16)
      return red > 0 && green == 0 && blue == 0 ? "r" : green > 0 && red == 0 && blue == 0 ? "g" : blue > 0 && red == 0 && green == 0 ? "b" : "?"
    }
    #expect(HUB75ColorOrder(seen: seen) == order, "\(seen)")
    // Driven with the order found, the colours come out as asked.
    let board = finder.board(for: setting, colorOrder: order)
    for color in [RGBColor(red: 255, green: 0, blue: 0), RGBColor(red: 0, green: 255, blue: 0), RGBColor(red: 0, green: 0, blue: 255)] {
      var encoder = HUB75Encoder(board: board, color: color)
      var program = HUB75Program()
      var frame = Frame(width: 64, height: 32)
      frame.pixels[5, 5] = true
      encoder.encode(frame, into: &program)
      let lit = HUB75PanelFinder.run(program, on: board).color(x: 5, y: 5)
      #expect(lit == (color.red > 0 ? 1 : 0, color.green > 0 ? 1 : 0, color.blue > 0 ? 1 : 0), "\(order) \(color)")
    }
    #expect(HUB75ColorOrder(seen: ["r", "r", "b"]) == nil && HUB75ColorOrder(seen: ["red", "blue", "green"]) == .rbg)
  }
}

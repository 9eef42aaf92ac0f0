import BitmapFonts
import Foundation
import TestSupport
import Testing

@testable import Drivers

/// `marquee find-panel` run as a person runs it, on a panel simulated in the terminal: the
/// test reads each picture the binary draws and answers what it sees (``PanelEye``), and the
/// finder must end at the panel's setting and write a board file that draws right.
@Suite(.offThePool) struct FindPanelTests {
  /// The last picture drawn before the output's end: the lines of `.`, `#`, `R`, `G`, `B`,
  /// `+` and `@` (dark, lit in white, in one colour, in two, brighter), as they are drawn.
  static func lastDrawing(_ output: String) -> [String] {
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var picture: [String] = []
    for line in lines.reversed() {
      let isRow = !line.isEmpty && line.allSatisfy { ".#@RGB+".contains($0) }
      if isRow { picture.insert(line, at: 0) } else if !picture.isEmpty { break }
    }
    return picture
  }

  /// Runs the finder on a simulated panel of `truth`, answering each step; returns the
  /// output, the status and the steps asked. With `findingHeight`, the finder is given the
  /// width alone (`--panel 64`) and the simulated panel its height.
  static func walk(
    _ truth: HUB75PanelFinder.Setting, columns: Int, rows: Int, colorOrder: HUB75ColorOrder = .rgb, chips: HUB75PanelInit? = nil,
    findingHeight: Bool = false, extra: [String] = [], environment: [String: String] = BinaryRunner.english
  ) throws -> (output: String, status: Int32, steps: Int) {
    let finder = findingHeight ? try HUB75PanelFinder(panelColumns: columns) : try HUB75PanelFinder(panelColumns: columns, panelRows: rows)
    let simulated = (findingHeight ? "\(truth.panelRows)," : "")
      + "\(truth.rowAddress.rawValue),\(truth.multiplexing.rawValue),\(colorOrder.rawValue.lowercased())" + (chips.map { ",\($0.rawValue)" } ?? "")
    let child = try BinaryRunner.start(
      ["find-panel", "--panel", findingHeight ? "\(columns)" : "\(columns)x\(rows)", "--simulate", simulated] + extra,
      input: true, environment: environment)
    var steps = 0
    while steps < 40 {
      // Wait for the next question, or the end.
      let asked = child.waitForOutput(timeout: 60) { data in
        let text = String(decoding: data, as: UTF8.self)
        return text.components(separatedBy: "\n").last!.hasSuffix(" ") && !text.hasSuffix("\n")
      }
      let text = String(decoding: child.outputSoFar, as: UTF8.self)
      guard asked, let question = text.components(separatedBy: "\n").last else { break }
      if question.contains("three blocks") || question.contains("三个色块") {
        steps += 1
        child.write(Data((PanelEye.blockColors(lastDrawing(text)) + "\n").utf8))
        #expect(child.waitForOutput(timeout: 60) { $0.count > text.utf8.count }, "no answer to \(question)")
        continue
      }
      if question.contains("each panel shows its number") || question.contains("每块面板显示自己的编号") {
        steps += 1
        let typed = PanelEye.arrangement(lastDrawing(text), finder: finder, count: 2)
        child.write(Data((typed + "\n").utf8))
        #expect(typed == "2 1", "two panels in a row as wired, the one nearest the Pi at the right")
        #expect(child.waitForOutput(timeout: 60) { $0.count > text.utf8.count }, "no answer to \(question)")
        continue
      }
      if question.contains("Hello") {
        let drawing = lastDrawing(text)
        let right = PanelEye.readsHello(drawing, columns: drawing.first?.count ?? 0, rows: drawing.count)
        child.write(Data((right ? "y\n" : "n\n").utf8))
        break
      }
      steps += 1
      // Which question: the part asked about does not matter to the eye (it says which
      // parts are lit), so any part stands for them.
      let pattern: HUB75PanelFinder.Pattern = question.contains("[y]") ? .everything : question.contains("parts") || question.contains("块") ? .part(1) : .numbers
      let seen = PanelEye.answer(pattern, weights: PanelEye.weights(lastDrawing(text)), finder: finder)
      child.write(Data((PanelEye.typed(seen) + "\n").utf8))
      // The answer taken: the output grows past the question.
      #expect(child.waitForOutput(timeout: 60) { $0.count > text.utf8.count }, "no answer to \(question)")
    }
    child.closeInput()
    let result = child.wait(timeout: 60)
    return (result.stdout, result.status, steps)
  }

  /// A panel of FM6126A (or FM6127) chips lights nothing until they are started: when
  /// "nothing lit" fits no setting, the finder starts them and asks again from the start,
  /// and the board file gains `panelType`.
  @Test(arguments: [HUB75PanelInit.fm6126a, .fm6127])
  func aPanelWhoseChipsMustBeStartedIsFoundWithItsType(_ chips: HUB75PanelInit) throws {
    let folder = NSTemporaryDirectory() + "marquee-find-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/found.json"
    let truth = HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .direct, panelRows: 32)
    let run = try FindPanelTests.walk(truth, columns: 64, rows: 32, chips: chips, extra: ["--write", file])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("The finder has started them as FM6126A: look again."), "\(run.output)")
    #expect(run.output.contains("colorOrder RGB, panelType \(chips.rawValue)."), "\(run.output)")
    let board = try #require(try SignBoard(json: String(contentsOfFile: file, encoding: .utf8), path: file).family as? HUB75Board)
    #expect(board.panelInit == chips && board.rowAddress == .direct && board.multiplexing == .direct)
    print("FindPanelTests: \(truth) with \(chips.rawValue) chips: \(run.steps) questions")
  }

  @Test(arguments: [
    (HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .direct, panelRows: 32), 64, 32, HUB75ColorOrder.rgb),
    (HUB75PanelFinder.Setting(rowAddress: .abcdLine, multiplexing: .p10_128x4_z, panelRows: 16), 32, 16, .bgr),
    (HUB75PanelFinder.Setting(rowAddress: .abShift, multiplexing: .stripe, panelRows: 32), 64, 32, .rbg),
    (HUB75PanelFinder.Setting(rowAddress: .b707, multiplexing: .direct, panelRows: 64), 64, 64, .gbr),
    (HUB75PanelFinder.Setting(rowAddress: .sm5266, multiplexing: .zstripe, panelRows: 16), 32, 16, .rgb),
  ])
  func theFinderEndsAtThePanelsSettingAndWritesItsBoard(_ truth: HUB75PanelFinder.Setting, _ columns: Int, _ rows: Int, _ colors: HUB75ColorOrder) throws {
    let folder = NSTemporaryDirectory() + "marquee-find-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/found.json"
    let run = try FindPanelTests.walk(truth, columns: columns, rows: rows, colorOrder: colors, extra: ["--write", file, "--chain", "2"])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Found after \(run.steps) answers: \(rows) rows, rowAddress \(truth.rowAddress.rawValue) (\(truth.rowAddress.hzellerNumber))"), "\(run.output)")
    #expect(run.output.contains("colorOrder \(colors.rawValue), pixelMapper none (as wired)."), "\(run.output)")
    #expect(run.output.contains("Board file written to \(file)"))
    // The board file is one marquee takes, with the panel's settings and the chain.
    let board = try #require(try SignBoard(json: String(contentsOfFile: file, encoding: .utf8), path: file).family as? HUB75Board)
    #expect(board.rowAddress == truth.rowAddress && board.multiplexing == truth.multiplexing && board.colorOrder == colors)
    #expect(board.panelColumns == columns && board.panelRows == rows && board.chainLength == 2)
    print("FindPanelTests: \(truth), colours \(colors.rawValue) on \(columns)x\(rows): \(run.steps) questions")
  }

  /// Given the width alone (`--panel 64`), the finder finds a 64x64 panel's height with its
  /// settings and writes it; a 64x32 panel's too.
  @Test(arguments: [64, 32])
  func theWidthAloneFindsTheHeightToo(_ rows: Int) throws {
    let folder = NSTemporaryDirectory() + "marquee-find-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/found.json"
    let truth = HUB75PanelFinder.Setting(rowAddress: .abcShift, multiplexing: .stripe, panelRows: rows)
    let run = try FindPanelTests.walk(truth, columns: 64, rows: rows, colorOrder: .bgr, findingHeight: true, extra: ["--write", file])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Finding the settings of a HUB75 panel 64 pixels wide, and its height (116 possible)"), "\(run.output)")
    #expect(run.output.contains("Found after \(run.steps) answers: \(rows) rows, rowAddress "), "\(run.output)")
    let board = try #require(try SignBoard(json: String(contentsOfFile: file, encoding: .utf8), path: file).family as? HUB75Board)
    #expect(board.panelColumns == 64 && board.panelRows == rows && board.multiplexing == .stripe && board.colorOrder == .bgr)
    // No look tells an ABC shift panel from a B707 one, and B707's walking 1 drives both
    // (HUB75PanelFinder.found()): either is right.
    #expect(board.rowAddress == .abcShift || board.rowAddress == .b707)
    print("FindPanelTests: \(truth), the height found: \(run.steps) questions")
  }

  @Test func itAsksInChineseAndSaysWhenTheAnswersFitNothing() throws {
    let truth = HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .direct, panelRows: 16)
    let run = try FindPanelTests.walk(truth, columns: 32, rows: 16, extra: ["--lang", "zh"])
    #expect(run.status == 0)
    #expect(run.output.contains("第 1 步：面板上每个 LED 都亮") && run.output.contains("找到了（回答了 \(run.steps) 个问题）：面板高 16 行，rowAddress direct (0)"))
    #expect(run.output.contains("\"rowAddress\": \"direct\""), "the board file printed when not written")
    // Answers no panel gives: dark, then nothing readable, until nothing fits.
    var result = try BinaryRunner.run(["find-panel", "--panel", "32x16", "--simulate", "direct,direct"], stdin: "maybe\ny\ny\nn\nn\nn\n")
    #expect(result.status == 1)
    #expect(result.stdout.contains("Please answer y, n or d."))
    #expect(result.stderr.contains("the answers fit no panel setting the finder knows"), "\(result.stderr)")
    // A mistaken answer finds a wrong setting; the person says "Hello" is wrong, and no file is written.
    let file = NSTemporaryDirectory() + "marquee-find-\(UInt32.random(in: 0...UInt32.max)).json"
    result = try BinaryRunner.run(["find-panel", "--panel", "32x16", "--simulate", "direct,direct", "--write", file], stdin: "d\nd\nn\nr g b\nn\n")
    #expect(result.status == 1)
    #expect(result.stderr.contains("the settings found do not draw right: an answer may have been mistaken. No board file was written"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  @Test func theEndOfInputAndBadOptionsAreClearErrors() throws {
    var run = try BinaryRunner.run(["find-panel", "--panel", "32x16", "--simulate", "direct,direct"], stdin: "")
    #expect(run.status == 1 && run.stderr.contains("standard input ended before the panel was found; nothing was written"), "\(run.stderr)")
    for panel in ["64x", "x32", "64x32x2", "sixty"] {
      run = try BinaryRunner.run(["find-panel", "--panel", panel])
      #expect(run.status == 64 && run.stderr.contains("'--panel' needs the panel's size as COLUMNSxROWS (64x32), or its width alone to find its height (64), not '\(panel)'"), "\(run.stderr)")
    }
    run = try BinaryRunner.run(["find-panel", "--panel", "32x16", "--simulate", "abcd-line,direct"])
    #expect(run.status == 64 && run.stderr.contains("'--simulate 16,abcd-line,direct' does not fit a panel 32 wide and 16 high"), "\(run.stderr)")
    run = try BinaryRunner.run(["find-panel", "--panel", "64", "--simulate", "48,direct,direct"])
    #expect(run.status == 64 && run.stderr.contains("does not fit a panel 64 wide and 32 or 64 or 16 high"), "\(run.stderr)")
    run = try BinaryRunner.run(["find-panel", "--panel", "0"])
    #expect(run.status == 64 && run.stderr.contains("'--panel 0': no HUB75 panel is 0 pixels wide"), "\(run.stderr)")
    run = try BinaryRunner.run(["find-panel", "--simulate", "nine"])
    #expect(run.status == 64 && run.stderr.contains("'--simulate' needs [ROWS,]ROWADDRESS,MULTIPLEXING"))
    // Off a Pi, without --simulate: said before the first question.
    run = try BinaryRunner.run(["find-panel"], stdin: "", environment: ["MARQUEE_FAKE_DEVICE_TREE": "/nonexistent", "LD_PRELOAD": KernelDoorTests.library])
    #expect(run.status == 1 && run.stderr.contains("not a Raspberry Pi"), "\(run.stderr)")
  }

  /// On a Pi the finder drives the panel's registers (the fake kernel's file for
  /// `/dev/gpiomem`), a refresh loop per setting it tries, and leaves the pins as inputs and
  /// OE high (dark) when it ends, however it ends.
  @Test func onAPiItDrivesThePanelAndLeavesItDark() throws {
    let pi = PiFixtures.FakePi(tree: try PiFixtures.pi4Tree(), registers: try PiFixtures.registerFile(length: 4096))
    defer { pi.remove() }
    let child = try BinaryRunner.start(
      ["find-panel", "--panel", "32x16"], input: true,
      environment: BinaryRunner.english.merging(HUB75BinaryTests.environment(registers: pi.registers, tree: pi.tree)) { $1 })
    // The first picture lights: the colour lines, the clock, latch and OE, and A (which every
    // row address kind drives) are outputs.
    let pins = [11, 27, 7, 8, 9, 10, 22, 17, 4, 18]
    #expect(eventually(within: 20) {
      let words = (try? PiFixtures.words(pi.registers)) ?? []
      return words.count == 1024 && pins.allSatisfy { HUB75BinaryTests.function(words, $0) == 1 }
    })
    #expect(child.waitForOutput(timeout: 20) { String(decoding: $0, as: UTF8.self).contains("Step 1:") })
    child.write(Data("d\n".utf8))
    child.closeInput()
    let result = child.wait(timeout: 60)
    #expect(result.status == 1 && result.stderr.contains("standard input ended before the panel was found"), "\(result.stderr)")
    let words = try PiFixtures.words(pi.registers)
    for pin in pins { #expect(HUB75BinaryTests.function(words, pin) == 0, "GPIO \(pin) is an input again") }
    #expect(words[PiGPIORegisters.bcmSet] == 1 << 18, "the last write to the set register: OE high, dark")
  }
}

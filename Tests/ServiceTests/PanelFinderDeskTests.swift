import Foundation
import Marquee
import Platform
import SignService
import SimpleJSON
import Synchronization
import TestSupport
import Testing

@testable import Drivers

/// The page's panel finder (``PanelFinderDesk``) on an emulated panel: a display loop lends
/// the panel and gets it back; the test answers each question by looking at the picture the
/// answer draws (``PanelEye``), as a person looks at the panel, and the finder must end at
/// the panel's settings, write them into the sign's board file and hand the loop that board.
@Suite(.offThePool) struct PanelFinderDeskTests {
  /// A display loop on its own thread: it records each board it runs and runs until its
  /// stop flag is set.
  final class Loop: Sendable {
    let boards = Mutex<[SignBoard]>([])
    let stop = StopFlag()
    let done = Atomic<Bool>(false)

    init(_ desk: PanelFinderDesk, board: SignBoard) {
      Thread.detachNewThread { [self] in
        try? desk.runDisplay(board, stop: stop, heartbeat: nil) { board, segment in
          boards.withLock { $0.append(board) }
          while !segment.isSet { usleep(2_000) }
        }
        done.store(true, ordering: .releasing)
      }
      #expect(eventually { boards.withLock { $0.count } == 1 })
    }

    func end() {
      stop.set()
      #expect(eventually { done.load(ordering: .acquiring) })
    }
  }

  /// A sign's board file of `setting` (64x32, regular wiring) in a folder of its own.
  static func boardFile(_ setting: HUB75PanelFinder.Setting, colorOrder: HUB75ColorOrder, columns: Int = 64, rows: Int = 32) throws -> (path: String, board: SignBoard) {
    let folder = NSTemporaryDirectory() + "marquee-desk-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let text = """
      {
        "schema": 1,
        "name": "shop window",
        "driver": "hub75",
        "panel": { "columns": \(columns), "rows": \(rows) },
        "grid": { "columns": 2, "rows": 1 },
        "rowAddress": "\(setting.rowAddress.rawValue)",
        "multiplexing": "\(setting.multiplexing.rawValue)",
        "colorOrder": "\(colorOrder.rawValue)",
        "colorDepth": 4
      }
      """
    let path = folder + "/board.json"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return (path, try SignBoard(json: text, path: path))
  }

  /// The board file's folder, gone.
  static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }

  /// Answers each question as the panel shows it (at most 20), from `question` to the end.
  static func answerToTheEnd(_ desk: PanelFinderDesk, _ question: JSONValue, finder: HUB75PanelFinder) throws -> JSONValue {
    var (question, steps) = (question, 0)
    while question["running"] == JSONValue.bool(true), steps < 20 {
      question = try desk.answer(PanelEye.reply(to: question, finder: finder))
      steps += 1
    }
    return question
  }

  static func desk(
    _ path: String, board: SignBoard, truth: SignBoard? = nil, writable: Bool = true, idle: Double = 600, clock: SignClock = .system
  ) -> PanelFinderDesk {
    PanelFinderDesk(
      board: board.family as! HUB75Board, boardFile: path, writable: writable, simulated: true, truth: truth?.family as? HUB75Board, clock: clock,
      idleSeconds: idle
    ) { path in
      try SignBoard(json: String(contentsOfFile: path, encoding: .utf8), path: path)
    }
  }




  @Test(arguments: [
    (HUB75PanelFinder.Setting(rowAddress: .abShift, multiplexing: .stripe, panelRows: 32), HUB75ColorOrder.gbr),
    (HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .direct, panelRows: 32), .rgb),
  ])
  func theFinderFindsThePanelWritesTheBoardFileAndTheSignRunsIt(_ truth: HUB75PanelFinder.Setting, _ colors: HUB75ColorOrder) throws {
    // The board file says otherwise: the owner started from the wrong one.
    let (path, board) = try Self.boardFile(HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .checkered, panelRows: 32), colorOrder: .rgb)
    defer { Self.remove(path) }
    let panelBoard = try SignBoard(json: try String(contentsOfFile: path, encoding: .utf8)
      .replacingOccurrences(of: "\"direct\"", with: "\"\(truth.rowAddress.rawValue)\"")
      .replacingOccurrences(of: "\"checkered\"", with: "\"\(truth.multiplexing.rawValue)\"")
      .replacingOccurrences(of: "\"RGB\"", with: "\"\(colors.rawValue)\""), path: path)
    // The emulated panel is the panel's true one; the file is what the sign was told.
    let desk = Self.desk(path, board: board, truth: panelBoard)
    let loop = Loop(desk, board: board)
    defer { loop.end() }
    let finder = try HUB75PanelFinder(panelColumns: 64, panelRows: 32)
    var question = try desk.start(chinese: false)
    #expect(loop.boards.withLock { $0.count } == 1, "the loop waits while the finder has the panel")
    #expect(question["look"] == JSONValue.string("Look at the panel nearest the Pi (the first of the chain); what the others show does not matter."))
    question = try Self.answerToTheEnd(desk, question, finder: finder)
    guard case .string(let said)? = question["said"] else {
      Issue.record("no end: \(question.text)")
      return
    }
    #expect(question["found"] == JSONValue.bool(true) && question["saved"] == JSONValue.bool(true), "\(said)")
    #expect(said.contains("rowAddress \(truth.rowAddress.rawValue)") && said.contains("The board file \(path) is written"), "\(said)")
    // On disk: the settings found, the rest as the owner wrote it.
    let written = try JSONParser.parse(String(contentsOfFile: path, encoding: .utf8))
    #expect(written["rowAddress"] == JSONValue.string(truth.rowAddress.rawValue) && written["multiplexing"] == JSONValue.string(truth.multiplexing.rawValue))
    #expect(written["colorOrder"] == JSONValue.string(colors.rawValue) && written["name"] == JSONValue.string("shop window") && written["colorDepth"] == JSONValue.number(4))
    // The loop runs again, on the board file as written.
    #expect(eventually { loop.boards.withLock { $0.count } == 2 })
    let running = try #require(loop.boards.withLock { $0.last }?.family as? HUB75Board)
    #expect(running.rowAddress == truth.rowAddress && running.multiplexing == truth.multiplexing && running.colorOrder == colors)
    #expect(desk.current() == .object([("panel", .string("64x32")), ("running", .bool(false))]))
  }

  /// The board file says 64x32, the panels are 64x64: the finder finds the height with the
  /// rest, writes it into the file, and says the sign takes it at its next start (its zones
  /// and frames are made for the size it started with), running its own board meanwhile.
  @Test func aPanelTallerThanTheBoardSaysIsFoundWithItsHeight() throws {
    let (path, board) = try Self.boardFile(HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .direct, panelRows: 32), colorOrder: .rgb)
    defer { Self.remove(path) }
    let tall = try SignBoard(json: try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"rows\": 32", with: "\"rows\": 64"), path: path)
    let desk = Self.desk(path, board: board, truth: tall)
    let loop = Loop(desk, board: board)
    defer { loop.end() }
    let finder = try HUB75PanelFinder(panelColumns: 64, findingRowsFrom: 32)
    var question = try desk.start(chinese: false)
    question = try Self.answerToTheEnd(desk, question, finder: finder)
    guard case .string(let said)? = question["said"] else {
      Issue.record("no end: \(question.text)")
      return
    }
    #expect(question["saved"] == JSONValue.bool(true) && question["applied"] == JSONValue.bool(false), "\(said)")
    #expect(said.contains("Found after") && said.contains(": 64 rows, rowAddress direct"), "\(said)")
    let written = try JSONParser.parse(String(contentsOfFile: path, encoding: .utf8))
    #expect(written["panel"] == JSONValue.object([("columns", .number(64)), ("rows", .number(64))]), "\(written)")
    let next = try SignBoard(json: String(contentsOfFile: path, encoding: .utf8), path: path)
    #expect(next.width == 128 && next.height == 64)
    // Meanwhile the sign runs on the board it started with.
    #expect(eventually { loop.boards.withLock { $0.count } == 2 })
    #expect(loop.boards.withLock { $0.last }.map { $0.width == 128 && $0.height == 32 } == true)
  }

  /// Two 32x16 panels on one chain, arranged otherwise than wired: the finder's chain test
  /// shows each panel's number and bar as the panels are really placed, the person types
  /// them as seen, and the board file gains the pixel mapper that draws the sign whole.
  @Test(arguments: ["Remap:32,32|0,16n|0,0s", "Remap:32,32|0,0w|16,0w", "Remap:64,16|0,0n|32,0n", "Remap:64,16|32,0n|0,0n"])
  func theChainsArrangementIsFoundAsAPixelMapper(_ truth: String) throws {
    let setting = HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .direct, panelRows: 16)
    let (path, _) = try Self.boardFile(setting, colorOrder: .rgb, columns: 32, rows: 16)
    defer { Self.remove(path) }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let placed = try SignBoard(json: text.replacingOccurrences(of: "\"colorDepth\": 4", with: "\"colorDepth\": 4, \"pixelMapper\": \"\(truth)\""), path: path)
    let running = try SignBoard(json: text, path: path)
    let desk = Self.desk(path, board: running, truth: placed)
    let loop = Loop(desk, board: running)
    defer { loop.end() }
    let finder = try HUB75PanelFinder(panelColumns: 32, panelRows: 16)
    var question = try desk.start(chinese: false)
    for _ in 0..<20 where question["running"] == JSONValue.bool(true) { question = try desk.answer(PanelEye.reply(to: question, finder: finder)) }
    #expect(question["saved"] == JSONValue.bool(true), "\(question.text)")
    let written = try JSONParser.parse(String(contentsOfFile: path, encoding: .utf8))
    // The panels as wired ("2 1": the one nearest the Pi at the right) need no mapper.
    let expected: JSONValue? = truth == "Remap:64,16|32,0n|0,0n" ? nil : .string(truth)
    #expect(written["pixelMapper"] == expected, "\(written.text)")
    #expect(eventually { loop.boards.withLock { $0.count } == 2 })
    let now = try #require(loop.boards.withLock { $0.last }?.family as? HUB75Board)
    let links = { (board: HUB75Board) in Set(board.pixelMapper.links(for: board.chain).map { [$0.visible, $0.matrix] }) }
    // A sign whose size the arrangement changes (64x16 as wired, 32x32 stacked) runs on when
    // restarted: its zones and frames are made for the size it started with.
    let resized = placed.width != 64 || placed.height != 16
    #expect(question["applied"] == JSONValue.bool(!resized), "\(question.text)")
    if resized {
      guard case .string(let said)? = question["said"] else {
        Issue.record("nothing said: \(question.text)")
        return
      }
      #expect(said.contains("changes from 64x16 to \(placed.width)x\(placed.height), which takes a restart"), "\(said)")
      #expect(now.pixelMapper == .none, "the sign keeps its own settings until restarted")
      let restarted = try SignBoard(json: String(contentsOfFile: path, encoding: .utf8), path: path)
      #expect(links(try #require(restarted.family as? HUB75Board)) == links(try #require(placed.family as? HUB75Board)), "after a restart it draws as placed")
    } else {
      #expect(links(now) == links(try #require(placed.family as? HUB75Board)), "the sign draws as the panels are placed")
    }
  }

  @Test func wrongAnswersAndStopsLeaveTheBoardAsItWas() throws {
    let setting = HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .direct, panelRows: 32)
    let (path, board) = try Self.boardFile(setting, colorOrder: .rgb)
    defer { Self.remove(path) }
    let before = try String(contentsOfFile: path, encoding: .utf8)
    let desk = Self.desk(path, board: board)
    let loop = Loop(desk, board: board)
    defer { loop.end() }
    // No finder yet.
    #expect(throws: SignRefusal(.notFound, "no panel finder is running: POST /api/panel-finder starts one")) { try desk.answer("y") }
    var question = try desk.start(chinese: true)
    #expect(question["step"] == JSONValue.number(1))
    #expect(throws: SignRefusal(field: "answer", "请回答 y、n 或 d。")) { try desk.answer("maybe") }
    // Stopped: the loop runs its own board again.
    #expect(desk.cancel() == .object([("running", .bool(false))]))
    #expect(eventually { loop.boards.withLock { $0.count } == 2 })
    // A "Hello" said not to read right (one answer was mistaken) ends it: the same.
    let finder = try HUB75PanelFinder(panelColumns: 64, panelRows: 32)
    question = try desk.start(chinese: false)
    for _ in 0..<20 where question["running"] == JSONValue.bool(true) {
      question = try desk.answer(question["step"] == JSONValue.number(0) ? "n" : PanelEye.reply(to: question, finder: finder))
    }
    #expect(question["found"] == JSONValue.bool(false) && (question["said"]?.text ?? "").contains("The board file is unchanged"), "\(question.text)")
    #expect(eventually { loop.boards.withLock { $0.count } == 3 })
    #expect(loop.boards.withLock { $0.allSatisfy { $0 == board } })
    #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
  }

  @Test func aBuiltInBoardIsNotWrittenAndTheTextIsGiven() throws {
    let setting = HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .direct, panelRows: 32)
    let (path, board) = try Self.boardFile(setting, colorOrder: .bgr)
    defer { Self.remove(path) }
    let before = try String(contentsOfFile: path, encoding: .utf8)
    let desk = Self.desk(path, board: board, writable: false)
    let loop = Loop(desk, board: board)
    defer { loop.end() }
    let finder = try HUB75PanelFinder(panelColumns: 64, panelRows: 32)
    var question = try desk.start(chinese: false)
    for _ in 0..<20 where question["running"] == JSONValue.bool(true) { question = try desk.answer(PanelEye.reply(to: question, finder: finder)) }
    #expect(question["found"] == JSONValue.bool(true) && question["saved"] == JSONValue.bool(false))
    guard case .string(let text)? = question["board"] else {
      Issue.record("no board text: \(question.text)")
      return
    }
    #expect(try JSONParser.parse(text)["colorOrder"] == JSONValue.string("BGR"))
    #expect(text.contains("\n  \"panel\": {\"columns\": 64, \"rows\": 32},\n"), "written for a person to read: \(text)")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
    #expect(eventually { loop.boards.withLock { $0.count } == 2 })
    #expect(loop.boards.withLock { $0.last } == board)
  }

  /// A display that ends by itself (`--frames`) ends the loop: nothing waits for a finder
  /// that never asked.
  @Test func aDisplayThatEndsByItselfEndsTheLoop() throws {
    let setting = HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .direct, panelRows: 32)
    let (path, board) = try Self.boardFile(setting, colorOrder: .rgb)
    defer { Self.remove(path) }
    let desk = Self.desk(path, board: board)
    var runs = 0
    try desk.runDisplay(board, stop: StopFlag(), heartbeat: nil) { _, _ in runs += 1 }
    #expect(runs == 1)
    #expect(throws: SignRefusal(.failed, "the sign is stopping")) { try desk.start(chinese: false) }
  }

  @Test func aFinderLeftUnansweredGivesThePanelBack() throws {
    let clock = ManualSignClock(wall: 1_780_000_000)
    let setting = HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .direct, panelRows: 32)
    let (path, board) = try Self.boardFile(setting, colorOrder: .rgb)
    defer { Self.remove(path) }
    let desk = Self.desk(path, board: board, idle: 600, clock: clock.clock)
    let loop = Loop(desk, board: board)
    defer { loop.end() }
    _ = try desk.start(chinese: false)
    clock.advance(by: 599)
    #expect(desk.current()["running"] == JSONValue.bool(true))
    clock.advance(by: 2)
    #expect(eventually { loop.boards.withLock { $0.count } == 2 })
    #expect(desk.current()["running"] == JSONValue.bool(false))
    #expect(throws: SignRefusal.self) { try desk.answer("y") }
  }
}

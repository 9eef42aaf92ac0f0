import Foundation
import SimpleJSON
import TestSupport
import Testing

@testable import Drivers

/// The panel finder from the page's API under `marquee serve`, the binary as users run it:
/// on a sign that emulates its panel (`--simulate`) the answers draw what the panel shows,
/// and the test answers by looking at it; on a Pi (the fake kernel's registers) the finder
/// drives the panel and the sign takes it back.
@Suite(.offThePool, .serialized) struct PanelFinderServeTests {
  /// A request to the finder: a minute to answer, since the test binary is a debug build,
  /// whose first question (every height of the panel's width weighed) takes seconds (the
  /// release build's a fifth of a second; Docs/hardware.md).
  static func post(_ sign: ServedSign, _ path: String, _ body: String) throws -> (status: Int, value: JSONValue) {
    let response = try #require(sign.client.request("POST", path, body: body, timeout: 60))
    return (response.status, try JSONParser.parse(response.text))
  }

  @Test func thePageFindsTheSettingsAndTheSignRunsTheBoardFileItWrote() throws {
    let folder = NSTemporaryDirectory() + "marquee-serve-find-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/board.json"
    try #"{"schema": 1, "name": "window", "driver": "hub75", "panel": {"columns": 32, "rows": 16}, "rowAddress": "abcd-line", "multiplexing": "p10-128x4-z", "colorOrder": "BGR"}"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    let sign = try ServedSign(["--board", file, "--simulate", "--output", "ascii", "Hi"])
    #expect(try ServeTests.json(sign.client.request("GET", "/api/panel-finder")) == .object([("panel", .string("32x16")), ("running", .bool(false))]))
    // Refused, and nothing starts: a key it does not take, a language it does not speak.
    #expect(try Self.post(sign, "/api/panel-finder", #"{"lang": "fr"}"#).status == 400)
    #expect(try Self.post(sign, "/api/panel-finder/answer", #"{"answer": "y"}"#).status == 404)
    var (status, question) = try Self.post(sign, "/api/panel-finder", #"{"lang": "en"}"#)
    #expect(status == 200 && question["step"] == .number(1), "\(question.text)")
    // Answers out of every range are refused and change nothing.
    for bad in [#"{"answer": [1e300]}"#, #"{"answer": [-1]}"#, #"{"answer": {"a": 1}}"#, #"{"answer": "y", "x": 1}"#, #"{}"#] {
      #expect(try Self.post(sign, "/api/panel-finder/answer", bad).status == 400, "\(bad)")
    }
    #expect(try ServeTests.json(sign.client.request("GET", "/api/panel-finder"))["step"] == .number(1))
    let finder = try HUB75PanelFinder(panelColumns: 32, findingRowsFrom: 16)
    var steps = 0
    while question["running"] == .bool(true), steps < 20 {
      let typed = PanelEye.reply(to: question, finder: finder)
      let body = typed.first!.isNumber ? "{\"answer\": [\(typed == "0" ? "" : typed.split(separator: " ").joined(separator: ", "))]}" : "{\"answer\": \"\(typed)\"}"
      (status, question) = try Self.post(sign, "/api/panel-finder/answer", body)
      #expect(status == 200, "\(question.text)")
      steps += 1
    }
    #expect(question["saved"] == .bool(true), "\(question.text)")
    let written = try JSONParser.parse(String(contentsOfFile: file, encoding: .utf8))
    #expect(written["rowAddress"] == .string("abcd-line") && written["multiplexing"] == .string("p10-128x4-z") && written["colorOrder"] == .string("BGR"))
    #expect(written["name"] == .string("window"))
    // The sign draws again: its frames move on.
    let before = try #require(sign.client.request("GET", "/api/frame")).text
    #expect(!sign.frame(changingFrom: before).isEmpty)
    let result = sign.stop()
    #expect(result.status == 128 + SIGTERM, "\(result.stderr)")
  }




  @Test func aSignWithoutAHUB75PanelHasNoFinder() throws {
    let sign = try ServedSign(["--output", "ascii", "Hi"])
    for (method, path) in [("GET", "/api/panel-finder"), ("POST", "/api/panel-finder"), ("DELETE", "/api/panel-finder"), ("POST", "/api/panel-finder/answer")] {
      let response = sign.client.request(method, path, body: method == "POST" ? "{}" : nil)
      #expect(response?.status == 404 && response?.text.contains("no HUB75 panel") == true, "\(method) \(path)")
    }
    _ = sign.stop()
  }

  /// On a Pi the finder takes the panel from the sign's refresh and gives it back: the
  /// refresh's pins are outputs while either drives, and at the end the sign leaves the pins
  /// as inputs and OE high.
  @Test func onAPiTheFinderBorrowsThePanelAndTheSignTakesItBack() throws {
    let pi = PiFixtures.FakePi(tree: try PiFixtures.pi4Tree(), registers: try PiFixtures.registerFile(length: 4096))
    defer { pi.remove() }
    // A sign whose rows take two address lines (AB shift); the finder's first picture is
    // driven as a kind that takes a line more, which is an output only while it drives.
    let folder = NSTemporaryDirectory() + "marquee-serve-find-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/board.json"
    try #"{"schema": 1, "name": "shift", "driver": "hub75", "panel": {"columns": 32, "rows": 16}, "rowAddress": "ab-shift"}"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    let signBoard = try #require(try SignBoard(json: String(contentsOfFile: file, encoding: .utf8), path: file).family as? HUB75Board)
    var finder = try HUB75PanelFinder(panelColumns: 32, findingRowsFrom: 16)
    let first = finder.nextProbe()
    let probe = finder.board(for: try #require(first).drive)
    let lines = { (board: HUB75Board) in Set(board.rowAddress.lines(rowPairs: board.rowPairs).map { board.pins.address[$0] }) }
    let extra = try #require(lines(probe).subtracting(lines(signBoard)).first, "the finder's first picture drives a line the sign does not")
    let sign = try ServedSign(
      ["--board", file, "Hi"], environment: BinaryRunner.english.merging(HUB75BinaryTests.environment(registers: pi.registers, tree: pi.tree)) { $1 })
    let pins = [11, 27, 7, 8, 9, 10, 22, 17, 4, 18]
    let function = { (pin: Int) in (try? PiFixtures.words(pi.registers)).map { HUB75BinaryTests.function($0, pin) } }
    let signDrives = { pins.allSatisfy { function($0) == 1 } && function(extra) == 0 }
    #expect(eventually(within: 20, signDrives), "the sign drives the panel")
    let (status, question) = try Self.post(sign, "/api/panel-finder", #"{"lang": "zh"}"#)
    #expect(status == 200 && question["question"] == .string("第 1 步：面板上每个 LED 都亮，而且一样亮吗？"), "\(question.text)")
    #expect(question["drawing"] == nil, "a real panel is looked at, not drawn")
    #expect(eventually(within: 20) { function(extra) == 1 }, "the finder drives GPIO \(extra) for its first picture")
    let stopped = try #require(sign.client.request("DELETE", "/api/panel-finder"))
    let answer = try JSONParser.parse(stopped.text)
    #expect(stopped.status == 200 && answer == .object([("running", .bool(false))]), "\(stopped.text)")
    #expect(eventually(within: 20, signDrives), "the sign drives the panel again, GPIO \(extra) given back")
    let result = sign.stop()
    #expect(result.status == 128 + SIGTERM && !result.stderr.contains("Error"), "\(result.stderr)")
    let words = try PiFixtures.words(pi.registers)
    for pin in pins { #expect(HUB75BinaryTests.function(words, pin) == 0, "GPIO \(pin) is an input again") }
    #expect(words[PiGPIORegisters.bcmSet] == 1 << 18, "the last write to the set register: OE high, dark")
  }
}

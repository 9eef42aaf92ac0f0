import Platform
import Foundation
import TestSupport
import Testing

/// Runs the binary with `arguments`, writing `lines` to its standard input with `pause`
/// seconds before each (the first without), and returns the result.
func runFed(_ arguments: [String], lines: [(pause: Double, text: String)], environment: [String: String] = [:]) throws -> BinaryResult {
  let child = try BinaryRunner.start(arguments, input: true, environment: environment)
  for (pause, text) in lines {
    if pause > 0 { Thread.sleep(forTimeInterval: pause) }
    child.write(Data(text.utf8))
  }
  child.closeInput()
  let result = child.wait()
  #expect(!result.timedOut, "marquee \(arguments) did not end in time")
  return result
}

@Suite(.offThePool) struct FeedBinaryTests {
  func still(_ message: String, width: Int = 32) throws -> [String] {
    let result = try BinaryRunner.run(["--width", "\(width)", "--height", "8", "--frames", "1", "--output", "ascii", message])
    return try #require(asciiFrames(result.stdout).first)
  }

  @Test func linesReplaceTheMessageWhileRunning() throws {
    let result = try runFed(
      ["--stdin", "--width", "32", "--height", "8", "--fps", "20", "--frames", "60", "--output", "ascii"],
      lines: [(0, "ONE\n"), (1, "TWO\n")])
    #expect(result.status == 0, "\(result.stderr)")
    let frames = asciiFrames(result.stdout)
    try #require(frames.count == 60)
    #expect(frames.first == (try still("ONE")))
    #expect(frames.last == (try still("TWO")))
  }

  @Test func jsonLinesSetMessagesAndOptionsAndBadLinesAreSkipped() throws {
    let result = try runFed(
      ["--stdin", "--width", "32", "--height", "8", "--fps", "20", "--frames", "80", "--output", "ascii", "START"],
      lines: [
        (0.3, "{\"speed\": \"fast\"}\n"),
        (0, "{not json\n"),
        (0, "{\"zone\": \"nowhere\", \"message\": \"X\"}\n"),
        (0, "{\"messages\": [\"A\", \"B\"], \"mode\": \"cycle\", \"in\": \"scroll-up\", \"dwell\": 0.5, \"duration\": 0.2, \"align\": \"center\", \"immediately\": true}\n"),
      ])
    #expect(result.status == 0)
    #expect(result.stderr.contains("Warning: stdin:1: field 'speed': expected a number"))
    #expect(result.stderr.contains("Warning: stdin:2: line 1, column 2"))
    #expect(result.stderr.contains("Warning: stdin:3: field 'zone': no zone named 'nowhere'"))
    let frames = asciiFrames(result.stdout)
    try #require(frames.count == 80)
    #expect(frames.first == (try still("START")))
    let centred = { (text: String) -> [String] in
      let r = try? BinaryRunner.run(["--width", "32", "--frames", "1", "--output", "ascii", "--align", "center", text])
      return asciiFrames(r?.stdout ?? "").first ?? []
    }
    #expect(frames.contains(centred("A")) && frames.contains(centred("B")), "the cycle of A and B shows")
  }

  /// Starts a fed sign, writes `ONE`, waits (bounded) until a frame shows it, then ends
  /// the input and returns the child.
  func feedOneThenEnd(_ extra: [String]) throws -> (ChildProcess, one: [String]) {
    let one = try still("ONE")
    let child = try BinaryRunner.start(["--stdin", "--width", "32", "--height", "8", "--fps", "20", "--output", "ascii"] + extra, input: true)
    child.write(Data("ONE\n".utf8))
    let shown = child.waitForOutput { asciiFrames(String(decoding: $0, as: UTF8.self)).contains(one) }
    #expect(shown, "the sign showed ONE")
    child.closeInput()
    return (child, one)
  }

  @Test func atTheEndOfInputTheSignKeepsItsContentByDefault() throws {
    let (child, one) = try feedOneThenEnd(["--frames", "30"])
    let result = child.wait(timeout: 60)
    #expect(result.status == 0 && !result.timedOut)
    #expect(asciiFrames(result.stdout).last == one)
  }

  @Test func onEofBlankBlanksTheSignAndKeepsRunning() throws {
    let (child, one) = try feedOneThenEnd(["--frames", "60", "--on-eof", "blank"])
    let blank = Array(repeating: String(repeating: ".", count: 32), count: 8)
    #expect(child.waitForOutput { asciiFrames(String(decoding: $0, as: UTF8.self)).last == blank }, "the sign went blank")
    let result = child.wait(timeout: 60)
    #expect(result.status == 0 && !result.timedOut)
    let frames = asciiFrames(result.stdout)
    #expect(frames.count == 60, "it ran to its frame limit")
    #expect(frames.contains(one) && frames.last == blank)
  }

  @Test func onEofExitEndsTheRunWithStatusZero() throws {
    // No frame limit: only the end of input can end this run.
    let (child, _) = try feedOneThenEnd(["--on-eof", "exit"])
    let result = child.wait(timeout: 30)
    #expect(!result.timedOut, "the sign exited when its input ended")
    #expect(result.status == 0 && !result.signalled, "\(result.stderr)")
  }

  @Test func onEofExitBlanksARealBoardBeforeExiting() throws {
    let dump = NSTemporaryDirectory() + "marquee-eof-\(getpid()).bin"
    defer { try? FileManager.default.removeItem(atPath: dump) }
    let child = try BinaryRunner.start(
      ["--stdin", "--on-eof", "exit", "--board", "Boards/max7219-fc16-32x8.json", "--spi-dump", dump], input: true)
    child.write(Data("ONE\n".utf8))
    // The start-up sequence is 5 transactions of 8 bytes; a frame adds at least one more.
    #expect(child.waitForOutput { _ in ((try? FileManager.default.attributesOfItem(atPath: dump)[.size] as? Int) ?? 0) > 48 })
    child.closeInput()
    let result = child.wait(timeout: 30)
    #expect(!result.timedOut && result.status == 0, "\(result.stderr)")
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dump)))
    // The last transaction puts all four chips in shutdown (register 0x0C, data 0).
    #expect(Array(bytes.suffix(8)) == [0x0C, 0, 0x0C, 0, 0x0C, 0, 0x0C, 0])
  }

  @Test func feedOptionsThatDoNotApplyAreUsageErrors() throws {
    #expect(try BinaryRunner.run(["--on-eof", "exit", "X"]).status == 64)
    #expect(try BinaryRunner.run(["--stdin", "--on-eof", "later"]).status == 64)
    let retry = try BinaryRunner.run(["--board", "Boards/max7219-fc16-32x8.json", "--spi-dump", "/dev/null", "--retry", "X"])
    #expect(retry.status == 64 && retry.stderr.contains("'--retry' reopens a failing device"))
  }

  @Test func aFloodOfLinesShowsTheLatestAndStaysResponsive() throws {
    var flood = ""
    for number in 0..<20_000 { flood += "flood line \(number)\n" }
    let last = try still("LAST")
    // No frame limit: the run ends when its input does, after LAST has been drawn.
    let child = try BinaryRunner.start(
      ["--stdin", "--on-eof", "exit", "--width", "32", "--height", "8", "--fps", "20", "--output", "ascii"], input: true)
    child.write(Data(flood.utf8))
    child.write(Data("LAST\n".utf8))
    // Coalesced updates: the sign reaches the newest line without playing the 20,000 before
    // it (bounded wait; on a quiet machine it takes well under a second).
    let shown = child.waitForOutput(timeout: 60) { asciiFrames(String(decoding: $0, as: UTF8.self)).last == last }
    #expect(shown, "LAST reached the sign")
    child.closeInput()
    let result = child.wait(timeout: 30)
    #expect(!result.timedOut && result.status == 0, "\(result.stderr)")
    // Memory stayed bounded: far fewer frames than lines (a frame per line would be 20,001).
    #expect(asciiFrames(result.stdout).count < 20_000)
  }

  @Test func invalidUTF8ShowsAsTheReplacementGlyph() throws {
    let result = try runFed(
      ["--stdin", "--width", "32", "--frames", "1", "--output", "ascii"], lines: [(0, "A\u{FFFD}B\n")])
    let fed = try runFedBytes(["--stdin", "--width", "32", "--frames", "1", "--output", "ascii"], bytes: [0x41, 0xFF, 0x42, 0x0A])
    #expect(asciiFrames(fed).first == asciiFrames(result.stdout).first)
  }

  func runFedBytes(_ arguments: [String], bytes: [UInt8]) throws -> String {
    try ChildProcess.run(BinaryRunner.path, arguments, input: Data(bytes)).stdout
  }

  @Test func timePlaceholdersAreFilledInFromTheClock() throws {
    let result = try runFed(
      ["--clock-start", "3600", "--width", "48", "--fps", "1", "--frames", "3", "--no-wait", "--output", "ascii", "{time:%H:%M:%S}"],
      lines: [], environment: ["TZ": "UTC"])
    let frames = asciiFrames(result.stdout)
    try #require(frames.count == 3)
    let expected = try ["01:00:00", "01:00:01", "01:00:02"].map { try still($0, width: 48) }
    #expect(frames == expected)
    let date = try runFed(["--clock-start", "0", "--width", "64", "--frames", "1", "--output", "ascii", "{date}"], lines: [], environment: ["TZ": "UTC"])
    #expect(asciiFrames(date.stdout).first == (try still("1970-01-01", width: 64)))
  }
}

/// A real MQTT broker on loopback feeding a sign through mosquitto_sub, as Docs/fleet.md
/// describes.
@Suite(.offThePool, .enabled(if: MosquittoBroker.available, "needs the Debian packages mosquitto and mosquitto-clients"))
struct MQTTFeedTests {
  typealias Broker = MosquittoBroker

  static func port(_ offset: Int) -> Int { 20_000 + Int(getpid() % 10_000) * 3 + offset }

  /// The pipeline of Docs/fleet.md, writing frames to `output`.
  static func pipeline(port: Int, output: String, sign: String) throws -> ChildProcess {
    try ChildProcess("/bin/sh", ["-c",
      "mosquitto_sub -h 127.0.0.1 -p \(port) -t signs/lobby | '\(BinaryRunner.path)' --stdin --on-eof exit "
      + "--width 32 --height 8 --fps 20 --output ascii \(sign) > \(output)"])
  }

  static func frames(_ path: String) -> [[String]] {
    asciiFrames((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
  }

  static func still(_ text: String) throws -> [String]? {
    asciiFrames(try BinaryRunner.run(["--width", "32", "--frames", "1", "--output", "ascii", text]).stdout).first
  }

  @Test func retainedAndLiveMessagesReachTheSign() throws {
    let broker = try Broker(port: MQTTFeedTests.port(0))
    let output = broker.folder + "/frames.txt"
    // A retained message: what a restarted sign shows first.
    #expect(broker.publish("signs/lobby", "HELLO", retain: true))
    let pipeline = try ChildProcess("/bin/sh", ["-c",
      "mosquitto_sub -h 127.0.0.1 -p \(broker.port) -t signs/lobby -C 2 | '\(BinaryRunner.path)' --stdin "
      + "--width 32 --height 8 --fps 20 --frames 60 --output ascii > \(output)"])
    // Once the sign has drawn the retained message the subscriber is surely subscribed:
    // then the live one cannot be missed (bounded wait).
    for _ in 0..<100 where ((try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0) == 0 {
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(broker.publish("signs/lobby", #"{"message": "BYE"}"#))
    let ended = pipeline.wait(timeout: 30)
    #expect(!ended.timedOut && ended.status == 0, "\(ended)")
    let frames = MQTTFeedTests.frames(output)
    try #require(frames.count == 60)
    #expect(frames.first == (try MQTTFeedTests.still("HELLO")))
    #expect(frames.last == (try MQTTFeedTests.still("BYE")))
  }

  @Test func withNoBrokerAtStartThePipelineExitsForTheServiceManagerToRestart() throws {
    // Nothing listens on this port: mosquitto_sub fails, its output ends, the sign exits 0.
    let output = NSTemporaryDirectory() + "marquee-mqtt-absent-\(getpid()).txt"
    defer { try? FileManager.default.removeItem(atPath: output) }
    let pipeline = try MQTTFeedTests.pipeline(port: MQTTFeedTests.port(1), output: output, sign: "Starting")
    let ended = pipeline.wait(timeout: 30)
    #expect(!ended.timedOut, "the pipeline ended by itself")
    #expect(ended.status == 0 && ended.stderr.contains("Connection refused"), "\(ended.stderr)")
  }

  @Test func aBrokerRestartedMidRunFeedsTheSignAgain() throws {
    let broker = try Broker(port: MQTTFeedTests.port(2))
    let output = broker.folder + "/frames.txt"
    let pipeline = try MQTTFeedTests.pipeline(port: broker.port, output: output, sign: "Starting")
    defer {
      pipeline.sendToCommands(SIGTERM)
      _ = pipeline.wait(timeout: 10)
    }
    let old = try #require(try MQTTFeedTests.still("OLD")), new = try #require(try MQTTFeedTests.still("NEW"))
    // Retained, so a subscriber that connects a moment later still gets it.
    #expect(broker.publish("signs/lobby", "OLD", retain: true))
    #expect(pipeline.waitForOutput { _ in MQTTFeedTests.frames(output).last == old }, "OLD reached the sign")
    broker.stop()
    // Wait (bounded) until the broker is really gone: its port refuses connections.
    var refused = false
    for _ in 0..<200 where !refused {
      refused = HTTPTestClient(port: UInt16(broker.port)).connect(timeout: 1) < 0
      if !refused { usleep(50_000) }
    }
    #expect(refused, "the broker still answers on its port")
    // mosquitto_sub does not exit when the broker goes away mid-run: it reconnects, and the
    // sign keeps its content meanwhile (with --on-eof exit, the sign would end with it; NEW
    // arriving after the restart below shows it did not).
    #expect(!pipeline.ends(within: 0.1), "the pipeline kept running without its broker")
    #expect(MQTTFeedTests.frames(output).last == old)
    try broker.start()
    #expect(broker.publish("signs/lobby", "NEW", retain: true))
    #expect(pipeline.waitForOutput(timeout: 30) { _ in MQTTFeedTests.frames(output).last == new },
            "a message published after the restart reached the sign")
  }
}

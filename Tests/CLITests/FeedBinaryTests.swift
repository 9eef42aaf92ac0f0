import Glibc
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

@Suite struct FeedBinaryTests {
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

  @Test func aFloodOfLinesShowsTheLatestAndStaysResponsive() throws {
    var flood = ""
    for number in 0..<20_000 { flood += "flood line \(number)\n" }
    let started = Date()
    let result = try runFed(
      ["--stdin", "--width", "32", "--height", "8", "--fps", "20", "--frames", "40", "--output", "ascii"],
      lines: [(0, flood), (0.2, "LAST\n")])
    #expect(result.status == 0)
    #expect(asciiFrames(result.stdout).last == (try still("LAST")))
    // 40 frames at 20 fps: about two seconds, not minutes of catching up.
    #expect(Date().timeIntervalSince(started) < 20)
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

/// Runs a shell command (bounded) and returns its exit status, or -1 if it hung or was
/// killed by a signal.
func statusOf(_ command: String) -> Int32 {
  guard let result = try? ChildProcess.shell(command, timeout: 30), !result.timedOut, !result.signalled else { return -1 }
  return result.status
}

/// A real MQTT broker on loopback feeding a sign through mosquitto_sub, as Docs/fleet.md
/// describes.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto")
                  && FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_sub"),
                "needs the Debian packages mosquitto and mosquitto-clients"))
struct MQTTFeedTests {
  @Test func retainedAndLiveMessagesReachTheSign() throws {
    let port = 20_000 + Int(getpid() % 20_000)
    let folder = NSTemporaryDirectory() + "marquee-mqtt-\(port)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let config = folder + "/mosquitto.conf", output = folder + "/frames.txt"
    try "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n"
      .write(toFile: config, atomically: true, encoding: .utf8)
    // The broker runs in the foreground as the test's child, stopped at the end.
    let broker = try ChildProcess("/usr/sbin/mosquitto", ["-c", config])
    defer {
      broker.send(SIGTERM)
      _ = broker.wait(timeout: 10)
      try? FileManager.default.removeItem(atPath: folder)
    }
    // Wait for the broker to listen (bounded).
    var ready = false
    for _ in 0..<50 where !ready {
      ready = statusOf("mosquitto_pub -h 127.0.0.1 -p \(port) -t probe -m x") == 0
      if !ready { Thread.sleep(forTimeInterval: 0.1) }
    }
    try #require(ready, "mosquitto did not start")
    // A retained message: what a restarted sign shows first.
    #expect(statusOf("mosquitto_pub -h 127.0.0.1 -p \(port) -t signs/lobby -r -m HELLO") == 0)
    let pipeline = try ChildProcess("/bin/sh", ["-c",
      "mosquitto_sub -h 127.0.0.1 -p \(port) -t signs/lobby -C 2 | '\(BinaryRunner.path)' --stdin "
      + "--width 32 --height 8 --fps 20 --frames 60 --output ascii > \(output)"])
    // Once the sign has drawn the retained message the subscriber is surely subscribed:
    // then the live one cannot be missed (bounded wait).
    for _ in 0..<100 where ((try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0) == 0 {
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(statusOf("mosquitto_pub -h 127.0.0.1 -p \(port) -t signs/lobby -m '{\"message\": \"BYE\"}'") == 0)
    let ended = pipeline.wait(timeout: 30)
    #expect(!ended.timedOut && ended.status == 0, "\(ended)")
    let frames = asciiFrames((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    try #require(frames.count == 60)
    let hello = asciiFrames(try BinaryRunner.run(["--width", "32", "--frames", "1", "--output", "ascii", "HELLO"]).stdout).first
    let bye = asciiFrames(try BinaryRunner.run(["--width", "32", "--frames", "1", "--output", "ascii", "BYE"]).stdout).first
    #expect(frames.first == hello)
    #expect(frames.last == bye)
  }
}

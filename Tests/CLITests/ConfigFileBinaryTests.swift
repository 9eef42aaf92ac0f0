import Foundation
import SimpleJSON
import Testing

/// `--config FILE`: a sign's options in one JSON file, the command line overriding them.
@Suite(.offThePool) struct ConfigFileBinaryTests {
  func write(_ json: String) throws -> String {
    let path = NSTemporaryDirectory() + "marquee-config-\(getpid())-\(UUID().uuidString).json"
    try json.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  @Test func aServiceIsOneLineAndTheFileMeansWhatTheOptionsMean() throws {
    // The same sign from a config file and from the command line: the same frames.
    let config = try write(#"""
      {"board": "max7219-fc16-64x8", "simulate": true, "output": "ascii", "noWait": true, "frames": 20,
       "mode": "cycle", "in": "scroll-left", "dwell": 0.2, "duration": 0.3, "messages": ["OPEN", "WELCOME"]}
      """#)
    defer { try? FileManager.default.removeItem(atPath: config) }
    let fromFile = try BinaryRunner.run(["--config", config])
    let fromOptions = try BinaryRunner.run(
      ["--board", "max7219-fc16-64x8", "--simulate", "--output", "ascii", "--no-wait", "--frames", "20", "--mode", "cycle",
       "--in", "scroll-left", "--dwell", "0.2", "--duration", "0.3", "OPEN", "WELCOME"])
    #expect(fromFile.status == 0, "\(fromFile.stderr)")
    #expect(asciiFrames(fromFile.stdout).count == 20)
    #expect(fromFile.stdout == fromOptions.stdout)
  }

  @Test func theCommandLineOverridesTheFileAndZonesWork() throws {
    let config = try write(#"""
      {"width": 64, "output": "ascii", "noWait": true, "frames": 1, "zones": [
        {"name": "left", "x": 0, "y": 0, "width": 32, "height": 8, "messages": ["L"]},
        {"name": "right", "x": 32, "y": 0, "width": 32, "height": 8, "messages": ["R"], "align": "right"}]}
      """#)
    defer { try? FileManager.default.removeItem(atPath: config) }
    let result = try BinaryRunner.run(["--config", config, "--frames", "2"])
    #expect(result.status == 0, "\(result.stderr)")
    let frames = asciiFrames(result.stdout)
    #expect(frames.count == 2, "--frames on the command line wins")
    #expect(frames.first?.first?.count == 64)
  }

  @Test(arguments: [
    (#"{"speeed": 3, "messages": ["A"]}"#, 64, ":1:2: field 'speeed': unknown field"),
    (#"{"speed": "fast", "messages": ["A"]}"#, 64, ":1:2: field 'speed': expected a number"),
    (#"{"messages": ["A"],\#n "fps": 0}"#, 64, ":2:2: field 'fps': must be greater than 0"),
    (#"{"zones": []}"#, 64, ":1:2: field 'zones': expected a non-empty array of zones"),
    (#"{"seconds": 3, "messages": ["A"]}"#, 64, ": 'seconds' needs 'gif' (here or on the command line)."),
    (#"{"messages": ["A"], "#, 64, ": line 1"),
  ])
  func aBadConfigFileNamesTheFileAndTheField(json: String, status: Int32, message: String) throws {
    let config = try write(json)
    defer { try? FileManager.default.removeItem(atPath: config) }
    let result = try BinaryRunner.run(["--config", config, "--frames", "1", "--output", "ascii"])
    #expect(result.status == status)
    #expect(result.stderr.hasPrefix("Error: \(config)\(message)"), "\(result.stderr)")
  }

  /// The same bad value from every source is the same kind of error, naming its source:
  /// the command line and the files it names (64), a feed line (skipped, logged), the API
  /// (400).
  @Test(arguments: [
    ("-3", "-3", "-3 is out of range (0 to 100000)"),
    ("fast", #""fast""#, #"expected a number from 0 to 100000, got the string "fast""#),
  ])
  func theSameBadValueFromEverySourceAgrees(typed argument: String, json: String, reason: String) throws {
    let typed = try BinaryRunner.run(["--speed", argument, "X"])
    #expect(typed.status == 64 && typed.stderr.hasPrefix("Error: Invalid value for '--speed <px-per-second>': \(reason)\n"), "\(typed.stderr)")
    let config = try write(#"{"messages": ["X"], "speed": "# + json + "}")
    defer { try? FileManager.default.removeItem(atPath: config) }
    let fromConfig = try BinaryRunner.run(["--config", config, "--frames", "1"])
    #expect(fromConfig.status == 64 && fromConfig.stderr.hasPrefix("Error: \(config):1:21: field 'speed': \(reason)\n"), "\(fromConfig.stderr)")
    let layout = try write(#"{"zones": [{"x": 0, "y": 0, "width": 8, "height": 8, "speed": "# + json + "}]}")
    defer { try? FileManager.default.removeItem(atPath: layout) }
    let fromLayout = try BinaryRunner.run(["--layout", layout, "--frames", "1"])
    #expect(fromLayout.status == 64 && fromLayout.stderr.hasPrefix("Error: \(layout):1:54: field 'zones[0].speed': \(reason)\n"), "\(fromLayout.stderr)")
    let fed = try runFed(["--stdin", "--frames", "5", "--output", "ascii", "X"], lines: [(0, #"{"speed": "# + json + "}\n")])
    #expect(fed.status == 0 && fed.stderr.contains("stdin:1: field 'speed': \(reason), line skipped"), "\(fed.stderr)")
    let sign = try ServedSign(["--output", "ascii", "X"])
    let api = sign.client.request("PATCH", "/api/content", body: #"{"zones": [{"speed": "# + json + "}]}")
    let answer = try JSONParser.parse(api?.text ?? "")
    #expect(api?.status == 400 && answer["error"] == .string("zones[0].speed: \(reason)"), "\(api?.text ?? "")")
    _ = sign.stop()
  }

  @Test func aMissingConfigFileIsARuntimeError() throws {
    let result = try BinaryRunner.run(["--config", "/nonexistent/sign.json"])
    #expect(result.status == 1 && result.stderr.hasPrefix("Error: /nonexistent/sign.json: No such file or directory"))
  }
}

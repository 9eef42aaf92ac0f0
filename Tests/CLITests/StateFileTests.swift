import Foundation
import Platform
import MatrixCore
import SimpleJSON
import TestSupport
import Testing

@testable import SignService

/// What a person changes over the API survives a restart and a power cut (`--state`): a
/// change is answered only once it is on the disk, and SIGKILL at any moment leaves a file
/// that loads and holds the last change acknowledged (or the one in flight).
@Suite(.offThePool, .serialized) struct StateFileTests {
  final class Folder {
    let path = NSTemporaryDirectory() + "marquee-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  static func zone(_ sign: ServedSign) throws -> JSONValue? {
    try ServeTests.json(sign.client.request("GET", "/api/state"))["zones"]?.arrayValue?.first
  }

  @Test func changesComeBackAfterARestart() throws {
    let folder = try Folder()
    let state = folder.path + "/sign.state"
    let first = try ServedSign(["--state", state, "--output", "ascii", "--width", "32", "Config text"])
    #expect(first.client.request("PATCH", "/api/content", body: #"{"messages": ["Saved"], "speed": 33}"#)?.status == 200)
    #expect(first.client.request("POST", "/api/pause", body: "{}")?.status == 200)
    #expect(first.client.request("POST", "/api/brightness", body: #"{"brightness": 3}"#)?.status == 200)
    #expect(first.stop().status == 128 + SIGTERM)
    // The file is JSON a person can read.
    let saved = try SignState(json: try String(contentsOfFile: state, encoding: .utf8))
    #expect(saved.zones.first?.name == "main" && saved.paused["main"] == true && saved.brightness == 3)
    let second = try ServedSign(["--state", state, "--output", "ascii", "--width", "32", "Config text"])
    let zone = try StateFileTests.zone(second)
    #expect(zone?["messages"] == .array([.string("Saved")]) && zone?["speed"] == .number(33) && zone?["paused"] == .bool(true))
    #expect(try ServeTests.json(second.client.request("GET", "/api/state"))["brightness"] == .number(3))
    // The saved text is what the sign shows from its first frame.
    let expected = try #require(asciiFrames(try BinaryRunner.run(["--output", "ascii", "--width", "32", "--frames", "1", "Saved"]).stdout).first)
    #expect(asciiFrames(second.frame(changingFrom: "")).first == expected)
    _ = second.stop()
  }

  /// Pulling the power, many times: SIGKILL at random moments during a stream of changes.
  @Test(.timeLimit(.minutes(3))) func sigkillAtAnyMomentLeavesTheLastAcknowledgedChange() throws {
    let folder = try Folder()
    let state = folder.path + "/sign.state"
    var random = SplitMix64(seed: 2026)
    var acknowledged = -1
    var counter = 0
    for round in 0..<25 {
      let sign = try ServedSign(["--state", state, "--output", "ascii", "--width", "32", "Config"])
      // What the last round acknowledged (or had in flight) is what this one starts with.
      if acknowledged >= 0 {
        let shown = try StateFileTests.zone(sign)?["messages"]
        #expect(shown == .array([.string("n\(acknowledged)")]) || shown == .array([.string("n\(acknowledged + 1)")]),
                "round \(round): \(String(describing: shown)) after n\(acknowledged) was acknowledged")
        if shown == .array([.string("n\(acknowledged + 1)")]) { acknowledged += 1 }
      }
      let writes = Int.random(in: 1...8, using: &random)
      for _ in 0..<writes {
        counter = acknowledged + 1
        let answer = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["n\#(counter)"]}"#)
        #expect(answer?.status == 200)
        acknowledged = counter
      }
      // One more in flight, and the kill lands while the server may be writing it.
      let fd = sign.client.connect()
      HTTPTestClient.send(fd, Array("PATCH /api/content HTTP/1.1\r\nHost: \(sign.client.host)\r\nContent-Type: application/json\r\nContent-Length: \(#"{"messages": ["n\#(acknowledged + 1)"]}"#.utf8.count)\r\n\r\n{\"messages\": [\"n\(acknowledged + 1)\"]}".utf8))
      usleep(useconds_t(Int.random(in: 0...3000, using: &random)))
      sign.child.send(SIGKILL)
      _ = sign.child.wait(timeout: 10)
      close(fd)
      // Whatever the moment, the file loads.
      let text = try String(contentsOfFile: state, encoding: .utf8)
      let loaded = try SignState(json: text)
      let messages = loaded.zones.first?.document["messages"]
      #expect(messages == .array([.string("n\(acknowledged)")]) || messages == .array([.string("n\(acknowledged + 1)")]), "round \(round): \(text)")
    }
  }

  /// The same power cuts with programs in the config: a change made while a program plays
  /// holds until that program's stretch ends, so after each restart within it the sign
  /// shows the change again, not the program's content; a program chosen is kept as well.
  @Test(.timeLimit(.minutes(3))) func sigkillDuringAProgramLeavesTheChangeShowing() throws {
    let folder = try Folder()
    let state = folder.path + "/sign.state", config = folder.path + "/sign.json"
    try #"""
      {"width": 32, "messages": ["Own"],
       "programs": [{"name": "always", "times": ["00:00-24:00"], "messages": ["Program"]},
                    {"name": "other", "default": true, "messages": ["Other"]}]}
      """#.write(toFile: config, atomically: true, encoding: .utf8)
    let arguments = ["--config", config, "--state", state, "--output", "ascii"]
    var random = SplitMix64(seed: 35)
    var acknowledged = -1
    for round in 0..<25 {
      let sign = try ServedSign(arguments)
      if acknowledged >= 0 {
        let shown = try StateFileTests.zone(sign)?["messages"]
        #expect(shown == .array([.string("n\(acknowledged)")]) || shown == .array([.string("n\(acknowledged + 1)")]),
                "round \(round): \(String(describing: shown)) after n\(acknowledged) was acknowledged")
        if shown == .array([.string("n\(acknowledged + 1)")]) { acknowledged += 1 }
        // The LEDs show it too, not the program's text (waited for: the first frame).
        let expected = try #require(asciiFrames(try BinaryRunner.run(["--output", "ascii", "--width", "32", "--frames", "1", "n\(acknowledged)"]).stdout).first)
        var seen = ""
        for _ in 0..<250 where asciiFrames(seen).first != expected {
          seen = sign.client.request("GET", "/api/frame")?.text ?? ""
          if asciiFrames(seen).first != expected { usleep(20_000) }
        }
        #expect(asciiFrames(seen).first == expected, "round \(round): \(seen)")
      } else {
        #expect(try StateFileTests.zone(sign)?["messages"] == .array([.string("Program")]))
      }
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        let answer = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["n\#(acknowledged + 1)"]}"#)
        #expect(answer?.status == 200 && (try? ServeTests.json(answer))?["kept"] == .bool(true))
        acknowledged += 1
      }
      let fd = sign.client.connect()
      let body = #"{"messages": ["n\#(acknowledged + 1)"]}"#
      HTTPTestClient.send(fd, Array("PATCH /api/content HTTP/1.1\r\nHost: \(sign.client.host)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
      usleep(useconds_t(Int.random(in: 0...3000, using: &random)))
      sign.child.send(SIGKILL)
      _ = sign.child.wait(timeout: 10)
      close(fd)
    }
    // A program chosen survives a power cut as well.
    let sign = try ServedSign(arguments)
    #expect(sign.client.request("POST", "/api/program", body: #"{"name": "other"}"#)?.status == 200)
    sign.child.send(SIGKILL)
    _ = sign.child.wait(timeout: 10)
    let again = try ServedSign(arguments)
    #expect(try ServeTests.json(again.client.request("GET", "/api/state"))["program"] == .string("other"))
    _ = again.stop()
  }

  /// One truth across a power cut (issue 50): a person's message published while a program
  /// plays, then the programs saved, rewritten and a program chosen, each answered; SIGKILL;
  /// the sign started again shows the person's message, says it is theirs, until when, and
  /// keeps the programs as saved. Run with programs due all day so the test holds at any hour.
  @Test(.timeLimit(.minutes(3))) func aPersonsChangeOverProgramEditsSurvivesSIGKILL() throws {
    let folder = try Folder()
    let state = folder.path + "/sign.state"
    let config = folder.path + "/sign.json"
    try #"{"width": 32, "messages": ["Config"], "programs": [{"name": "day", "times": ["00:00-24:00"], "messages": ["Day"]}]}"#
      .write(toFile: config, atomically: true, encoding: .utf8)
    var random = SplitMix64(seed: 50)
    for round in 0..<4 {
      let sign = try ServedSign(["--config", config, "--state", state, "--output", "ascii"])
      // Short enough to stand still on the 32-pixel sign, so the LEDs compare frame to frame.
      let text = "O\(round)"
      let published = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["\#(text)"]}"#)
      #expect(published?.status == 200, "\(published?.text ?? "")")
      let edits = [
        ("PUT", "/api/programs/weekend", #"{"days": ["sat", "sun"], "times": ["09:00-18:00"], "messages": ["Weekend"]}"#),
        ("PUT", "/api/programs/day", #"{"times": ["00:00-24:00"], "messages": ["Day \#(round)"]}"#),
        ("POST", "/api/program", #"{"name": "day"}"#),
        ("DELETE", "/api/programs/weekend", nil),
      ]
      for _ in 0..<(1 + Int(random.next() % 4)) {
        let (method, path, body) = edits[Int(random.next() % UInt64(edits.count))]
        let answer = sign.client.request(method, path, body: body)
        #expect([200, 404].contains(answer?.status ?? 0), "\(method) \(path): \(answer?.text ?? "")")
      }
      let before = try StateFileTests.zone(sign)
      #expect(before?["messages"] == .array([.string(text)]) && before?["why"]?["layer"] == .string("person"), "\(String(describing: before))")
      let programs = try ServeTests.json(sign.client.request("GET", "/api/programs"))["programs"]
      sign.child.send(SIGKILL)
      _ = sign.child.wait(timeout: 10)
      let again = try ServedSign(["--config", config, "--state", state, "--output", "ascii"])
      let after = try StateFileTests.zone(again)
      #expect(after?["messages"] == before?["messages"] && after?["why"]?["layer"] == .string("person"), "round \(round): \(String(describing: after))")
      #expect(after?["why"]?["until"] == before?["why"]?["until"] && after?["keptUntil"] == before?["keptUntil"])
      #expect(try ServeTests.json(again.client.request("GET", "/api/programs"))["programs"] == programs)
      // The LEDs show it too.
      let expected = try #require(asciiFrames(try BinaryRunner.run(["--output", "ascii", "--width", "32", "--frames", "1", text]).stdout).first)
      #expect(asciiFrames(again.frame(changingFrom: "")).first == expected)
      _ = again.stop()
    }
  }

  /// Sources set over the API are on the disk before the answer: SIGKILL right after it,
  /// and the sign started again fetches them (and its content may name them).
  @Test(.timeLimit(.minutes(2))) func sourcesSetOverTheAPISurviveSIGKILL() throws {
    let server = try #require(ScriptedHTTPServer { _ in .status(200, #"{"t": 7}"#) })
    defer { server.stop() }
    let folder = try Folder()
    let state = folder.path + "/sign.state", token = folder.path + "/token"
    try "a-token-of-twenty-chars".write(toFile: token, atomically: true, encoding: .utf8)
    let bearer = ["Authorization": "Bearer a-token-of-twenty-chars"]
    let arguments = ["--state", state, "--token-file", token, "--output", "ascii", "--width", "48", "x"]
    let sign = try ServedSign(arguments)
    for round in 0..<3 {
      let sources = #"{"sources": [{"name": "t\#(round)", "url": "\#(server.url("/t.json"))", "json": "t", "format": "{0:d} min"}]}"#
      let set = sign.client.request("PUT", "/api/sources", body: sources, headers: bearer)
      #expect(set?.status == 200, "\(set?.text ?? "")")
    }
    sign.child.send(SIGKILL)
    _ = sign.child.wait(timeout: 10)
    let again = try ServedSign(arguments)
    let listed = try ServeTests.json(again.client.request("GET", "/api/sources", headers: bearer))["sources"]
    #expect(listed?.arrayValue?.first?["name"] == .string("t2"), "\(String(describing: listed))")
    #expect(again.client.request("PATCH", "/api/content", body: #"{"messages": ["Bus {source:t2|-}"]}"#, headers: bearer)?.status == 200)
    let showing = { try? ServeTests.json(again.client.request("GET", "/api/state", headers: bearer))["zones"]?.arrayValue?.first?["showing"] }
    #expect(eventually { showing() == .array([.string("Bus 7 min")]) }, "\(String(describing: showing()))")
  }

  @Test func aBrokenStateFileIsKeptAsideAndTheSignStartsFromItsConfig() throws {
    let folder = try Folder()
    let state = folder.path + "/sign.state"
    try "{\"version\": 1, \"zones\": {\"main\": {\"messages\": [\"half".write(toFile: state, atomically: true, encoding: .utf8)
    let sign = try ServedSign(["--state", state, "--output", "ascii", "Config text"])
    #expect(try StateFileTests.zone(sign)?["messages"] == .array([.string("Config text")]))
    #expect(sign.child.errorSoFar.contains("Warning: \(state): line 1, column"), "\(sign.child.errorSoFar)")
    let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(entries.contains { $0.hasPrefix("sign.state.broken-") }, "\(entries)")
    _ = sign.stop()
  }

  @Test func aChangeThatCannotBeSavedIsNotMade() throws {
    let sign = try ServedSign(["--state", "/nonexistent-folder/sign.state", "--output", "ascii", "Config text"])
    let answer = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["Lost"]}"#)
    #expect(answer?.status == 500 && answer?.text.contains("the change was not made") == true, "\(answer?.text ?? "")")
    #expect(try StateFileTests.zone(sign)?["messages"] == .array([.string("Config text")]))
    _ = sign.stop()
  }
}

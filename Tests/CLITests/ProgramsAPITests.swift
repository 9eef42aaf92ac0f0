import Foundation
import Platform
import SimpleJSON
import TestSupport
import Testing

/// Programs set over the API: checked whole, played at once, kept in the state file.
@Suite(.offThePool, .serialized) struct ProgramsAPITests {
  /// Waits (at most 10 s) until the sign shows `wanted`; what it shows then.
  func shows(_ sign: ServedSign, _ wanted: [String]) -> [String]? {
    var shown: [String]?
    for _ in 0..<500 where shown != wanted {
      shown = asciiFrames(sign.client.request("GET", "/api/frame")?.text ?? "").first
      if shown != wanted { usleep(20_000) }
    }
    return shown
  }

  @Test func createPlayKeepAndDeleteAProgram() throws {
    let folder = NSTemporaryDirectory() + "marquee-programs-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let state = folder + "/sign.state"
    let arguments = ["--state", state, "--output", "ascii", "--width", "32", "Own"]
    let sign = try ServedSign(arguments)
    let client = sign.client
    #expect(try ServeTests.json(client.request("GET", "/api/programs"))["programs"] == .array([]))
    #expect(client.request("GET", "/api/schedule")?.status == 404, "no schedule yet")
    // A bad program changes nothing and names its field.
    let bad = client.request("PUT", "/api/programs/now", body: #"{"times": ["9-17"], "messages": ["NOW"]}"#)
    #expect(bad?.status == 400 && bad?.text.contains(#"{"error":"times[0]: expected HH:MM-HH:MM"#) == true, "\(bad?.text ?? "")")
    let font = client.request("PUT", "/api/programs/now", body: #"{"messages": ["NOW"], "font": "/etc/passwd"}"#)
    #expect(font?.status == 400 && font?.text.contains(#"{"error":"font: '/etc/passwd' is not a font this sign offers"#) == true, "\(font?.text ?? "")")
    let named = client.request("PUT", "/api/programs/now", body: #"{"name": "later", "messages": ["NOW"]}"#)
    #expect(named?.status == 400 && named?.text.contains("name: 'later' differs from the name in the path") == true)
    #expect(try ServeTests.json(client.request("GET", "/api/programs"))["programs"] == .array([]))
    // A program due all day plays at once.
    let put = client.request("PUT", "/api/programs/now", body: #"{"times": ["00:00-24:00"], "messages": ["NOW"]}"#)
    #expect(put?.status == 200, "\(put?.text ?? "")")
    let now = try #require(asciiFrames(try BinaryRunner.run(["--output", "ascii", "--width", "32", "--frames", "1", "NOW"]).stdout).first)
    let own = try #require(asciiFrames(try BinaryRunner.run(["--output", "ascii", "--width", "32", "--frames", "1", "Own"]).stdout).first)
    #expect(shows(sign, now) == now)
    let schedule = try ServeTests.json(client.request("GET", "/api/schedule"))
    #expect(schedule["program"] == .string("now") && schedule["reason"] == .string("it is due now"))
    #expect(try ServeTests.json(client.request("GET", "/api/programs/now"))["messages"] == .array([.string("NOW")]))
    #expect(client.request("GET", "/api/programs/none")?.status == 404)
    #expect(sign.stop().status == 128 + SIGTERM)
    // After a restart the program is still there and playing.
    let again = try ServedSign(arguments)
    #expect(try ServeTests.json(again.client.request("GET", "/api/schedule"))["program"] == .string("now"))
    #expect(shows(again, now) == now)
    // Deleted, the sign goes back to its own messages.
    #expect(again.client.request("DELETE", "/api/programs/now")?.status == 200)
    #expect(again.client.request("DELETE", "/api/programs/now")?.status == 404)
    #expect(shows(again, own) == own)
    _ = again.stop()
  }

  /// Waits (at most 10 s) until `GET path` has `key` equal to `wanted`.
  func eventually(_ sign: ServedSign, _ path: String, _ key: String, _ wanted: JSONValue) -> Bool {
    TestSupport.eventually { (try? ServeTests.json(sign.client.request("GET", path)))?[key] == wanted }
  }

  /// The brightness schedule and the off periods set over the API (checked, played, kept
  /// across a restart), and SIGHUP taking the config's programs and schedule back.
  @Test func theBrightnessScheduleAndOffPeriodsOverTheAPIAndSIGHUP() throws {
    let folder = NSTemporaryDirectory() + "marquee-schedule-api-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let state = folder + "/sign.state", config = folder + "/sign.json"
    try #"{"width": 32, "messages": ["Own"], "programs": [{"name": "a", "messages": ["A"]}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let arguments = ["--config", config, "--state", state, "--output", "ascii"]
    var sign = try ServedSign(arguments)
    for (body, error) in [
      (#"{"brightness": [{"at": "sunset", "level": 2}]}"#, #"brightness[0].at: sunset needs the sign's \"location\""#),
      (#"{"off": [{"times": ["25:00-26:00"]}]}"#, "off[0].times[0]"),
      (#"{"brightness": [{"at": "07:00", "level": 16}]}"#, "brightness[0].level"),
      (#"{"programs": []}"#, "programs"),
    ] {
      let answer = sign.client.request("PUT", "/api/schedule", body: body)
      #expect(answer?.status == 400 && answer?.text.contains(error) == true, "\(body): \(answer?.text ?? "")")
    }
    #expect(!FileManager.default.fileExists(atPath: state), "a refused change was saved")
    let dim = sign.client.request("PUT", "/api/schedule", body: #"{"brightness": [{"at": "00:00", "level": 3}]}"#)
    #expect(dim?.status == 200, "\(dim?.text ?? "")")
    #expect(eventually(sign, "/api/state", "brightness", .number(3)))
    #expect(sign.client.request("PUT", "/api/schedule", body: #"{"off": [{"times": ["00:00-24:00"]}]}"#)?.status == 200)
    #expect(eventually(sign, "/api/state", "on", .bool(false)))
    let written = try ServeTests.json(sign.client.request("GET", "/api/schedule"))["schedule"]
    #expect(written?["brightness"]?.arrayValue?.count == 1 && written?["off"]?.arrayValue?.count == 1, "\(String(describing: written))")
    _ = sign.stop()
    // Kept across a restart.
    sign = try ServedSign(arguments)
    #expect(eventually(sign, "/api/state", "on", .bool(false)) && eventually(sign, "/api/state", "brightness", .number(3)))
    // SIGHUP: the config's own programs and schedule (no off period) again.
    try #"{"width": 32, "messages": ["Own"], "programs": [{"name": "b", "messages": ["B"]}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
    sign.child.send(SIGHUP)
    var names: JSONValue?
    for _ in 0..<500 where names != .array([.string("b")]) {
      names = (try? ServeTests.json(sign.client.request("GET", "/api/programs")))?["programs"]?.arrayValue.map { .array($0.compactMap { $0["name"] }) }
      usleep(20_000)
    }
    #expect(names == .array([.string("b")]))
    #expect(eventually(sign, "/api/state", "on", .bool(true)))
    _ = sign.stop()
  }
}


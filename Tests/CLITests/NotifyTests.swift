import Foundation
import Platform
import SimpleJSON
import TestSupport
import Testing

/// Notifications on the running sign: over the API, from `marquee notify` the way curl
/// users give the address and token, and the sign going back to what it showed.
@Suite(.offThePool, .serialized) struct NotifyTests {
  func still(_ text: String) throws -> [String] {
    try #require(asciiFrames(try BinaryRunner.run(["--width", "32", "--frames", "1", "--output", "ascii", "--", text]).stdout).first)
  }

  func shown(_ sign: ServedSign) -> [String]? { asciiFrames(sign.client.request("GET", "/api/frame")?.text ?? "").first }

  @Test func aNotificationInterruptsAndTheSignReturns() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "Open"])
    let open = try still("Open"), order = try still("No 42")
    #expect(eventually { shown(sign) == open })
    let answer = try ServeTests.json(sign.client.request("POST", "/api/notify", body: #"{"messages": ["No 42"], "duration": 1.5, "priority": 2}"#))
    #expect(answer["id"] == .number(1) && answer["notifications"]?.arrayValue?.first?["showing"] == .bool(true))
    #expect(eventually { shown(sign) == order })
    #expect(try ServeTests.json(sign.client.request("GET", "/api/notify"))["notifications"]?.arrayValue?.count == 1)
    // It ends by itself and the sign shows what it showed.
    #expect(eventually { shown(sign) == open })
    #expect(try ServeTests.json(sign.client.request("GET", "/api/notify"))["notifications"] == .array([]))
    // Refused whole, with the field named; nothing queued.
    for (body, error) in [
      (#"{"duration": 2}"#, "messages"),
      (#"{"messages": ["x"], "zone": "side"}"#, "zone: no zone named 'side'"),
      (#"{"messages": ["x"], "passes": 2, "duration": 3}"#, #"passes: give \"duration\" or \"passes\", not both"#),
      (#"{"messages": ["x"], "in": "wobble"}"#, "in: unknown effect 'wobble'"),
      (#"{"messages": ["x"], "priority": 1000}"#, "priority"),
      (#"{"messages": ["x"], "font": "/etc/passwd"}"#, "font"),
    ] {
      let refused = sign.client.request("POST", "/api/notify", body: body)
      #expect(refused?.status == 400 && refused?.text.contains(error) == true, "\(body): \(refused?.text ?? "")")
    }
    #expect(try ServeTests.json(sign.client.request("GET", "/api/notify"))["notifications"] == .array([]))
    // Dismissed before its time.
    _ = sign.client.request("POST", "/api/notify", body: #"{"messages": ["No 42"], "duration": 60}"#)
    #expect(eventually { shown(sign) == order })
    #expect(sign.client.request("DELETE", "/api/notify/99")?.status == 404)
    #expect(sign.client.request("DELETE", "/api/notify")?.status == 200)
    #expect(eventually { shown(sign) == open })
    _ = sign.stop()
  }

  @Test func marqueeNotifyTakesTheAddressAndTokenAsCurlDoes() throws {
    let folder = NSTemporaryDirectory() + "marquee-notify-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let tokenPath = folder + "/token"
    let sign = try ServedSign(["--token-file", tokenPath, "--output", "ascii", "--width", "32", "Open"])
    let token = try String(contentsOfFile: tokenPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    let url = "http://127.0.0.1:\(sign.client.port)"
    let sent = try BinaryRunner.run(["notify", url, "--oauth2-bearer", token, "--duration", "30", "No 42"])
    #expect(sent.status == 0 && sent.stdout == "Notification 1 is on the sign's queue\n", "\(sent.stderr)")
    let order = try still("No 42")
    #expect(eventually { shown(sign, token) == order })
    let header = try BinaryRunner.run(["notify", "\(url)/", "-H", "Authorization: Bearer \(token)", "--priority", "1", "--zone", "main", "Hi"])
    #expect(header.status == 0, "\(header.stderr)")
    let file = try BinaryRunner.run(["notify", url, "--token-file", tokenPath, "--dismiss"])
    #expect(file.status == 0 && file.stdout == "Every notification dismissed\n", "\(file.stderr)")
    // Refusals are runtime errors (1) with the sign's reason; usage errors are 64.
    let wrong = try BinaryRunner.run(["notify", url, "--oauth2-bearer", "nope", "x"])
    #expect(wrong.status == 1 && wrong.stderr.contains("the sign refused:"), "\(wrong.stderr)")
    let zone = try BinaryRunner.run(["notify", url, "--oauth2-bearer", token, "--zone", "side", "x"])
    #expect(zone.status == 1 && zone.stderr.contains("zone: no zone named 'side'"), "\(zone.stderr)")
    _ = sign.stop()
    let gone = try BinaryRunner.run(["notify", url, "x"])
    #expect(gone.status == 1 && gone.stderr.contains("cannot reach \(url)"), "\(gone.stderr)")
    for (arguments, message) in [
      (["notify"], "'notify' needs a message"),
      (["notify", "--duration", "0", "x"], "'--duration' needs a number from 0.1"),
      (["notify", "https://sign:8443", "x"], "plain HTTP"),
      (["notify", "--dismiss", "x"], "'--dismiss' takes a notification's number"),
      (["notify", "--colour", "red", "x"], "'notify' does not take '--colour'"),
    ] {
      let result = try BinaryRunner.run(arguments)
      #expect(result.status == 64 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
  }

  func shown(_ sign: ServedSign, _ token: String) -> [String]? {
    asciiFrames(sign.client.request("GET", "/api/frame", headers: ["Authorization": "Bearer " + token])?.text ?? "").first
  }

  /// Live content over the API with a lifetime: stale after it, said in the state and the
  /// stats, and never kept in the state file.
  @Test func liveContentOverTheAPIGoesStale() throws {
    let folder = NSTemporaryDirectory() + "marquee-stale-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "--state", folder + "/sign.state", "Open"])
    let live = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["12:05"], "lifetime": 1, "fallback": ["--:--"], "immediately": true}"#)
    #expect(live?.status == 200, "\(live?.text ?? "")")
    let time = try still("12:05"), dashes = try still("--:--")
    #expect(eventually { shown(sign) == time })
    #expect(eventually { shown(sign) == dashes })
    let state = try ServeTests.json(sign.client.request("GET", "/api/state"))
    #expect(state["zones"]?.arrayValue?.first?["stale"] == .bool(true))
    #expect(try ServeTests.json(sign.client.request("GET", "/api/stats"))["staleZones"] == .array([.string("main")]))
    #expect(!((try? String(contentsOfFile: folder + "/sign.state", encoding: .utf8)) ?? "").contains("12:05"))
    _ = sign.stop()
  }

  /// A notification marked `wake` lights a sign in its off period while it shows; then the
  /// sign is dark again.
  @Test func aWakingNotificationLightsASignInItsOffPeriod() throws {
    let config = NSTemporaryDirectory() + "marquee-wake-\(getpid()).json"
    try #"{"width": 32, "messages": ["Open"], "off": [{"times": ["00:00-24:00"]}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: config) }
    let sign = try ServedSign(["--config", config, "--output", "ascii"])
    func on() -> JSONValue? { (try? ServeTests.json(sign.client.request("GET", "/api/state")))?["on"] }
    #expect(on() == .bool(false))
    // Without wake, the sign stays dark.
    #expect(sign.client.request("POST", "/api/notify", body: #"{"messages": ["Quiet"], "duration": 1}"#)?.status == 200)
    #expect(on() == .bool(false))
    #expect(sign.client.request("DELETE", "/api/notify")?.status == 200)
    let bell = try still("Bell"), quiet = try still("Quiet")
    #expect(sign.client.request("POST", "/api/notify", body: #"{"messages": ["Bell"], "duration": 1.5, "wake": true}"#)?.status == 200)
    #expect(on() == .bool(true))
    // The sign's own output: lit with the bell, never with the quiet one.
    func printed() -> [[String]] { asciiFrames(String(decoding: sign.child.outputSoFar, as: UTF8.self)) }
    #expect(eventually { printed().contains(bell) })
    #expect(!printed().contains(quiet))
    #expect(eventually { on() == .bool(false) }, "dark again after it")
    _ = sign.stop()
  }
}


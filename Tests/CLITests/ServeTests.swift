import Foundation
import Platform
import SimpleJSON
import TestSupport
import Testing

/// `marquee serve` as clients use it: the API's answers, what a bad request gets (and that
/// it changes nothing), tokens, limits and slow clients, the event stream, SIGHUP reloads.
@Suite(.offThePool, .serialized) struct ServeTests {
  static func json(_ response: HTTPTestClient.Response?) throws -> JSONValue {
    try JSONParser.parse(try #require(response).text)
  }

  @Test func contentChangesTheSignAndABadRequestChangesNothing() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "Hello"])
    let client = sign.client
    let state = try ServeTests.json(client.request("GET", "/api/state"))
    #expect(state["width"] == .number(32) && state["zones"]?.arrayValue?.count == 1)
    let before = try #require(client.request("GET", "/api/frame")).text
    #expect(before.split(separator: "\n").count == 8 && before.contains("#"))
    // PATCH merges into the zone: the frame changes to the new message.
    let patched = client.request("PATCH", "/api/content", body: #"{"messages": ["Bye"], "immediately": true}"#)
    #expect(patched?.status == 200, "\(patched?.text ?? "")")
    let after = sign.frame(changingFrom: before)
    #expect(after != before)
    // A request whose second zone is bad is refused whole, with the field's path.
    let bad = client.request("PATCH", "/api/content", body: #"{"zones": [{"messages": ["X"]}, {"speed": "fast"}]}"#)
    #expect(bad?.status == 400)
    #expect(try ServeTests.json(bad)["error"] == .string(#"zones[1].speed: expected a number from 0 to 100000, got the string "fast""#))
    let zone = try ServeTests.json(client.request("GET", "/api/state"))["zones"]
    #expect(zone == .array([try #require(try ServeTests.json(patched)["zones"]?.arrayValue?.first)]), "unchanged by the bad request")
    // PUT replaces: messages are required.
    let put = client.request("PUT", "/api/content", body: #"{"speed": 5}"#)
    #expect(put?.status == 400 && put?.text.contains("messages: missing") == true, "\(put?.text ?? "")")
    let result = sign.stop()
    #expect(result.status == 128 + SIGTERM, "\(result.stderr)")
  }

  /// `serve --stdin`: a served sign reads lines too, each a command to the same session as
  /// the API's, so the example config (Docs/examples/sign.json, `"stdin": true`) starts
  /// under `serve`; a line's content is the feed's layer, and the end of input keeps it.
  @Test func aServedSignReadsLinesFromStandardInput() throws {
    let child = try BinaryRunner.start(
      ["serve", "--listen", "127.0.0.1:0", "--config", "Docs/examples/sign.json", "--simulate", "--output", "ascii", "--on-eof", "keep"], input: true)
    defer {
      child.send(SIGKILL)
      _ = child.wait(timeout: 10)
    }
    var port: UInt16?
    #expect(eventually {
      if let range = child.errorSoFar.range(of: "http://127.0.0.1:") { port = UInt16(child.errorSoFar[range.upperBound...].prefix { $0.isNumber }) }
      return port != nil
    }, "\(child.errorSoFar)")
    let client = HTTPTestClient(port: try #require(port))
    child.write(Data(#"{"zone": "ticker", "message": "Trains on time"}"#.utf8 + [10]))
    child.closeInput()
    func ticker() -> JSONValue? {
      (try? ServeTests.json(client.request("GET", "/api/state")))?["zones"]?.arrayValue?.first { $0["name"] == .string("ticker") }
    }
    #expect(eventually { ticker()?["messages"] == .array([.string("Trains on time")]) }, "\(child.errorSoFar)")
    #expect(ticker()?["why"]?["layer"] == .string("feed"))
    child.send(SIGTERM)
    #expect(child.wait(timeout: 20).status == 128 + SIGTERM)
  }

  /// The state shows every option a zone takes, in the form a write takes back: a zone's
  /// state sent as a PATCH changes nothing.
  @Test func theStateShowsEveryZoneOptionAndReadsBack() throws {
    let sign = try ServedSign(["--output", "ascii", "--mode", "cycle", "--gap", "3", "--valign", "top", "--ease", "ease-in-out",
                               "--letter-spacing", "2", "--invert", "--flip", "h", "--seed", "7", "--out", "fade", "Hello"])
    let zone = try #require(try ServeTests.json(sign.client.request("GET", "/api/state"))["zones"]?.arrayValue?.first)
    #expect(zone["gap"] == .number(3) && zone["valign"] == .string("top") && zone["ease"] == .string("ease-in-out"))
    #expect(zone["letterSpacing"] == .number(2) && zone["invert"] == .bool(true) && zone["flip"] == .string("h"))
    #expect(zone["seed"] == .number(7) && zone["out"] == .string("fade") && zone["mode"] == .string("cycle"))
    guard case .object(let members) = zone else { throw CLIError("the zone is not an object") }
    // Its place, pause, staleness and the text shown now are not content; the colour is set
    // at the start only.
    // `why` names the layer on top, which the PATCH makes a person's.
    let content = members.filter { !["name", "x", "y", "width", "height", "paused", "stale", "showing", "color", "why"].contains($0.key) }
    let back = JSONValue.object([("zone", .string("main"))] + content).text
    let patched = sign.client.request("PATCH", "/api/content", body: back)
    #expect(patched?.status == 200, "\(patched?.text ?? "")")
    guard case .object(let after)? = try ServeTests.json(patched)["zones"]?.arrayValue?.first else { throw CLIError("no zone in the answer") }
    #expect(JSONValue.object(after.filter { $0.key != "why" }) == .object(members.filter { $0.key != "why" }), "the state read back is the same")
    #expect(after.first { $0.key == "why" }?.value["layer"] == .string("person"))
    _ = sign.stop()
  }

  @Test func theFrameAsTextAndPBMAndThePauseAndBrightness() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "16", "--height", "8", "--align", "left", "H"])
    let client = sign.client
    // The first frame drawn (a busy machine may ask before it is).
    #expect(eventually { client.request("GET", "/api/frame")?.text.contains("#") == true })
    let text = try #require(client.request("GET", "/api/frame")).text
    let pbm = try #require(client.request("GET", "/api/frame", headers: ["Accept": "image/x-portable-bitmap"]))
    #expect(pbm.headers["content-type"] == "image/x-portable-bitmap")
    // The PBM's bits are the text's '#'s, row by row, two bytes a row.
    let header = Array("P4\n16 8\n".utf8)
    #expect(Array(pbm.body.prefix(header.count)) == header)
    let bits = Array(pbm.body.dropFirst(header.count))
    for (y, row) in text.split(separator: "\n").enumerated() {
      for (x, character) in row.enumerated() {
        #expect(((bits[y * 2 + x / 8] >> (7 - UInt8(x % 8))) & 1 == 1) == (character == "#"), "pixel \(x),\(y)")
      }
    }
    #expect(client.request("GET", "/api/frame", headers: ["Accept": "image/png"])?.status == 406)
    let paused = try ServeTests.json(client.request("POST", "/api/pause", body: "{}"))
    #expect(paused["paused"] == .bool(true))
    #expect(try ServeTests.json(client.request("POST", "/api/resume", body: #"{"zone": "main"}"#))["paused"] == .bool(false))
    #expect(client.request("POST", "/api/pause", body: #"{"zone": "nope"}"#)?.status == 400)
    #expect(try ServeTests.json(client.request("POST", "/api/brightness", body: #"{"brightness": 3}"#))["brightness"] == .number(3))
    #expect(client.request("POST", "/api/brightness", body: #"{"brightness": 16}"#)?.status == 400)
    let effects = try ServeTests.json(client.request("GET", "/api/effects"))
    #expect(effects.arrayValue?.count == 34)
    #expect(try ServeTests.json(client.request("GET", "/api/fonts")).arrayValue?.contains(.string("5x7")) == true)
    _ = sign.stop()
  }

  @Test func badRequestsGetClearAnswers() throws {
    let sign = try ServedSign(["--output", "ascii", "X"])
    let client = sign.client
    #expect(client.request("GET", "/nope")?.status == 404)
    let wrongMethod = client.request("DELETE", "/api/state")
    #expect(wrongMethod?.status == 405 && wrongMethod?.headers["allow"] == "GET")
    // Writes need JSON: a form posted from another site is refused.
    let form = client.request("PATCH", "/api/content", body: "messages=hi", headers: ["Content-Type": "application/x-www-form-urlencoded"], json: false)
    #expect(form?.status == 415)
    #expect(client.request("PATCH", "/api/content", body: "{not json")?.status == 400)
    #expect(client.raw(Array("GARBAGE\r\n\r\n".utf8))?.status == 400)
    #expect(client.raw(Array("GET / HTTP/2.0\r\n\r\n".utf8))?.status == 505)
    let longHeader = "GET /api/state HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 9000) + "\r\n\r\n"
    #expect(client.raw(Array(longHeader.utf8))?.status == 431)
    let bigBody = "PATCH /api/content HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 70000\r\n\r\n"
    #expect(client.raw(Array(bigBody.utf8))?.status == 413)
    let chunked = "PATCH /api/content HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    #expect(client.raw(Array(chunked.utf8))?.status == 501)
    // Still serving.
    #expect(client.request("GET", "/api/state")?.status == 200)
    _ = sign.stop()
  }

  @Test func anyAddressButLoopbackNeedsAToken() throws {
    let refused = try BinaryRunner.run(["serve", "--listen", "0.0.0.0:0", "X"])
    #expect(refused.status == 64 && refused.stderr.contains("give '--token-file <file>'"), "\(refused.stderr)")
    #expect(try BinaryRunner.run(["serve", "--listen", "nowhere", "X"]).status == 64)
    #expect(try BinaryRunner.run(["--listen", "127.0.0.1:1", "X"]).stderr.contains("'--listen' is for 'marquee serve'"))
    let folder = NSTemporaryDirectory() + "marquee-serve-token-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let tokenPath = folder + "/token"
    let sign = try ServedSign(["--token-file", tokenPath, "--output", "ascii", "X"])
    // Made with mode 0600.
    var status = stat()
    #expect(stat(tokenPath, &status) == 0 && status.st_mode & 0o777 == 0o600)
    let token = try String(contentsOfFile: tokenPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(token.count >= 32)
    let client = sign.client
    #expect(client.request("GET", "/api/state")?.status == 401)
    #expect(client.request("GET", "/api/state", headers: ["Authorization": "Bearer wrong"])?.status == 401)
    #expect(client.request("PATCH", "/api/content", body: #"{"messages": ["no"]}"#, headers: ["Authorization": "Bearer " + token + "x"])?.status == 401)
    #expect(client.request("GET", "/api/state", headers: ["Authorization": "Bearer " + token])?.status == 200)
    // The page itself holds no data: it loads, then asks for the token.
    let page = client.request("GET", "/")
    #expect(page?.status == 200 && page?.headers["content-type"] == "text/html; charset=utf-8")
    _ = sign.stop()
  }

  /// Slow clients holding every request place: a normal request still gets one (the
  /// client that has sat longest on half a head is answered 408 to make room), and the
  /// sign keeps its frame rate.
  @Test func slowClientsAndTooManyConnections() throws {
    let sign = try ServedSign(["--output", "ascii", "--fps", "50", "--speed", "50", "--mode", "scroll", "A moving message"])
    let client = sign.client
    var holders: [Int32] = []
    defer { for fd in holders { close(fd) } }
    for _ in 0..<32 {
      let fd = client.connect()
      try #require(fd >= 0)
      // A request head that never ends.
      HTTPTestClient.send(fd, Array("GET /api/state HTTP/1.1\r\nX-Slow: ".utf8))
      holders.append(fd)
    }
    let answered = client.request("GET", "/api/stats")
    #expect(answered?.status == 200, "\(answered?.text ?? "no answer")")
    // One slow client made room: answered 408 if the server had read its half head, else
    // closed (waiting, bounded, for that to reach it).
    var dropped = 0, told = 0
    var buffer = [UInt8](repeating: 0, count: 4096)
    for _ in 0..<100 where dropped == 0 {
      for fd in holders {
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count == 0 { dropped += 1 }
        if count > 0 && String(decoding: buffer[0..<count], as: UTF8.self).hasPrefix("HTTP/1.1 408") { (dropped, told) = (dropped + 1, told + 1) }
      }
      if dropped == 0 { usleep(20_000) }
    }
    #expect(dropped == 1, "\(dropped) slow clients dropped (\(told) told 408)")
    // The frame loop kept going while the server was full: frames keep coming.
    var frames = 0.0
    for _ in 0..<200 where frames <= 40 {
      frames = try ServeTests.json(client.request("GET", "/api/stats"))["frames"]?.numberValue ?? 0
      if frames <= 40 { usleep(50_000) }
    }
    #expect(frames > 40, "\(frames) frames")
    _ = sign.stop()
  }

  /// A client that sends nothing is dropped after the head deadline (10 s) with 408 only if
  /// it started a request; one that sent half a head is answered 408.
  @Test(.timeLimit(.minutes(1))) func aHalfSentHeadIsDroppedAfterTheDeadline() throws {
    let sign = try ServedSign(["--output", "ascii", "X"])
    let fd = sign.client.connect(timeout: 20)
    defer { close(fd) }
    HTTPTestClient.send(fd, Array("GET /api/state HTTP/1.1\r\n".utf8))
    let response = HTTPTestClient.read(fd)
    #expect(response?.status == 408)
    _ = sign.stop()
  }

  @Test func theEventStreamSendsTheStateThenFramesAsTheyChange() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "One"])
    let fd = sign.client.connect()
    defer { close(fd) }
    HTTPTestClient.send(fd, Array("GET /api/events HTTP/1.1\r\nHost: \(sign.client.host)\r\n\r\n".utf8))
    var received = ""
    var buffer = [UInt8](repeating: 0, count: 65536)
    func readUntil(_ text: String) -> Bool {
      for _ in 0..<200 where !received.contains(text) {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count <= 0 { return false }
        received += String(decoding: buffer[0..<count], as: UTF8.self)
      }
      return received.contains(text)
    }
    #expect(readUntil("event: frame"))
    #expect(received.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream"))
    #expect(received.contains("event: state\ndata: {\"width\":32"))
    let frames = received.components(separatedBy: "event: frame").count
    // The sign is still, so every frame event from here on is one the change drew; it may come
    // in the same read as the state, so what is read from here on is kept.
    received = ""
    _ = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["Two"], "immediately": true}"#)
    #expect(readUntil("\"messages\":[\"Two\"]"), "the state after the change")
    #expect(readUntil("event: frame"), "a new frame after the change (had \(frames))")
    _ = sign.stop()
  }

  @Test func sighupReloadsTheConfigAndABadOneIsKeptOut() throws {
    let folder = NSTemporaryDirectory() + "marquee-serve-reload-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let config = folder + "/sign.json"
    try #"{"messages": ["First"], "width": 32}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let sign = try ServedSign(["--config", config, "--output", "ascii"])
    func messages() throws -> JSONValue? { try ServeTests.json(sign.client.request("GET", "/api/state"))["zones"]?.arrayValue?.first?["messages"] }
    #expect(try messages() == .array([.string("First")]))
    try #"{"messages": ["Second"], "width": 32}"#.write(toFile: config, atomically: true, encoding: .utf8)
    sign.child.send(SIGHUP)
    var reloaded = false
    for _ in 0..<200 where !reloaded {
      reloaded = try messages() == .array([.string("Second")])
      usleep(20_000)
    }
    #expect(reloaded)
    try #"{"messages": ["Third"], "speed": "fast"}"#.write(toFile: config, atomically: true, encoding: .utf8)
    sign.child.send(SIGHUP)
    for _ in 0..<200 where !sign.child.errorSoFar.contains("was not reloaded") { usleep(20_000) }
    #expect(sign.child.errorSoFar.contains("Warning: SIGHUP: the config was not reloaded"), "\(sign.child.errorSoFar)")
    #expect(try messages() == .array([.string("Second")]), "the old config kept")
    let result = sign.stop()
    #expect(result.status == 128 + SIGTERM)
  }

  @Test func withoutAConfigSIGHUPStopsTheSign() throws {
    let sign = try ServedSign(["--output", "ascii", "X"])
    sign.child.send(SIGHUP)
    let result = sign.child.wait(timeout: 20)
    #expect(result.status == 128 + SIGHUP)
  }
}

extension JSONValue {
  subscript(index key: String) -> JSONValue? { self[key] }
  var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }
  var numberValue: Double? {
    if case .number(let number) = self { return number }
    return nil
  }
}

import Platform
import HTTP
import MatrixCore
import SimpleJSON
import Testing

@testable import Marquee
@testable import TimelineCore
@testable import MarqueeServe
@testable import SignService

/// The sign's HTTP API in-process, through the responder seam: requests in, responses out,
/// no sockets and no process (the socket tests in CLITests cover limits and slow clients).
@Suite struct SignRoutesTests {
  /// A sign of two zones in a session as `marquee serve` makes it, and its routes behind
  /// every check.
  final class Served {
    /// The two zones: "left" showing L, "right" showing R in the 3x5 font.
    static let zones = #"""
      [{"name": "left", "x": 0, "y": 0, "width": 32, "height": 8, "messages": ["L"]},
       {"name": "right", "x": 32, "y": 0, "width": 32, "height": 8, "messages": ["R"], "font": "3x5"}]
      """#
    let session: SignSession
    let responder: any HTTPResponder
    var lights: SignLights { session.lights }
    var built: (timeline: FedSign, controller: SignController) { (session.timeline, session.controller) }

    init(token: String? = nil, clock: SignClock = .system, valueFilters: [String]? = nil) throws {
      var options = RunOptions()
      options.width = 64
      options.configZones = try JSONParser.parse(Served.zones)
      options.clockStart = 0
      options.fps = 40
      session = try SignSession(options, stop: StopFlag(), clock: clock, reports: .inMemory())
      responder = SignRoutes(session: session, valueFilters: valueFilters).responder(hosts: HostNames(machineName: "signpi"), token: token)
    }

    /// Sends a request; a query in `path` (`?seconds=1`) is split off as a server would.
    func send(_ method: String, _ path: String, _ body: String? = nil, headers: [String: String] = [:]) -> HTTPResponse {
      var all = ["Host": "127.0.0.1:8080"].merging(headers) { _, new in new }
      if body != nil { all["Content-Type"] = "application/json" }
      let parts = path.split(separator: "?", maxSplits: 1)
      var query: [String: String] = [:]
      for pair in parts.dropFirst().first?.split(separator: "&") ?? [] {
        let nameValue = pair.split(separator: "=", maxSplits: 1)
        query[String(nameValue[0])] = nameValue.count > 1 ? String(nameValue[1]) : ""
      }
      let request = HTTPRequest(method: method, path: String(parts[0]), query: query, headers: all, body: Array((body ?? "").utf8))
      return responder.respond(to: request).wait()
    }

    func json(_ response: HTTPResponse) throws -> JSONValue { try JSONParser.parse(String(decoding: response.body, as: UTF8.self)) }
  }

  @Test func theIconsAreListedAndAnUnknownOneIsRefusedWithItsField() throws {
    let sign = try Served()
    let icons = try sign.json(sign.send("GET", "/api/icons"))
    guard case .array(let list) = icons else {
      Issue.record("GET /api/icons is not a list")
      return
    }
    let train = try #require(list.first { $0["name"] == JSONValue.string("train") })
    #expect(train["sizes"] == JSONValue.array([.string("8x8"), .string("16x16")]) && train["frames"] == JSONValue.number(1))
    let refused = sign.send("PATCH", "/api/content", #"{"zones": [{"zone": "left", "messages": ["{icon:trian}"]}]}"#)
    #expect(refused.status == 400)
    #expect(try sign.json(refused)["error"] == .string("zones[0].messages: no icon named 'trian' (did you mean 'train'?); 'marquee icons' lists them"))
    #expect(sign.send("PATCH", "/api/content", #"{"zones": [{"zone": "left", "messages": ["{icon:train}"]}]}"#).status == 200)
  }

  @Test func aWriteIsCheckedWholeAndAppliedAtTheNextFrame() throws {
    let sign = try Served()
    let before = try sign.json(sign.send("GET", "/api/state"))
    let bad = sign.send("PATCH", "/api/content", #"{"zones": [{"zone": "left", "messages": ["new"]}, {"zone": "right", "speed": -1}]}"#)
    #expect(bad.status == 400)
    #expect(try sign.json(bad)["error"] == .string("zones[1].speed: -1 is out of range (0 to 100000)"))
    #expect(try sign.json(sign.send("GET", "/api/state")) == before, "the first zone is not changed either")
    let good = sign.send("PATCH", "/api/content", #"{"zones": [{"zone": "left", "messages": ["new"], "speed": 7}]}"#)
    #expect(good.status == 200)
    guard case .array(let list)? = try sign.json(good)["zones"], list.count == 2 else {
      Issue.record("two zones in the state")
      return
    }
    #expect(list[0]["messages"] == .array([.string("new")]) && list[0]["speed"] == .number(7))
    #expect(list[1]["messages"] == .array([.string("R")]) && list[1]["font"] == .string("3x5"))
    // The update waits for the frame loop, which applies it before drawing.
    var frame = Frame(width: 64, height: 8)
    var workspace = FrameWorkspace()
    sign.built.timeline.render(at: 0, into: &frame, workspace: &workspace)
    #expect(sign.built.controller.sign.zones[0].segments.last?.content.messages == ["new"])
  }

  @Test func typedErrorsBecomeFieldPaths() throws {
    let sign = try Served()
    let cases: [(String, String)] = [
      (#"{"zone": "middle", "messages": ["x"]}"#, "zone: no zone named 'middle' (zones: left, right)"),
      (#"{"zones": [{"zone": "left", "x": 3}]}"#, "zones[0].x: an update cannot rename, move or resize a zone"),
      (#"{"zone": "left", "color": "green"}"#, "color: a zone's colour is set when the sign starts"),
      (#"{"zone": "left", "font": "/etc/passwd"}"#, "font: '/etc/passwd' is not a font this sign offers"),
      (#"{"zone": "left", "speed": "fast"}"#, "speed: expected a number"),
      // As on the command line: a cycle-mode option for a zone that does not cycle.
      (#"{"zone": "left", "dwell": 3}"#, "dwell: applies in cycle mode only: add \"mode\": \"cycle\""),
    ]
    for (body, error) in cases {
      let response = sign.send("PATCH", "/api/content", body)
      #expect(response.status == 400)
      let text = try sign.json(response)["error"]
      #expect(text.map { if case .string(let s) = $0 { s.hasPrefix(error) } else { false } } == true, "\(body): \(String(decoding: response.body, as: UTF8.self))")
    }
  }

  @Test func theChecksComeFirstAndTheRouterAnswersTheRest() throws {
    let sign = try Served(token: "0123456789abcdef0123")
    #expect(sign.send("GET", "/api/state", headers: ["Host": "evil.example"]).status == 421)
    #expect(sign.send("GET", "/api/state").status == 401)
    let auth = ["Authorization": "bearer 0123456789abcdef0123"]
    #expect(sign.send("GET", "/api/state", headers: auth).status == 200)
    #expect(sign.send("DELETE", "/api/state", headers: auth).status == 405)
    #expect(sign.send("GET", "/nope", headers: auth).status == 404)
    #expect(sign.send("GET", "/").status == 200, "the page needs no token")
    var form = auth
    form["Content-Type"] = "text/plain"
    let posted = sign.responder.respond(to: HTTPRequest(
      method: "POST", path: "/api/pause", headers: form.merging(["Host": "localhost"]) { a, _ in a }, body: Array("{}".utf8))).wait()
    #expect(posted.status == 415)
    // Every request is counted, refused ones too.
    let stats = try sign.json(sign.send("GET", "/api/stats", headers: auth))
    #expect(stats["requests"] == .number(8))
  }

  @Test func theEventStreamSendsTheStateThenEachNewFrame() throws {
    let sign = try Served()
    let response = sign.send("GET", "/api/events")
    let events = try #require(response.events)
    let first = String(decoding: events.next(now: 0) ?? [], as: UTF8.self)
    #expect(first.hasPrefix("event: state\ndata: {\"width\":64") && first.contains("event: frame\ndata: {\"width\":64,\"height\":8"))
    #expect(events.next(now: 1) == nil, "nothing new")
    var lit = Frame(width: 64, height: 8)
    lit.pixels[0, 0] = true
    _ = sign.lights.record(lit, changed: true)
    let next = String(decoding: events.next(now: 2) ?? [], as: UTF8.self)
    #expect(next.hasPrefix("event: frame\ndata: ") && next.contains("\"rows\":[\"8000000000000000\""), "\(next)")
  }

  /// One error family: a value someone sent is refused at its field (400), a failure of the
  /// machine is a 500, never a 400 (issue 51).
  @Test func aBadValueIsAFieldsRefusalAndAFailureOfTheMachineA500() throws {
    let sign = try Served()
    let long = String(repeating: "x", count: RunOptions.maximumMessageLength + 1)
    let answer = sign.send("PATCH", "/api/content", #"{"zone": "left", "messages": ["ok", "\#(long)"]}"#)
    #expect(answer.status == 400)
    #expect(try sign.json(answer)["error"] == .string("messages: message 2 is \(long.count) characters long; the limit is \(RunOptions.maximumMessageLength)."))
    let failure = SignRefusal(from: SignFailure("/var/lib/marquee/fonts/broken.bdf: Input/output error"))
    #expect(failure.kind == .failed && SignRoutes.response(failure).status == 500)
  }
}

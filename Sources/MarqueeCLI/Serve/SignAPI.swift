import BitmapFonts
import Marquee
import MatrixCore
import SimpleJSON
import Synchronization

/// The requests `marquee serve` answers: the JSON API, the event stream and the page.
///
/// Every write is checked whole before anything changes: a request that fails changes
/// nothing. Errors are JSON, `{"error": "zones[1].speed: expected a number …"}`.
final class SignAPI: @unchecked Sendable {
  /// A zone's place on the sign.
  struct ZonePlace: Sendable {
    var name: String
    var x: Int, y: Int, width: Int, height: Int
  }

  let feed: Feed
  let frames: FrameBoard
  let zones: [ZonePlace]
  let width: Int, height: Int, fps: Double
  /// The bearer token every `/api/` request must carry, or nil (loopback without one).
  let token: String?
  let stop: StopFlag
  /// Reloads the config file (SIGHUP): nil when it worked, else why not.
  let reload: (@Sendable () -> String?)?
  var reloadsSeen: UInt
  /// Bumped by every change of content, pause or brightness (event streams send the state).
  var stateVersion = 0
  var paused: [String: Bool]
  /// The frame as the server last copied it (the server thread's own storage).
  var scratch: Framebuffer
  var requests = 0

  init(
    feed: Feed, frames: FrameBoard, zones: [ZonePlace], width: Int, height: Int, fps: Double, token: String?, stop: StopFlag,
    reload: (@Sendable () -> String?)?
  ) {
    self.feed = feed
    self.frames = frames
    self.zones = zones
    (self.width, self.height, self.fps) = (width, height, fps)
    self.token = token
    self.stop = stop
    self.reload = reload
    reloadsSeen = HangupSignal.count
    paused = Dictionary(uniqueKeysWithValues: zones.map { ($0.name, false) })
    scratch = Framebuffer(width: width, height: height)
  }

  // MARK: Routing

  static let routes: [String: [String]] = [
    "/": ["GET"], "/api/state": ["GET"], "/api/content": ["PUT", "PATCH"], "/api/pause": ["POST"],
    "/api/resume": ["POST"], "/api/brightness": ["POST"], "/api/frame": ["GET"], "/api/events": ["GET"],
    "/api/effects": ["GET"], "/api/fonts": ["GET"], "/api/stats": ["GET"],
  ]

  /// The response to `request`, or nil when the connection became an event stream.
  func respond(to request: HTTPRequest, on connection: SignServer.Connection, now: Int64) -> HTTPResponse? {
    requests += 1
    guard let methods = SignAPI.routes[request.path] else { return .error(404, "no such path: \(request.path)") }
    guard methods.contains(request.method) else {
      var response = HTTPResponse.error(405, "\(request.path) takes \(methods.joined(separator: ", "))")
      response.headers.append(("Allow", methods.joined(separator: ", ")))
      return response
    }
    if request.path == "/" { return .text(WebPage.html, type: "text/html; charset=utf-8") }
    if let token, !SignAPI.authorized(request.header("authorization"), token: token) {
      var response = HTTPResponse.error(401, "this sign needs its token: send 'Authorization: Bearer <token>'")
      response.headers.append(("WWW-Authenticate", "Bearer"))
      return response
    }
    if request.method != "GET" {
      // Writes only as JSON: a form on another site cannot post to the sign.
      let type = request.header("content-type")?.split(separator: ";").first.map { String($0).trimmingCharacters(in: " \t").lowercased() }
      guard type == "application/json" else {
        return .error(415, "send the body as JSON, with 'Content-Type: application/json'")
      }
    }
    switch request.path {
    case "/api/state": return .json(state())
    case "/api/content": return content(request, replacing: request.method == "PUT")
    case "/api/pause": return pause(request, true)
    case "/api/resume": return pause(request, false)
    case "/api/brightness": return brightness(request)
    case "/api/frame": return frame(request)
    case "/api/events":
      connection.events = true
      connection.queue(Array(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\n"
          .utf8), now: now)
      return nil
    case "/api/effects":
      return .json(.array(EffectCatalog.all.map { .object([("name", .string($0.name)), ("summary", .string($0.summary))]) }))
    case "/api/fonts":
      return .json(.array(FontLocator.names.map { .string($0) }))
    default:
      let late = frames.lateness()
      return .json(.object([
        ("frames", .number(Double(late.frames))), ("lateP50Microseconds", .number(late.p50)),
        ("lateP99Microseconds", .number(late.p99)), ("lateMaxMicroseconds", .number(late.max)),
        ("requests", .number(Double(requests))),
      ]))
    }
  }

  /// Compares the bearer token in constant time.
  static func authorized(_ header: String?, token: String) -> Bool {
    guard let header, header.hasPrefix("Bearer ") else { return false }
    let given = Array(header.dropFirst(7).utf8), wanted = Array(token.utf8)
    var difference = given.count ^ wanted.count
    for index in 0..<wanted.count { difference |= Int(wanted[index] ^ (index < given.count ? given[index] : 0)) }
    return difference == 0
  }

  // MARK: Reading

  /// The sign's state: size, brightness, and each zone's place, content and options.
  func state() -> JSONValue {
    let options = feed.currentOptions
    return .object([
      ("width", .number(Double(width))), ("height", .number(Double(height))), ("fps", .number(fps)),
      ("brightness", .number(Double(frames.level))), ("paused", .bool(paused.values.allSatisfy { $0 })),
      ("zones", .array(zones.map { zone in
        let zoneOptions = options[zone.name] ?? RunOptions()
        return .object([
          ("name", .string(zone.name)), ("x", .number(Double(zone.x))), ("y", .number(Double(zone.y))),
          ("width", .number(Double(zone.width))), ("height", .number(Double(zone.height))),
          ("paused", .bool(paused[zone.name] ?? false)),
        ] + SignAPI.describe(zoneOptions))
      })),
    ])
  }

  /// A zone's content and options, under the keys feed lines and layout files use.
  static func describe(_ options: RunOptions) -> [(key: String, value: JSONValue)] {
    [
      ("messages", .array(options.messages.map { .string($0) })), ("mode", .string(options.mode.rawValue)),
      ("speed", .number(options.marquee.speed)), ("direction", .string(options.marquee.direction.rawValue)),
      ("align", .string(options.marquee.alignment.rawValue)), ("in", .string(options.entry)),
      ("out", options.exit.map { .string($0) } ?? .null), ("dwell", .number(options.dwell)),
      ("duration", .number(options.duration)), ("font", .string(options.fonts.joined(separator: ","))),
      ("color", .string(options.ledColor)),
    ]
  }

  func frame(_ request: HTTPRequest) -> HTTPResponse {
    _ = frames.read(into: &scratch)
    let accept = request.header("accept") ?? "*/*"
    if accept.contains("image/x-portable-bitmap") {
      // PBM (P4): a text header, then rows of bits, 1 = black = a lit LED here.
      var body = Array("P4\n\(width) \(height)\n".utf8)
      for y in 0..<height {
        var byte: UInt8 = 0
        for x in 0..<width {
          if scratch[x, y] { byte |= 0x80 >> UInt8(x % 8) }
          if x % 8 == 7 || x == width - 1 {
            body.append(byte)
            byte = 0
          }
        }
      }
      return HTTPResponse(status: 200, headers: [("Content-Type", "image/x-portable-bitmap")], body: body)
    }
    guard accept.contains("text/plain") || accept.contains("*/*") || accept.contains("text/*") else {
      return .error(406, "the frame is text/plain ('#' lit, '.' dark) or image/x-portable-bitmap")
    }
    return .text(scratch.text + "\n")
  }

  // MARK: Writing

  /// The JSON object of a write's body (an empty body is `{}`).
  func body(_ request: HTTPRequest) throws(HTTPRequestError) -> JSONFields {
    let text = String(decoding: request.body, as: UTF8.self)
    do {
      return try JSONFields(text.allSatisfy(\.isWhitespace) ? .object([]) : JSONParser.parse(text))
    } catch {
      throw HTTPRequestError(status: 400, message: "\(error)")
    }
  }

  /// `PUT` (replace) or `PATCH` (merge) the content of zones: one feed document, or
  /// `{"zones": [document, …]}`. All are checked before any is applied.
  func content(_ request: HTTPRequest, replacing: Bool) -> HTTPResponse {
    answering {
      let fields = try body(request)
      let documents: [JSONFields]
      if fields.value["zones"] != nil {
        try fields.rejectUnknownKeys(["zones"])
        documents = try fields.objects("zones") ?? []
      } else {
        documents = [fields]
      }
      let updates = try documents.map { try feed.prepare($0, replacing: replacing) }
      feed.commit(updates)
      for update in updates { if let pause = update.pause { paused[update.zone] = pause } }
      stateVersion += 1
      return .json(state())
    }
  }

  /// The response `body` makes, or the error it throws as JSON with its field path.
  func answering(_ body: () throws -> HTTPResponse) -> HTTPResponse {
    do {
      return try body()
    } catch let error as HTTPRequestError {
      return .error(error.status, error.message)
    } catch let error as JSONFieldError {
      return .error(400, "\(error.field): \(error.reason)")
    } catch {
      return .error(400, "\(error)")
    }
  }

  /// `POST /api/pause` and `/api/resume`: every zone, or `{"zone": "name"}`.
  func pause(_ request: HTTPRequest, _ pausing: Bool) -> HTTPResponse {
    answering {
      let fields = try body(request)
      try fields.rejectUnknownKeys(["zone"])
      let names = try fields.string("zone").map { [$0] } ?? zones.map(\.name)
      for name in names where paused[name] == nil {
        throw JSONFieldError(field: "zone", reason: "no zone named '\(name)' (zones: \(zones.map(\.name).joined(separator: ", ")))")
      }
      var documents: [JSONFields] = []
      for name in names {
        documents.append(try JSONFields(.object([("zone", .string(name)), ("pause", .bool(pausing))])))
      }
      feed.commit(try documents.map { try feed.prepare($0) })
      for name in names { paused[name] = pausing }
      stateVersion += 1
      return .json(state())
    }
  }

  /// `POST /api/brightness {"brightness": 0-15}`: the full brightness, in 16 steps of the
  /// board's own.
  func brightness(_ request: HTTPRequest) -> HTTPResponse {
    answering {
      let fields = try body(request)
      try fields.rejectUnknownKeys(["brightness"])
      frames.level = try fields.requiredInteger("brightness", in: 0...15)
      stateVersion += 1
      stop.wake()
      return .json(state())
    }
  }

  // MARK: Events and reloads

  /// Called every turn of the server loop: reloads the config after SIGHUP.
  func tick(now: Int64) {
    let hangups = HangupSignal.count
    guard hangups != reloadsSeen, let reload else { return }
    reloadsSeen = hangups
    if let problem = reload() {
      printError("Warning: SIGHUP: the config was not reloaded: \(problem); the sign keeps the old one")
    } else {
      printError("SIGHUP: the config was reloaded")
      stateVersion += 1
    }
  }

  /// Queues what an event stream has not been sent yet: the state after a change, and the
  /// newest frame; nothing while the last events are still going out (a slow reader skips
  /// frames instead of piling them up).
  func push(to connection: SignServer.Connection, now: Int64) {
    guard !connection.hasOutput else { return }
    var queued = false
    if connection.sentStateVersion != stateVersion {
      connection.sentStateVersion = stateVersion
      connection.queue(Array("event: state\ndata: \(state().text)\n\n".utf8), now: now)
      queued = true
    }
    let (generation, brightness) = frames.read(into: &scratch)
    if generation != connection.sentGeneration {
      connection.sentGeneration = generation
      connection.queue(Array("event: frame\ndata: \(SignAPI.frameEvent(scratch, brightness: brightness))\n\n".utf8), now: now)
    } else if !queued && now - connection.lastActivity > 15_000_000_000 {
      // A comment now and then keeps proxies and browsers from timing the stream out.
      connection.queue(Array(": keep-alive\n\n".utf8), now: now)
    }
  }

  /// A frame as an event: size, brightness, and each row's bits in hex (MSB leftmost).
  static func frameEvent(_ pixels: Framebuffer, brightness: Double) -> String {
    var rows: [String] = []
    rows.reserveCapacity(pixels.height)
    let digits = Array("0123456789abcdef")
    for y in 0..<pixels.height {
      var row = ""
      for byteStart in stride(from: 0, to: pixels.width, by: 8) {
        var byte = 0
        for bit in 0..<8 where byteStart + bit < pixels.width && pixels[byteStart + bit, y] { byte |= 0x80 >> bit }
        row.append(digits[byte >> 4])
        row.append(digits[byte & 15])
      }
      rows.append("\"" + row + "\"")
    }
    let level = (brightness * 1000).rounded() / 1000
    return "{\"width\":\(pixels.width),\"height\":\(pixels.height),\"brightness\":\(level),\"rows\":[\(rows.joined(separator: ","))]}"
  }
}

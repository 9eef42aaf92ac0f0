import BitmapFonts
import Dispatch
import HTTP
import Marquee
import MatrixCore
import SignService
import SimpleJSON
import Synchronization

/// The requests `marquee serve` answers, the JSON API, the event stream and the page, as
/// an adapter over a ``SignSession``: each write becomes a ``SignCommand`` performed on the
/// session's queue (the server thread never waits on a file), each answer or refusal a
/// status and a JSON body. Errors are JSON, `{"error": "zones[1].speed: expected a number …"}`.
public final class SignRoutes: Sendable {
  public let session: SignSession
  /// Requests and MQTT's counts, for `/api/stats`.
  public let stats: ServeStats
  /// The topic filters placeholders may read in a request's content, when requests come
  /// without a token and the sign is on MQTT; nil: any topic.
  let valueFilters: [String]?

  /// The version `/api/status` names.
  let version: String
  /// When the routes were made (the session's monotonic clock): the uptime's start.
  let started: Double
  /// The panel finder, on a sign with a HUB75 panel.
  let finder: PanelFinderDesk?

  public init(
    session: SignSession, stats: ServeStats = ServeStats(), valueFilters: [String]? = nil, version: String = "unknown", finder: PanelFinderDesk? = nil
  ) {
    self.session = session
    self.finder = finder
    self.stats = stats
    self.valueFilters = valueFilters
    self.version = version
    started = session.clock.monotonic()
  }

  /// Who sends the API's writes: a person (their changes are kept); without a token on a
  /// sign on MQTT, placeholders may read only the allowed topics.
  var source: CommandSource { CommandSource(keeps: true, valueFilters: valueFilters) }

  /// The API behind the checks every request passes first (each counted): the host it
  /// names, then the token (for `/api/`), then JSON for writes, then the routes.
  public func responder(hosts: HostNames, token: String?) -> any HTTPResponder {
    let checked = JSONBodyCheck(routes(asksToken: token != nil), binary: [("/api/icons/", SignRoutes.pictureTypes)])
    return Counted(stats: stats, next: HostCheck(hosts, token.map { BearerTokenCheck(token: $0, checked) } ?? checked))
  }

  /// Counts every request for `/api/stats`.
  struct Counted: HTTPResponder {
    let stats: ServeStats
    let next: any HTTPResponder

    func respond(to request: HTTPRequest) -> HTTPReply {
      stats.counts.withLock { $0.requests += 1 }
      return next.respond(to: request)
    }
  }

  /// The body types an icon may be sent as.
  static let pictureTypes: Set<String> = ["image/png", "image/gif", "image/x-portable-bitmap", "image/x-xbitmap"]

  /// The paths and methods, each with the command or view it stands for. Icons are added
  /// and sources set only on a sign that asks for its token (`asksToken`).
  func routes(asksToken: Bool = false) -> HTTPRouter {
    var router = HTTPRouter()
    router.add("GET", "/") { request in .now(WebPage.response(WebPage.html, gzipped: WebPage.htmlGzip, type: "text/html; charset=utf-8", for: request)) }
    router.add("GET", "/page.css") { request in
      .now(WebPage.response(WebPage.css, gzipped: WebPage.cssGzip, type: "text/css; charset=utf-8", version: request.query["v"], for: request))
    }
    router.add("GET", "/page.js") { request in
      .now(WebPage.response(WebPage.script, gzipped: WebPage.scriptGzip, type: "text/javascript; charset=utf-8", version: request.query["v"], for: request))
    }
    router.add("GET", "/manifest.webmanifest") { _ in .now(WebPage.response(WebPage.manifest, type: "application/manifest+json")) }
    router.add("GET", "/icon.svg") { _ in .now(WebPage.response(WebPage.icon, type: "image/svg+xml")) }
    router.add("GET", "/api/state") { [self] _ in .now(.json(session.state())) }
    router.add("PUT", "/api/content") { [self] request in perform(request) { .content($0.value, replacing: true) } }
    router.add("PATCH", "/api/content") { [self] request in perform(request) { .content($0.value, replacing: false) } }
    router.add("POST", "/api/pause") { [self] request in perform(request) { try .pause($0.value, pausing: true) } }
    router.add("POST", "/api/resume") { [self] request in perform(request) { try .pause($0.value, pausing: false) } }
    router.add("POST", "/api/brightness") { [self] request in perform(request) { try .brightness($0.value) } }
    router.add("POST", "/api/power") { [self] request in perform(request) { try .power($0.value) } }
    router.add("POST", "/api/notify") { [self] request in perform(request) { .notify($0.value) } }
    router.add("GET", "/api/notify") { [self] _ in .now(.json(.object([("notifications", session.notifications())]))) }
    router.add("DELETE", "/api/notify") { [self] request in perform(request, body: false) { _ in .dismiss(id: nil) } }
    router.add("DELETE", "/api/notify/{id}") { [self] request in
      perform(request, body: false) { _ in
        let text = request.parameters["id"] ?? ""
        guard let id = Int(text), id > 0 else { throw SignRefusal(.notFound, "no notification '\(text)'") }
        return .dismiss(id: id)
      }
    }
    router.add("POST", "/api/program") { [self] request in perform(request) { try .program($0.value) } }
    router.add("GET", "/api/frame") { [self] request in .now(frame(request)) }
    router.add("POST", "/api/preview") { [self] request in preview(request) }
    router.add("GET", "/api/events") { [self] _ in .now(.events(SignEvents(session: session))) }
    router.add("GET", "/api/effects") { _ in
      .now(.json(.array(EffectCatalog.all.map { .object([("name", .string($0.name)), ("summary", .string($0.summary))]) })))
    }
    // Listing the font folders is file work: off the server thread too.
    router.add("GET", "/api/fonts") { [self] _ in later { .json(.array(FontLocator.names.map { .string($0) })) } }
    // The list is names and sizes; each picture is fetched on its own, so the list stays
    // small whatever the folder holds.
    router.add("GET", "/api/icons") { [self] _ in
      let icons = session.icons
      return .now(.json(.array(icons.names.compactMap { name in
        icons[name].map { icon in
          .object([
            ("name", .string(name)), ("sizes", .array(icon.pictures.map { .string("\($0.width)x\($0.height)") })),
            ("frames", .number(Double(icon.animation?.frames.count ?? 1))),
          ])
        }
      })))
    }
    router.add("GET", "/api/icons/{name}") { [self] request in
      let name = request.parameters["name"] ?? ""
      guard let icon = session.icons[name] else { return .now(.error(404, "no icon named '\(name)'")) }
      // The smallest picture as the sign draws it, for a picker to show.
      let smallest = icon.pictures.min { $0.width * $0.height < $1.width * $1.height } ?? icon.pictures[0]
      return .now(.json(.object([
        ("name", .string(name)), ("width", .number(Double(smallest.width))), ("height", .number(Double(smallest.height))),
        ("rows", .array(SignEvents.hexRows(smallest).map { .string($0) })),
      ])))
    }
    router.add("PUT", "/api/icons/{name}") { [self] request in
      guard asksToken else {
        return .now(.error(403, "icons are added only on a sign that asks for its token (--token-file): anyone who can reach this one could fill its disk"))
      }
      let name = request.parameters["name"] ?? "", bytes = request.body
      return .later { [session] complete in
        session.onQueue {
          do throws(SignRefusal) {
            try session.addIcon(name: name, bytes: bytes)
            complete(.json(.object([("name", .string(name)), ("added", .bool(true))])))
          } catch {
            complete(SignRoutes.response(error))
          }
        }
      }
    }
    router.add("GET", "/api/stats") { [self] _ in .now(.json(.object(session.frameStats() + stats.members()))) }
    router.add("GET", "/api/status") { [self] _ in .now(.json(status(iconUploads: asksToken && session.hasIconFolder))) }
    router.add("GET", "/api/schedule") { [self] _ in .now(schedule()) }
    router.add("GET", "/api/timetable") { [self] request in
      var days = 7
      if let text = request.query["days"] {
        guard let number = Int(text), (1...31).contains(number) else {
          return .now(SignRoutes.response(SignRefusal(field: "days", "expected a whole number from 1 to 31, got '\(text)'")))
        }
        days = number
      }
      // Worked out off the server's thread (a busy schedule takes a while), once per version.
      return .later { [session, days] complete in
        session.onReadQueue {
          do throws(SignRefusal) {
            guard let table = try session.timetable(days: days) else {
              complete(.error(404, "this sign has no programs, brightness schedule or off periods (see Docs/programs.md)"))
              return
            }
            complete(.json(table))
          } catch {
            complete(SignRoutes.response(error))
          }
        }
      }
    }
    router.add("PUT", "/api/schedule") { [self] request in
      perform(request) { .schedule($0.value) }
    }
    router.add("GET", "/api/sources") { [self] _ in .now(.json(.object([("sources", .array(session.sourceDocuments))]))) }
    router.add("PUT", "/api/sources") { [self] request in
      // A source is a request the sign makes on its owner's behalf: only a token sets them.
      guard asksToken else {
        return .now(.error(403, "sources are set over the API only on a sign that asks for its token (--token-file): a source is a request the sign makes for whoever sets it"))
      }
      return perform(request) { fields in
        try fields.rejectUnknownKeys(["sources"])
        guard let list = try fields.objects("sources") else { throw fields.missing("sources") }
        return .sources(list.map(\.value))
      }
    }
    router.add("GET", "/api/programs") { [self] _ in .now(.json(.object([("programs", .array(session.programSources))]))) }
    router.add("PUT", "/api/programs") { [self] request in
      perform(request) { fields in
        try fields.rejectUnknownKeys(["programs"])
        guard let list = try fields.objects("programs") else { throw fields.missing("programs") }
        return .programs(list.map(\.value))
      }
    }
    router.add("GET", "/api/programs/{name}") { [self] request in
      let name = request.parameters["name"] ?? ""
      guard let program = session.program(named: name) else { return .now(.error(404, "no program named '\(name)'")) }
      return .now(.json(program))
    }
    router.add("PUT", "/api/programs/{name}") { [self] request in
      perform(request) { .putProgram(name: request.parameters["name"] ?? "", $0.value) }
    }
    router.add("DELETE", "/api/programs/{name}") { [self] request in
      perform(request, body: false) { _ in .deleteProgram(request.parameters["name"] ?? "") }
    }
    addFinderRoutes(to: &router)
    return router
  }

  /// `POST /api/preview?seconds=N` (or `seconds=whole`: one whole pass of the draft): the
  /// body (a content document, as `PATCH /api/content` takes it) drawn as an animated GIF
  /// off the server thread and the session's queue, so
  /// the session's commands never wait for one. The session draws one at a time: a request
  /// while one is drawn is answered 503 at once, never queued behind it.
  func preview(_ request: HTTPRequest) -> HTTPReply {
    let document: JSONValue
    var seconds: Double? = SignSession.PreviewLimits.defaultSeconds
    var replacing = false
    do {
      document = try SignRoutes.body(request).value
      if let text = request.query["replacing"] {
        guard ["true", "false"].contains(text) else { throw SignRefusal(field: "replacing", "expected true or false, got '\(text.prefix(40))'") }
        replacing = text == "true"
      }
      if let text = request.query["seconds"] {
        if text == "whole" {
          seconds = nil
        } else {
          guard let value = Double(text), value.isFinite else {
            throw SignRefusal(field: "seconds", "expected a number or 'whole', got '\(text)'")
          }
          seconds = value
        }
      }
    } catch {
      return .now(SignRoutes.response(SignRefusal(from: error)))
    }
    let (source, length, replaces) = (source, seconds, replacing)
    return .later { [session] complete in
      DispatchQueue.global(qos: .utility).async {
        do {
          let gif = try session.preview(document, seconds: length, replacing: replaces, from: source)
          complete(HTTPResponse(status: 200, headers: [("Content-Type", "image/gif")], body: gif))
        } catch {
          complete(SignRoutes.response(SignRefusal(from: error)))
        }
      }
    }
  }

  /// File work, answered from the session's queue.
  func later(_ body: @escaping @Sendable () -> HTTPResponse) -> HTTPReply {
    .later { [session] complete in session.onQueue { complete(body()) } }
  }

  /// The command a write's body stands for, performed on the session's queue, and its
  /// answer or refusal as a response. The body is read (and refused) first, on the
  /// server thread: a request that is not JSON never waits in the queue.
  func perform(
    _ request: HTTPRequest, body: Bool = true,
    _ command: @escaping @Sendable (JSONFields) throws -> SignCommand
  ) -> HTTPReply {
    let made: SignCommand
    do {
      made = try command(body ? SignRoutes.body(request) : JSONFields(.object([])))
    } catch {
      return .now(SignRoutes.response(SignRefusal(from: error)))
    }
    let source = source
    return .later { [self] complete in
      session.submit(made, from: source) { [self] result in
        switch result {
        case .success(let answer): complete(response(answer))
        case .failure(let refusal): complete(SignRoutes.response(refusal))
        }
      }
    }
  }

  /// The JSON object of a write's body (an empty body is `{}`); ``JSONBodyCheck`` has made
  /// sure it is UTF-8.
  static func body(_ request: HTTPRequest) throws -> JSONFields {
    let text = String(decoding: request.body, as: UTF8.self)
    do {
      return try JSONFields(text.allSatisfy(\.isWhitespace) ? .object([]) : JSONParser.parse(text))
    } catch let error as JSONFieldError {
      throw error
    } catch {
      throw SignRefusal("\(error)")
    }
  }

  /// `{"zone": "name"}` or `{}` (every zone).
  /// A refusal as the status its kind stands for and `{"error": "field: reason"}`.
  public static func response(_ refusal: SignRefusal) -> HTTPResponse {
    let status =
      switch refusal.kind {
      case .invalid: 400
      case .notFound, .unsupported: 404
      case .tooLarge: 413
      case .busy: 503
      case .notSaved, .failed: 500
      }
    return .error(status, refusal.description)
  }

  /// An answer as the view it changed.
  func response(_ answer: SignAnswer) -> HTTPResponse {
    switch answer {
    case .changed(let kept, let until):
      let state = session.state()
      // Whether the change is in the state file (a restart or a power cut shows it again),
      // and until when it holds.
      guard let kept, case .object(let members) = state else { return .json(state) }
      return .json(.object(members + [("kept", .bool(kept)), ("keptUntil", until.map { .number($0.rounded()) } ?? .null)]))
    case .notified(let id): return .json(.object([("id", .number(Double(id))), ("notifications", session.notifications())]))
    case .dismissed: return .json(.object([("notifications", session.notifications())]))
    case .scheduled: return schedule()
    case .programs(let list): return .json(.object([("programs", .array(list))]))
    case .sources(let list): return .json(.object([("sources", .array(list))]))
    case .reloaded: return .json(session.state())
    }
  }

  /// `GET /api/status`: the version, how long the sign has run, the session's status, the
  /// MQTT connection (null without `--mqtt`), and whether icons may be added from a phone.
  func status(iconUploads: Bool = false) -> JSONValue {
    let counts = stats.counts.withLock { $0 }
    let mqtt: JSONValue = counts.broker.map { broker in
      .object([("broker", .string(broker)), ("connected", .bool(counts.connected)), ("lastError", counts.lastError.map { .string($0) } ?? .null)])
    } ?? .null
    let uptime = (session.clock.monotonic() - started).rounded()
    return .object(
      [("version", .string(version)), ("uptimeSeconds", .number(uptime))] + session.status()
        + [("mqtt", mqtt), ("iconUploads", .bool(iconUploads))])
  }

  /// `GET /api/schedule`, or 404 for a sign without one.
  func schedule() -> HTTPResponse {
    guard let view = session.scheduleView() else {
      return .error(404, "this sign has no programs, brightness schedule or off periods (see Docs/programs.md)")
    }
    return .json(view)
  }

  /// `GET /api/frame`: what the LEDs show (dark while the sign is off); with
  /// `?show=composed`, the frame the sign composed, lit or not. Text (`#` lit, `.` dark) or
  /// PBM (`Accept: image/x-portable-bitmap`).
  func frame(_ request: HTTPRequest) -> HTTPResponse {
    var pixels = Framebuffer(width: session.width, height: session.height)
    let composed = request.query["show"] == "composed"
    if let show = request.query["show"], !composed, show != "leds" {
      return .error(400, "show: expected 'leds' (what the LEDs show, the default) or 'composed' (the frame the sign composed), got '\(show.prefix(40))'")
    }
    let (_, _, off) = session.frame(into: &pixels, composed: composed)
    let headers = [("X-Sign-On", off ? "false" : "true")]
    let accept = request.header("accept") ?? "*/*"
    if accept.contains("image/x-portable-bitmap") {
      return HTTPResponse(status: 200, headers: [("Content-Type", "image/x-portable-bitmap")] + headers, body: pixels.pbm)
    }
    guard accept.contains("text/plain") || accept.contains("*/*") || accept.contains("text/*") else {
      return .error(406, "the frame is text/plain ('#' lit, '.' dark) or image/x-portable-bitmap")
    }
    var response = HTTPResponse.text(pixels.text + "\n")
    response.headers += headers
    return response
  }
}

/// What the server and the MQTT bridge count, for `/api/stats`.
public final class ServeStats: Sendable {
  /// Requests answered (refused ones too), and what the MQTT bridge took, refused, replaced
  /// with a newer command, dropped, skipped as oversized, and left to the sign's own topic
  /// over a group's (or a group's stale notice), and its last error.
  public struct Counts: Sendable {
    public var requests = 0
    public var taken = 0, refused = 0, published = 0, replaced = 0, dropped = 0, oversized = 0, overridden = 0
    public var lastError: String?
    public var lastRefusal: String?
    /// The broker (its address without the password), and whether it is connected now.
    public var broker: String?
    public var connected = false
    /// When the current connection to the broker began (wall-clock seconds).
    public var connectedSince: Double?
    /// The connections made so far: each one needs the state published again.
    public var connections = 0
  }

  public let counts = Mutex(Counts())

  public init() {}

  func members() -> [(key: String, value: JSONValue)] {
    let counts = counts.withLock { $0 }
    return [
      ("requests", .number(Double(counts.requests))),
      ("mqtt", .object([
        ("taken", .number(Double(counts.taken))), ("refused", .number(Double(counts.refused))),
        ("replaced", .number(Double(counts.replaced))), ("dropped", .number(Double(counts.dropped))),
        ("oversized", .number(Double(counts.oversized))), ("overridden", .number(Double(counts.overridden))),
        ("published", .number(Double(counts.published))),
        ("lastError", counts.lastError.map { .string($0) } ?? .null), ("lastRefusal", counts.lastRefusal.map { .string($0) } ?? .null),
      ])),
    ]
  }
}

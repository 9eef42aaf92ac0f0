import Platform
import BitmapFonts
import Dispatch
import HTTP
import Marquee
import MatrixCore
import SimpleJSON
import Synchronization
import SignService

/// The requests `marquee serve` answers: the JSON API, the event stream and the page.
///
/// Reads are answered on the server thread from what the frame loop and the feed share
/// under their locks. Writes are answered from a queue of their own, one at a time in the
/// order they came, since they may read font files: the server thread never waits on a
/// file. Every write is checked whole before anything changes: a request that fails changes
/// nothing. Errors are JSON, `{"error": "zones[1].speed: expected a number …"}`.
final class SignAPI: Sendable {
  /// A zone's place on the sign.
  struct ZonePlace: Sendable {
    var name: String
    var x: Int, y: Int, width: Int, height: Int
  }

  /// What the API itself changes and counts.
  struct Counters {
    var paused: [String: Bool]
    /// Bumped by every change of content, pause or brightness (event streams send the state).
    var stateVersion = 0
    var requests = 0
    var reloadsSeen: UInt
    /// What a person changed, as the state file keeps it.
    var saved = SignState()
  }

  /// What the MQTT bridge took, refused, replaced with a newer command, dropped and
  /// skipped as oversized, and its last error: `/api/stats` shows them.
  struct MQTTCounts: Sendable {
    var taken = 0, refused = 0, published = 0, replaced = 0, dropped = 0, oversized = 0
    var lastError: String?
    var lastRefusal: String?
  }

  let mqttCounts = Mutex(MQTTCounts())
  /// The topic filters placeholders may read in a request's content, when requests come
  /// without a token and the sign is on MQTT; nil: any topic (a token holder, or no broker).
  let valueFilters: [String]?
  /// The brightness step the sign started with (what a reload goes back to).
  let startLevel: Int
  let feed: Feed
  let frames: FrameTap
  let zones: [ZonePlace]
  let width: Int, height: Int, fps: Double
  let stop: StopFlag
  /// Reloads the config file (SIGHUP): nil when it worked, else why not.
  let reload: (@Sendable () -> String?)?
  let counters: Mutex<Counters>
  let writes = DispatchQueue(label: "marquee.serve.writes")
  /// The state file (`--state`), if any.
  let statePath: String?
  /// What plays the schedule, if the sign has one.
  let pump: SchedulePump?
  /// The sign, for notifications.
  let controller: SignController?

  init(
    feed: Feed, frames: FrameTap, zones: [ZonePlace], width: Int, height: Int, fps: Double, stop: StopFlag,
    reload: (@Sendable () -> String?)?, statePath: String? = nil, pump: SchedulePump? = nil, controller: SignController? = nil,
    valueFilters: [String]? = nil
  ) {
    self.valueFilters = valueFilters
    startLevel = frames.level
    self.controller = controller
    self.statePath = statePath
    self.pump = pump
    self.feed = feed
    self.frames = frames
    self.zones = zones
    (self.width, self.height, self.fps) = (width, height, fps)
    self.stop = stop
    self.reload = reload
    counters = Mutex(Counters(paused: Dictionary(uniqueKeysWithValues: zones.map { ($0.name, false) }), reloadsSeen: HangupSignal.count))
  }

  /// The API behind the checks every request passes first (each counted): the host it
  /// names, then the token (for `/api/`), then JSON for writes, then the routes.
  func responder(hosts: HostNames, token: String?) -> any HTTPResponder {
    let checked = JSONBodyCheck(routes())
    return Counted(api: self, next: HostCheck(hosts, token.map { BearerTokenCheck(token: $0, checked) } ?? checked))
  }

  /// Counts every request for `/api/stats`.
  struct Counted: HTTPResponder {
    let api: SignAPI
    let next: any HTTPResponder

    func respond(to request: HTTPRequest) -> HTTPReply {
      api.counters.withLock { $0.requests += 1 }
      return next.respond(to: request)
    }
  }

  // MARK: Routing

  /// The paths and methods, each with its handler.
  func routes() -> HTTPRouter {
    var router = HTTPRouter()
    router.add("GET", "/") { _ in .now(.text(WebPage.html, type: "text/html; charset=utf-8")) }
    router.add("GET", "/api/state") { [self] _ in .now(.json(state())) }
    router.add("PUT", "/api/content") { [self] request in write { [self] in content(request, replacing: true) } }
    router.add("PATCH", "/api/content") { [self] request in write { [self] in content(request, replacing: false) } }
    router.add("POST", "/api/pause") { [self] request in write { [self] in pause(request, true) } }
    router.add("POST", "/api/resume") { [self] request in write { [self] in pause(request, false) } }
    router.add("POST", "/api/brightness") { [self] request in write { [self] in brightness(request) } }
    router.add("POST", "/api/power") { [self] request in write { [self] in power(request) } }
    router.add("POST", "/api/notify") { [self] request in write { [self] in notify(request) } }
    router.add("GET", "/api/notify") { [self] _ in .now(.json(.object([("notifications", notifications())]))) }
    router.add("DELETE", "/api/notify") { [self] request in write { [self] in dismiss(request) } }
    router.add("DELETE", under: "/api/notify/") { [self] request in write { [self] in dismiss(request) } }
    router.add("POST", "/api/program") { [self] request in write { [self] in chooseProgram(request) } }
    router.add("GET", "/api/frame") { [self] request in .now(frame(request)) }
    router.add("GET", "/api/events") { [self] _ in .now(.events(SignEvents(api: self))) }
    router.add("GET", "/api/effects") { _ in
      .now(.json(.array(EffectCatalog.all.map { .object([("name", .string($0.name)), ("summary", .string($0.summary))]) })))
    }
    // Listing the font folders is file work: off the server thread too.
    router.add("GET", "/api/fonts") { [self] _ in write { .json(.array(FontLocator.names.map { .string($0) })) } }
    router.add("GET", "/api/icons") { [self] _ in
      let icons = feed.fonts.icons
      return .now(.json(.array(icons.names.map { name in
        let icon = icons[name]!
        return .object([
          ("name", .string(name)), ("sizes", .array(icon.pictures.map { .string("\($0.width)x\($0.height)") })),
          ("frames", .number(Double(icon.animation?.frames.count ?? 1))),
        ])
      })))
    }
    router.add("GET", "/api/stats") { [self] _ in .now(stats()) }
    router.add("GET", "/api/schedule") { [self] _ in .now(schedule()) }
    router.add("PUT", "/api/schedule") { [self] request in write { [self] in putSchedule(request) } }
    router.add("GET", "/api/programs") { [self] _ in .now(.json(.object([("programs", .array(programSources()))]))) }
    router.add("PUT", "/api/programs") { [self] request in write { [self] in putPrograms(request) } }
    router.add("GET", under: "/api/programs/") { [self] request in .now(program(named: programName(request))) }
    router.add("PUT", under: "/api/programs/") { [self] request in write { [self] in putProgram(request) } }
    router.add("DELETE", under: "/api/programs/") { [self] request in write { [self] in deleteProgram(request) } }
    return router
  }

  /// A write (or other file work), answered from the writes queue.
  func write(_ body: @escaping @Sendable () -> HTTPResponse) -> HTTPReply {
    .later { [writes] complete in writes.async { complete(body()) } }
  }

  // MARK: Reading

  /// The sign's state: size, brightness, and each zone's place, content and options, and
  /// the text its messages show now (placeholders filled in).
  func state() -> JSONValue {
    let options = feed.currentOptions
    let paused = counters.withLock { $0.paused }
    let stale = feed.staleZones
    let now = LocalTime.now()
    func showing(_ messages: [String]) -> JSONValue {
      .array(messages.map { .string(TextTemplate(feed.values.fill($0)).expand(at: now)) })
    }
    return .object([
      ("width", .number(Double(width))), ("height", .number(Double(height))), ("fps", .number(fps)),
      ("brightness", .number(Double(frames.level))), ("paused", .bool(paused.values.allSatisfy { $0 })),
      ("on", .bool(!frames.off)), ("program", pump?.current?.program.map { .string($0) } ?? .null),
      ("zones", .array(zones.map { zone in
        let zoneOptions = options[zone.name] ?? RunOptions()
        return .object([
          ("name", .string(zone.name)), ("x", .number(Double(zone.x))), ("y", .number(Double(zone.y))),
          ("width", .number(Double(zone.width))), ("height", .number(Double(zone.height))),
          ("paused", .bool(paused[zone.name] ?? false)), ("stale", .bool(stale.contains(zone.name))),
          ("showing", showing(zoneOptions.messages)),
        ] + SignAPI.describe(zoneOptions))
      })),
    ])
  }

  /// A zone's content and every option that applies to it, under the keys feed lines,
  /// layout files and `PATCH /api/content` use: made from the options' declarations, so
  /// whatever the API accepts for the zone it shows.
  static func describe(_ options: RunOptions) -> [(key: String, value: JSONValue)] {
    // The cycle-mode options only for a zone that cycles: elsewhere a write refuses them.
    let shown = Option.zoneOptions.filter { $0.needs != .cycleMode || options.mode.takesTurns }
    return [("messages", .array(options.messages.map { .string($0) }))] + shown.map { ($0.key, $0.encodeJSON(options)) }
  }

  // MARK: Programs

  /// The programs as written, in order.
  func programSources() -> [JSONValue] { pump?.schedule.programs.map(\.source) ?? [] }

  /// The name in `/api/programs/NAME`.
  func programName(_ request: HTTPRequest) -> String { String(request.path.dropFirst("/api/programs/".count)) }

  func program(named name: String) -> HTTPResponse {
    guard let program = pump?.schedule.programs.first(where: { $0.name == name }) else {
      return .error(404, "no program named '\(name)'")
    }
    return .json(program.source)
  }

  /// `PUT /api/programs {"programs": [...]}`: the whole list, checked whole.
  func putPrograms(_ request: HTTPRequest) -> HTTPResponse {
    answering {
      let fields = try body(request)
      try fields.rejectUnknownKeys(["programs"])
      guard let list = try fields.objects("programs") else { throw fields.missing("programs") }
      return try setPrograms(list.map(\.value))
    }
  }

  /// `PUT /api/programs/NAME`: one program, created or replaced in its place.
  func putProgram(_ request: HTTPRequest) -> HTTPResponse {
    answering {
      let name = programName(request)
      let fields = try body(request)
      guard case .object(var members) = fields.value else { throw JSONFieldError(field: "(top level)", reason: "expected a program") }
      if let given = try fields.string("name"), given != name {
        throw JSONFieldError(field: "name", reason: "'\(given)' differs from the name in the path, '\(name)'")
      }
      if fields.value["name"] == nil { members.insert(("name", .string(name)), at: 0) }
      var list = programSources()
      let names = pump?.schedule.programs.map(\.name) ?? []
      if let index = names.firstIndex(of: name) { list[index] = .object(members) } else { list.append(.object(members)) }
      return try setPrograms(list)
    }
  }

  /// `DELETE /api/programs/NAME`.
  func deleteProgram(_ request: HTTPRequest) -> HTTPResponse {
    answering {
      let name = programName(request)
      let names = pump?.schedule.programs.map(\.name) ?? []
      guard let index = names.firstIndex(of: name) else { throw HTTPRequestError(status: 404, message: "no program named '\(name)'") }
      var list = programSources()
      list.remove(at: index)
      return try setPrograms(list)
    }
  }

  /// Checks a list of programs whole (the option model, the zones, the fonts a request may
  /// name, that each fits its zone), saves it, and plays it from now on.
  func setPrograms(_ list: [JSONValue]) throws -> HTTPResponse {
    guard let pump else { throw HTTPRequestError(status: 404, message: "this sign plays no schedule") }
    let programs = try ScheduleFile.programs(list, zones: zones.map(\.name))
    // Built once now, as they will be when they play: a font not offered or too tall is
    // refused here, not at nine in the morning. One already playing as written was built
    // when it was set.
    let checked = programSources()
    for (index, program) in programs.enumerated() where !checked.contains(program.source) {
      for (zone, document) in program.zones {
        guard case .object(let members) = document else { continue }
        let target = zone.isEmpty ? feed.firstZone : zone
        let path = zone.isEmpty ? "programs[\(index)]" : "programs[\(index)].zones[\(program.zones.firstIndex { $0.zone == zone } ?? 0)]"
        _ = try feed.prepare(try JSONFields(.object([("zone", .string(target))] + members), path: path), replacing: true)
      }
    }
    try save { $0.programs = .array(list) }
    pump.replace(programs: programs)
    changed()
    return .json(.object([("programs", .array(list))]))
  }

  /// `GET /api/schedule`: which program plays now and why, the brightness and off state in
  /// force, what changes next, and the programs with their schedules.
  func schedule() -> HTTPResponse {
    guard let pump, let now = pump.current, pump.schedule != SignSchedule() else {
      return .error(404, "this sign has no programs, brightness schedule or off periods (see Docs/programs.md)")
    }
    let reason =
      if now.holding { "the wall clock is not set yet: the program is held until it is (untilClockSet)" }
      else if now.chosen { "it was chosen over the API, until the schedule's next change" }
      else if now.program == nil { "no program is due and there is no default" }
      else if now.due.isEmpty { "no program is due: the default plays" }
      else if now.due.count > 1 { "\(now.due.count) programs are due: they take turns" }
      else { "it is due now" }
    // Each program's schedule as it was written, and whether it plays.
    let programs: [JSONValue] = pump.schedule.programs.map { program in
      var members: [(key: String, value: JSONValue)] = [("name", .string(program.name))]
      if case .object(let written) = program.source {
        members += written.filter { ["days", "times", "dates"].contains($0.key) }
      }
      return .object(members + [("default", .bool(program.isDefault)), ("playing", .bool(program.name == now.program))])
    }
    var members: [(key: String, value: JSONValue)] = [
      ("program", now.program.map { .string($0) } ?? .null), ("reason", .string(reason)),
      ("due", .array(now.due.map { .string($0) })), ("off", .bool(now.off)),
      ("brightness", now.brightness.map { .number(Double($0)) } ?? .null),
    ]
    if let next = now.nextChange {
      let (date, minute) = LocalTime.date(at: next)
      members.append(("next", .object([("at", .number(next.rounded())), ("local", .string("\(date) \(TimeWindow.text(minute))"))])))
    }
    members.append(("programs", .array(programs)))
    members.append(("schedule", .object([("brightness", .array(pump.schedule.brightnessSource)), ("off", .array(pump.schedule.offSource))])))
    return .json(.object(members))
  }

  /// `PUT /api/schedule`: the brightness schedule and the off periods, as the config writes
  /// them (`{"brightness": […], "off": […]}`, each optional); checked whole, saved, played.
  func putSchedule(_ request: HTTPRequest) -> HTTPResponse {
    answering {
      guard let pump else { throw HTTPRequestError(status: 404, message: "this sign plays no schedule") }
      let fields = try body(request)
      try fields.rejectUnknownKeys(["brightness", "off"])
      var next = pump.schedule
      if fields.optional("brightness") != nil { try ScheduleFile.readBrightness(try fields.objects("brightness") ?? [], into: &next) }
      if fields.optional("off") != nil { try ScheduleFile.readOff(try fields.objects("off") ?? [], into: &next) }
      let written = JSONValue.object([("brightness", .array(next.brightnessSource)), ("off", .array(next.offSource))])
      try save { $0.schedule = written }
      pump.replaceBrightnessAndOff(with: next)
      changed()
      stop.wake()
      return schedule()
    }
  }

  func stats() -> HTTPResponse {
    let late = frames.lateness()
    let requests = counters.withLock { $0.requests }
    let mqtt = mqttCounts.withLock { $0 }
    return .json(.object([
      ("frames", .number(Double(late.frames))), ("lateP50Microseconds", .number(late.p50)),
      ("lateP99Microseconds", .number(late.p99)), ("lateMaxMicroseconds", .number(late.max)),
      ("requests", .number(Double(requests))), ("staleZones", .array(feed.staleZones.map { .string($0) })),
      ("mqtt", .object([
        ("taken", .number(Double(mqtt.taken))), ("refused", .number(Double(mqtt.refused))),
        ("replaced", .number(Double(mqtt.replaced))), ("dropped", .number(Double(mqtt.dropped))),
        ("oversized", .number(Double(mqtt.oversized))), ("published", .number(Double(mqtt.published))),
        ("lastError", mqtt.lastError.map { .string($0) } ?? .null), ("lastRefusal", mqtt.lastRefusal.map { .string($0) } ?? .null),
      ])),
    ]))
  }

  func frame(_ request: HTTPRequest) -> HTTPResponse {
    var pixels = Framebuffer(width: width, height: height)
    _ = frames.read(into: &pixels)
    let accept = request.header("accept") ?? "*/*"
    if accept.contains("image/x-portable-bitmap") {
      // PBM (P4): a text header, then rows of bits, 1 = black = a lit LED here.
      var body = Array("P4\n\(width) \(height)\n".utf8)
      for y in 0..<height {
        var byte: UInt8 = 0
        for x in 0..<width {
          if pixels[x, y] { byte |= 0x80 >> UInt8(x % 8) }
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
    return .text(pixels.text + "\n")
  }

  // MARK: Writing

  /// The JSON object of a write's body (an empty body is `{}`); ``JSONBodyCheck`` has made
  /// sure it is UTF-8.
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
  /// `PUT` and `PATCH /api/content` (and MQTT's content topic, whose live data is not
  /// `persist`ed: SD cards wear).
  func content(_ request: HTTPRequest, replacing: Bool, persist: Bool = true) -> HTTPResponse {
    answering {
      let fields = try body(request)
      let documents: [JSONFields]
      if fields.value["zones"] != nil {
        try fields.rejectUnknownKeys(["zones"])
        documents = try fields.objects("zones") ?? []
      } else {
        documents = [fields]
      }
      if let valueFilters {
        for document in documents { try LiveValues.checkTopics(in: document.value, allowed: valueFilters, path: document.path) }
      }
      let updates = try documents.map { try feed.prepare($0, replacing: replacing, keeping: persist) }
      // Live data with a lifetime is never kept: after a restart it would be stale.
      let kept = persist && statePath != nil && !updates.contains { $0.lifetime != nil }
      if persist {
        try save { saved in
          for update in updates {
            // The person's change over what people set before, never over live data.
            if let options = update.keptOptions { saved.set(zone: update.zone, SignAPI.document(options)) }
            if let pause = update.pause { saved.paused[update.zone] = pause }
          }
        }
      }
      feed.commit(updates)
      changed { counters in
        for update in updates { if let pause = update.pause { counters.paused[update.zone] = pause } }
      }
      // Whether the change is in the state file: a restart or a power cut shows it again.
      let answer = state()
      guard case .object(let members) = answer else { return .json(answer) }
      return .json(.object(members + [("kept", .bool(kept))]))
    }
  }

  /// Records a change in the state file before it is made: with `--state`, a write is
  /// answered 200 only once it is on the disk; if it cannot be saved, nothing changes and
  /// the answer is 500 saying why. Called on the writes queue, one write at a time.
  func save(_ change: (inout SignState) -> Void) throws(HTTPRequestError) {
    var next = counters.withLock { $0.saved }
    change(&next)
    if let statePath {
      do {
        try StateFile.save(next, to: statePath)
      } catch let error as StateFile.TooLarge {
        throw HTTPRequestError(status: 413, message: "the change was not made: \(error)")
      } catch {
        throw HTTPRequestError(status: 500, message: "the change was not made: \(error)")
      }
    }
    counters.withLock { $0.saved = next }
  }

  /// A zone's content and options as the state file keeps them: what `GET /api/state`
  /// shows, less the colour (set at the start only).
  static func document(_ options: RunOptions) -> JSONValue {
    .object(describe(options).filter { $0.key != "color" })
  }

  /// Counts a change (event streams send the new state) after `body` made it.
  func changed(_ body: (inout Counters) -> Void = { _ in }) {
    counters.withLock { counters in
      body(&counters)
      counters.stateVersion += 1
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
    } catch let error as ContentError {
      return .error(400, error.field.map { "\($0): \(error.reason)" } ?? error.reason)
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
      for name in names where !zones.contains(where: { $0.name == name }) {
        throw ContentError.noSuchZone(field: "zone", name: name, zones: zones.map(\.name))
      }
      var documents: [JSONFields] = []
      for name in names {
        documents.append(try JSONFields(.object([("zone", .string(name)), ("pause", .bool(pausing))])))
      }
      let updates = try documents.map { try feed.prepare($0) }
      try save { saved in for name in names { saved.paused[name] = pausing } }
      feed.commit(updates)
      changed { counters in for name in names { counters.paused[name] = pausing } }
      return .json(state())
    }
  }

  /// `POST /api/brightness {"brightness": 0-15}`: the full brightness, in 16 steps of the
  /// board's own.
  func brightness(_ request: HTTPRequest) -> HTTPResponse {
    answering {
      let fields = try body(request)
      try fields.rejectUnknownKeys(["brightness"])
      let level = try fields.requiredInteger("brightness", in: 0...15)
      try save { $0.brightness = level }
      frames.level = level
      changed()
      stop.wake()
      return .json(state())
    }
  }

  /// Turns the sign off (dark, the chips asleep, until turned on) or on (which also wakes it
  /// from an off period of the schedule, until that period ends): `{"on": false}`.
  func power(_ request: HTTPRequest) -> HTTPResponse {
    answering {
      let fields = try body(request)
      try fields.rejectUnknownKeys(["on"])
      guard let on = try fields.bool("on") else { throw fields.missing("on") }
      try save { $0.poweredOff = !on }
      frames.setPower(on: on)
      changed()
      stop.wake()
      return .json(state())
    }
  }

  /// `POST /api/program`: `{"name": "offers"}` plays that program now, until the schedule's
  /// next change; `{"name": null}` goes back to the schedule.
  func chooseProgram(_ request: HTTPRequest) -> HTTPResponse {
    answering {
      guard let pump else { throw HTTPRequestError(status: 404, message: "this sign plays no schedule") }
      let fields = try body(request)
      try fields.rejectUnknownKeys(["name"])
      guard fields.value["name"] != nil else { throw fields.missing("name") }
      try pump.choose(program: try fields.string("name"))
      changed()
      stop.wake()
      return schedule()
    }
  }

  /// Takes up what the state file kept, before the first frame: the sign was built with
  /// its zones' content (``SignPlan/build(_:stop:now:fontAccess:saved:)``); the pauses and
  /// the brightness are applied here. A zone the sign no longer has is dropped.
  func restore(_ saved: SignState) {
    var kept = SignState()
    for (zone, document) in saved.zones {
      if zones.contains(where: { $0.name == zone }) {
        kept.set(zone: zone, document)
      } else {
        printError("Warning: \(statePath ?? "state"): no zone named '\(zone)' now; its saved content is dropped")
      }
    }
    var updates: [Feed.Update] = []
    for (zone, pausing) in saved.paused where zones.contains(where: { $0.name == zone }) {
      if let fields = try? JSONFields(.object([("zone", .string(zone)), ("pause", .bool(pausing))])), let update = try? feed.prepare(fields) {
        updates.append(update)
        kept.paused[zone] = pausing
      }
    }
    feed.commit(updates)
    if let level = saved.brightness {
      frames.level = level
      kept.brightness = level
    }
    if saved.poweredOff {
      frames.setPower(on: false)
      kept.poweredOff = true
    }
    // Programs and the schedule were taken up when the sign was built; the next save keeps them.
    kept.programs = saved.programs
    kept.schedule = saved.schedule
    counters.withLock { counters in
      counters.saved = kept
      for (zone, pausing) in kept.paused { counters.paused[zone] = pausing }
    }
  }

  // MARK: Reloads

  /// Called every turn of the server loop: after SIGHUP, reloads the config on the writes
  /// queue (it reads files).
  func tick() {
    let hangups = HangupSignal.count
    guard let reload, counters.withLock({ counters in
      defer { counters.reloadsSeen = hangups }
      return counters.reloadsSeen != hangups
    }) else { return }
    writes.async { [self] in
      if let problem = reload() {
        printError("Warning: SIGHUP: the config was not reloaded: \(problem); the sign keeps the old one")
      } else {
        printError("SIGHUP: the config was reloaded")
        // The config is what the owner wants now: what was changed over the API goes, and
        // what runs is what a restart would run: no zone paused, the starting brightness,
        // the power as the schedule has it.
        do {
          try save { $0 = SignState() }
        } catch {
          printError("Warning: SIGHUP: \(error)")
        }
        let resumes = zones.compactMap { zone in
          (try? JSONFields(.object([("zone", .string(zone.name)), ("pause", .bool(false))]))).flatMap { try? feed.prepare($0) }
        }
        feed.commit(resumes)
        frames.level = startLevel
        frames.forgetPower()
        changed { counters in for zone in zones { counters.paused[zone.name] = false } }
        stop.wake()
      }
    }
  }
}

/// One client's event stream: the state after each change, and each new frame.
final class SignEvents: HTTPEventSource, @unchecked Sendable {
  let api: SignAPI
  var sentGeneration: UInt64 = .max
  var sentStateVersion = -1
  var pixels: Framebuffer

  init(api: SignAPI) {
    self.api = api
    pixels = Framebuffer(width: api.width, height: api.height)
  }

  func next(now: Int64) -> [UInt8]? {
    var bytes: [UInt8] = []
    let version = api.counters.withLock { $0.stateVersion }
    if version != sentStateVersion {
      sentStateVersion = version
      bytes += Array("event: state\ndata: \(api.state().text)\n\n".utf8)
    }
    let (generation, brightness) = api.frames.read(into: &pixels)
    if generation != sentGeneration {
      sentGeneration = generation
      bytes += Array("event: frame\ndata: \(SignEvents.frameEvent(pixels, brightness: brightness))\n\n".utf8)
    }
    return bytes.isEmpty ? nil : bytes
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

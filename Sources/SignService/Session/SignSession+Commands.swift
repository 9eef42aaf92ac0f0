import BitmapFonts
import LiveData
import Marquee
import SimpleJSON

/// The commands: each checked whole, kept, applied, answered.
extension SignSession {
  func apply(_ command: SignCommand, from source: CommandSource) throws -> SignAnswer {
    switch command {
    case .content(let document, let replacing): return try setContent(document, replacing: replacing, from: source)
    case .pause(let zone, let pausing): return try pause(zone: zone, pausing)
    case .brightness(let level): return try setBrightness(level)
    case .power(let on): return try setPower(on: on)
    case .notify(let document): return try notify(document, from: source)
    case .dismiss(let id): return try dismiss(id: id)
    case .chooseProgram(let name): return try choose(program: name, from: source)
    case .programs(let list): return try setPrograms(list)
    case .putProgram(let name, let document): return try putProgram(name: name, document)
    case .deleteProgram(let name): return try deleteProgram(name)
    case .schedule(let document): return try setSchedule(document)
    case .sources(let list): return try setSources(list)
    case .reload: return try reload()
    }
  }

  /// Zones' content: one feed document, or `{"zones": [document, …]}`; all are checked
  /// before any is applied. A person's change is kept with until when it holds: by default
  /// (`"hold": "program"`), while a program plays, until that program's stretch ends (then
  /// the schedule's content shows, after a restart too), and on a sign without programs,
  /// until changed again; `"hold": "always"` holds until changed, over every program;
  /// `"hold": "HH:MM"` until the local clock next shows that time (``ContentHold``). Content with
  /// a lifetime, and content from a live source (MQTT), is live data and never kept.
  func setContent(_ given: JSONValue, replacing: Bool, from source: CommandSource) throws -> SignAnswer {
    let (document, hold) = try ContentHold.split(given)
    if hold != nil && !source.keeps {
      throw SignRefusal(field: "hold", "only a person's change holds; content from a feed or a broker shows while it is fresh")
    }
    let updates = try contentUpdates(document, replacing: replacing, from: source)
    let now = clock.wall()
    let until = (hold ?? .program).end(at: now, stretchEnd: pump.stretchEnd(at: now))
    let kept = source.keeps && statePath != nil && !updates.contains { $0.lifetime != nil }
    if source.keeps {
      try save { saved in
        for update in updates {
          // The person's change over what people set before, never over live data.
          if let options = update.keptOptions { saved.set(zone: update.zone, SignSession.document(options), until: until) }
          if let pause = update.pause { saved.paused[update.zone] = pause }
        }
      }
    }
    feed.commit(updates)
    if source.keeps, let until { pump.layerEnds(at: until) }
    let live = source.keeps ? [] : SignSession.liveLayers(document, updates: updates)
    changed { record in
      for update in updates { if let pause = update.pause { record.paused[update.zone] = pause } }
      for (zone, members) in live {
        record.live[zone] = SignSession.merged(members, over: record.live[zone] ?? [])
        record.liveOnTop.insert(zone)
      }
      if source.keeps { for update in updates where update.keptOptions != nil { record.liveOnTop.remove(update.zone) } }
    }
    return .changed(kept: kept, until: kept ? until : nil)
  }

  /// `top`'s fields over `base`'s, key by key (`message` counts as `messages`: the later
  /// of the two wins, whichever spelling it used).
  static func merged(_ top: [(key: String, value: JSONValue)], over base: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
    var members = base
    for (key, value) in top {
      let (name, written) = key == "message" ? ("messages", JSONValue.array([value])) : (key, value)
      if let index = members.firstIndex(where: { $0.key == name }) { members[index].value = written } else { members.append((name, written)) }
    }
    return members
  }

  /// What a live source's content document leaves as each zone's live layer: its content
  /// and options (not a pause, not "immediately"), for the zones whose update has no
  /// lifetime (content that goes stale is the lifetime watcher's).
  static func liveLayers(_ document: JSONValue, updates: [Feed.Update]) -> [(zone: String, members: [(key: String, value: JSONValue)])] {
    // The same zone documents the updates were made from, in their order.
    let documents = (try? Feed.zoneDocuments(document).map(\.value)) ?? []
    var layers: [(zone: String, members: [(key: String, value: JSONValue)])] = []
    for (document, update) in zip(documents, updates) where update.lifetime == nil && update.content != nil {
      guard case .object(let members) = document else { continue }
      layers.append((update.zone, members.filter { !["zone", "immediately", "pause"].contains($0.key) }))
    }
    return layers
  }

  /// A content document (one zone's, or `{"zones": [...]}`) checked whole and built into
  /// updates, nothing applied: what ``setContent(_:replacing:from:)`` commits and a
  /// preview draws.
  func contentUpdates(_ document: JSONValue, replacing: Bool, from source: CommandSource, fonts: FontCache? = nil) throws -> [Feed.Update] {
    try Feed.zoneDocuments(document).map { try feed.prepare($0, replacing: replacing, keeping: source.keeps, fonts: fonts) }
  }

  /// Pauses or resumes one zone, or every zone.
  func pause(zone: String?, _ pausing: Bool) throws -> SignAnswer {
    let names = zone.map { [$0] } ?? zones.map(\.name)
    for name in names where !zones.contains(where: { $0.name == name }) {
      throw SignRefusal.noSuchZone(field: "zone", name: name, zones: zones.map(\.name))
    }
    let updates = try names.map { try pauseUpdate($0, pausing) }
    try save { saved in for name in names { saved.paused[name] = pausing } }
    feed.commit(updates)
    changed { record in for name in names { record.paused[name] = pausing } }
    return .changed(kept: nil, until: nil)
  }

  /// The brightness level (``BrightnessLevel``: 16 levels up to the board's full step).
  func setBrightness(_ level: Int) throws -> SignAnswer {
    let range = BrightnessLevel.range
    guard range.contains(level) else { throw SignRefusal(field: "brightness", "\(level) is out of range (\(range.lowerBound) to \(range.upperBound))") }
    try save { $0.brightness = level }
    lights.level = level
    changed()
    return .changed(kept: nil, until: nil)
  }

  /// Turns the sign off (dark, the chips asleep, until turned on) or on (which also wakes
  /// it from an off period of the schedule, until that period ends).
  func setPower(on: Bool) throws -> SignAnswer {
    try save { $0.poweredOff = !on }
    lights.setPower(on: on)
    changed()
    return .changed(kept: nil, until: nil)
  }

  /// Shows a notification over a zone or the whole sign; checked whole, nothing is queued
  /// when it fails.
  func notify(_ document: JSONValue, from source: CommandSource) throws -> SignAnswer {
    let fields = try JSONFields(document)
    let (notification, wakes) = try feed.notification(fields)
    let id: Int
    do {
      id = try controller.notify(notification)
    } catch let error as Sign.NotificationError {
      throw SignRefusal(error == .full ? .busy : .invalid, error.description)
    }
    if wakes, let end = controller.sign.notifications.plan.last(where: { $0.id == id })?.end {
      lights.wake(forSeconds: end - controller.currentTime)
    }
    changed()
    return .notified(id: id)
  }

  /// Ends one notification, or every one.
  func dismiss(id: Int?) throws -> SignAnswer {
    guard controller.dismiss(notification: id) || id == nil else {
      throw SignRefusal(.notFound, "no notification \(id!) is waiting or showing")
    }
    changed()
    return .dismissed
  }

  /// Plays `name` now until its stretch ends (the schedule's next change); nil goes back
  /// to the schedule. A person's choice is kept with that moment, so a restart within it
  /// plays the program again; a live source's (MQTT) is not.
  func choose(program name: String?, from source: CommandSource) throws -> SignAnswer {
    // Checked and kept first: a choice that cannot be saved is not made.
    let wall = clock.wall()
    let until = try name.map { try pump.choiceEnd(of: $0, at: wall) }
    if source.keeps {
      try save { saved in saved.chosen = name.map { SignState.ChosenProgram(name: $0, until: until!) } }
    }
    try pump.choose(program: name, until: until)
    changed()
    return .scheduled
  }

  /// The programs as written, in order.
  public var programSources: [JSONValue] { pump.schedule.programs.map(\.source) }

  /// One program, created or replaced in its place.
  func putProgram(name: String, _ document: JSONValue) throws -> SignAnswer {
    let fields = try JSONFields(document)
    guard case .object(var members) = fields.value else { throw JSONFieldError(field: "(top level)", reason: "expected a program") }
    if let given = try fields.string("name"), given != name {
      throw JSONFieldError(field: "name", reason: "'\(given)' differs from the name in the path, '\(name)'")
    }
    if fields.value["name"] == nil { members.insert(("name", .string(name)), at: 0) }
    var list = programSources
    let index = pump.schedule.programs.firstIndex(where: { $0.name == name }) ?? list.count
    if index < list.count { list[index] = .object(members) } else { list.append(.object(members)) }
    do {
      return try setPrograms(list)
    } catch {
      // A refusal about this program names its fields as its document does.
      var refusal = SignRefusal(from: error)
      let place = "programs[\(index)]"
      if let field = refusal.field, field.hasPrefix(place) {
        let rest = field.dropFirst(place.count)
        refusal.field = rest.isEmpty ? "(top level)" : String(rest.hasPrefix(".") ? rest.dropFirst() : rest)
      }
      throw refusal
    }
  }

  func deleteProgram(_ name: String) throws -> SignAnswer {
    guard let index = pump.schedule.programs.firstIndex(where: { $0.name == name }) else {
      throw SignRefusal(.notFound, "no program named '\(name)'")
    }
    var list = programSources
    list.remove(at: index)
    return try setPrograms(list)
  }

  /// Checks a list of programs whole (the option model, the zones, the fonts a command
  /// may name, that each fits its zone), keeps it, and plays it from now on.
  func setPrograms(_ list: [JSONValue]) throws -> SignAnswer {
    let programs = try ScheduleFile.programs(list, zones: zones.map(\.name))
    // Built once now, as they will be when they play: a font not offered or too tall is
    // refused here, not at nine in the morning. One already playing as written was built
    // when it was set.
    let checked = programSources
    for program in programs where !checked.contains(program.source) {
      for part in program.zones {
        guard case .object(let members) = part.document else { continue }
        _ = try feed.prepare(try JSONFields(.object([("zone", .string(part.zone ?? feed.firstZone))] + members), path: part.path), replacing: true)
      }
    }
    try save { $0.programs = .array(list) }
    pump.replace(programs: programs)
    changed()
    return .programs(list)
  }

  /// The sign's location, brightness schedule and off periods, as the config writes them
  /// (`{"location": {…}, "brightness": […], "off": […]}`, each optional); checked whole,
  /// kept, played.
  func setSchedule(_ document: JSONValue) throws -> SignAnswer {
    var next = pump.schedule
    try ScheduleFile.readNightAndOff(try JSONFields(document), into: &next)
    // The brightness schedule as it stands is read again: a location changed may break
    // (or fix) its sunset rules.
    try ScheduleFile.readBrightness(try JSONFields(.object([("brightness", .array(next.brightnessSource))])).objects("brightness") ?? [], into: &next)
    let written = ScheduleFile.nightAndOff(next)
    try save { $0.schedule = written }
    pump.replaceBrightnessAndOff(with: next)
    changed()
    return .scheduled
  }

  /// The live data sources, as the config writes them (`http://` and `https://` only: a
  /// token cannot make the sign read its own files), in place of the config's; checked
  /// whole, and refused while content names a source the list leaves out. Kept, then
  /// fetched: a source as it was keeps its items, a new one is fetched at once.
  func setSources(_ list: [JSONValue]) throws -> SignAnswer {
    let new = try SignSession.networkSources(.array(list))
    for (place, name) in sourcesInUse() where !new.contains(where: { $0.name == name }) {
      throw SignRefusal(field: "sources", "'\(name)' is shown by \(place) ({source:\(name)}): change that first, or keep the source")
    }
    try save { $0.sources = .array(list) }
    sources.replace(sources: new)
    changed()
    return .sources(list)
  }

  /// The sources in a list set over the API (or kept from one), each checked as the
  /// config's are and fetching only `http://` and `https://` addresses.
  static func networkSources(_ list: JSONValue) throws -> [LiveSource] {
    let sources = try LiveSource.list(list)
    for (index, source) in sources.enumerated() { try source.checkNetworkOnly(path: "sources[\(index)]") }
    return sources
  }

  /// Where each source some content shows is named: the zones' content now, the config's,
  /// a person's kept change and the programs, as `(place, source name)`.
  func sourcesInUse() -> [(place: String, name: String)] {
    var found: [(place: String, name: String)] = []
    func scan(_ value: JSONValue, _ place: String) {
      switch value {
      case .string(let text): for name in LiveValues.sourceNames(in: text) { found.append((place, name)) }
      case .array(let items): for item in items { scan(item, place) }
      case .object(let members): for member in members { scan(member.value, place) }
      default: break
      }
    }
    let (current, starting) = (feed.currentOptions, feed.startingOptions)
    for zone in zones {
      for message in current[zone.name]?.messages ?? [] { scan(.string(message), "zone '\(zone.name)'") }
      for message in starting[zone.name]?.messages ?? [] { scan(.string(message), "the config's zone '\(zone.name)'") }
    }
    for kept in record.withLock({ $0.saved.zones }) { scan(kept.document, "the content kept for zone '\(kept.name)'") }
    for program in programSources {
      let name = program["name"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "?"
      scan(program, "program '\(name)'")
    }
    return found
  }

  /// The sources as written, in order: the config's, or the ones set over the API.
  public var sourceDocuments: [JSONValue] {
    sources.sources.map { $0.written ?? .object([("name", .string($0.name)), ("url", .string($0.url))]) }
  }

  /// Reads the config again: each zone's content and options replaced, and the programs,
  /// brightness schedule and off periods with them; then what was changed over the API
  /// goes, and what runs is what a restart would run: no zone paused, the starting
  /// brightness, the power as the schedule has it. A config that fails to load (or
  /// changes the zones) changes nothing.
  func reload() throws -> SignAnswer {
    guard let reloadOptions else { throw SignRefusal(.unsupported, "this sign has no config file to reload") }
    let options = try reloadOptions()
    // The config's sources are the ones its content may name from now on.
    let declared = feed.values.declaredSources
    feed.values.declaredSources = options.sources.map(\.name)
    do {
      try feed.reset(to: try SignPlan.zoneOptions(options))
    } catch {
      feed.values.declaredSources = declared
      throw error
    }
    sources.replace(sources: options.sources)
    do {
      try save { $0 = SignState() }
    } catch {
      reports.warning("SIGHUP: \(error)")
    }
    // What a restart would run: no person's change and no feed's content over the config,
    // gone before the new schedule plays (the pump plays the layers above the program).
    record.withLock { record in
      record.saved = SignState()
      record.live = [:]
      record.liveOnTop = []
    }
    pump.replace(schedule: options.schedule ?? SignSchedule())
    feed.commit(zones.compactMap { try? pauseUpdate($0.name, false) })
    lights.level = startLevel
    lights.forgetPower()
    changed { record in for zone in zones { record.paused[zone.name] = false } }
    return .reloaded
  }

  /// A zone's content and options as the state file keeps them: what ``state()`` shows,
  /// less the colour (set at the start only).
  static func document(_ options: ZoneOptions) -> JSONValue {
    .object(describe(options).filter { $0.key != "color" })
  }

  /// A zone's content and every option that applies to it, under the keys feed lines,
  /// layout files and content documents use: made from the options' declarations, so
  /// whatever a command accepts for the zone the state shows.
  public static func describe(_ options: ZoneOptions) -> [(key: String, value: JSONValue)] {
    // The cycle-mode options only for a zone that cycles: elsewhere a write refuses them.
    let shown = Option.zoneOptions.filter { $0.needs != .cycleMode || options.mode.takesTurns }
    var carrier = RunOptions()
    carrier.zone = options
    let messages: [(key: String, value: JSONValue)] = [("messages", .array(options.messages.map { .string($0) }))]
    return messages + shown.map { ($0.key, $0.encodeJSON(carrier)) }
  }
}

import Platform
import BitmapFonts
import Marquee
import MatrixCore
import SimpleJSON
import Synchronization

/// `--stdin`: lines read while the sign runs become updates of its zones.
///
/// A plain line replaces the first zone's messages with that line. A line that is a JSON
/// object names a zone (`"zone"`), sets its messages (`"messages"` or `"message"`) and any
/// option a layout zone takes (`"mode"`, `"in"`, `"speed"`, …), and may ask for
/// `"immediately": true` or `"pause": true|false`. Bad lines are reported on standard error
/// and skipped. Updates are coalesced: only the latest per zone waits to be applied, and it
/// is applied at the next frame, so a flood of lines keeps the sign responsive, shows the
/// latest content and uses bounded memory.
public final class Feed: Sendable {
  /// What waits to be applied to one zone.
  package struct Pending {
    var content: ZoneContent?
    var immediately = false
    var pause: Bool?
  }

  struct State {
    var pending: [String: Pending] = [:]
    var order: [String] = []
    var options: [String: ZoneOptions]
    var received = 0
    var ended = false
    /// Each zone's options when the sign started, or at the last reload (a replacing
    /// update starts from them).
    var initial: [String: ZoneOptions]
    /// The fonts each zone uses now, and those of its initial options: the fonts kept loaded.
    var fontsInUse: [String: [FontCache.Identity]] = [:]
    var initialFonts: [String: [FontCache.Identity]] = [:]
    /// Notifications (and dismissals: nil notification, the ID or nil for all) from lines,
    /// shown at the next frame.
    var notices: [Notice] = []
    /// Zones whose live content lasts only a while, by zone.
    var lifetimes: [String: Lifetime] = [:]
    /// Whether the thread that watches lifetimes runs.
    var watching = false
    /// Each zone's options as the playing program set them (none: as the sign started):
    /// what a stale zone without a fallback shows.
    var base: [String: ZoneOptions] = [:]
    /// Each zone's options as people, programs and the config left them, live data (MQTT
    /// content, content with a lifetime, fallbacks, placeholder values) left out: what a
    /// person's later change is merged into for the state file.
    var kept: [String: ZoneOptions]
    /// The sign's t = 0 in Unix time, for `{time}` placeholders: moved when the wall clock is set.
    var clockStart: Double?
  }

  /// A notification a line asked for (and whether it wakes a sign in an off period), or a
  /// dismissal (nil notification: the ID, or nil for all).
  struct Notice {
    var notification: Notification?
    var wakes = false
    var dismiss: Int?
  }

  /// A zone's live content and how long it lasts without an update.
  package struct Lifetime {
    var seconds: Double
    /// What shows when it goes stale (nil: the zone's own content).
    var fallback: [String]?
    /// When the last update came (monotonic seconds).
    var updated: Double
    var stale = false
    /// The messages of the live content, placeholders unfilled: what comes back when the
    /// topics they name are fresh again.
    var liveMessages: [String] = []
  }

  let state: Mutex<State>
  package let firstZone: String
  let zoneNames: [String]
  /// The sprite file of the sprite effect, for every zone (`--sprite`).
  let spritePath: String?
  /// Each zone's place, by name: what its content must fit.
  package let places: [String: ZonePlace]
  let stop: StopFlag
  /// The fonts, loaded once per file and shared with the sign that started.
  package let fonts: FontCache
  /// Which fonts updates may name.
  let fontAccess: FontCache.Access
  /// Lines longer than this are refused (and the rest of the line skipped).
  package static let maximumLineLength = 1 << 20

  /// What to do when the input ends.
  let onEnd: RunOptions.EndOfInput
  /// The latest values of the MQTT topics messages name (`{mqtt:TOPIC}`).
  package let values = LiveValues()
  /// The frames' tap of a sign with a schedule: what a waking notification lights.
  package let tap = Mutex<FrameTap?>(nil)
  /// The clock lifetimes are measured on.
  package let clock: SignClock
  /// Where warnings go (a stale zone, a line skipped).
  package let reports: SignReports

  /// A feed for `zones`; `fonts` is the cache the sign was built with.
  package init(
    zones: [ZoneSpec], clockStart: Double? = nil, spritePath: String? = nil, stop: StopFlag,
    onEnd: RunOptions.EndOfInput = .keep, fonts: FontCache = FontCache(), fontAccess: FontCache.Access = .any,
    clock: SignClock = .system, reports: SignReports = .standardError()
  ) {
    self.clock = clock
    self.reports = reports
    firstZone = zones[0].name
    zoneNames = zones.map(\.name)
    places = Dictionary(uniqueKeysWithValues: zones.map { ($0.name, $0.place) })
    self.spritePath = spritePath
    self.stop = stop
    self.onEnd = onEnd
    self.fonts = fonts
    self.fontAccess = fontAccess
    let options = Dictionary(uniqueKeysWithValues: zones.map { ($0.name, $0.options) })
    var state = State(options: options, initial: options, kept: options, clockStart: clockStart)
    for zone in zones {
      let identities = (try? zone.options.fonts.map { try fonts.resolve($0, access: .any).0 }) ?? []
      state.fontsInUse[zone.name] = identities
      state.initialFonts[zone.name] = identities
    }
    self.state = Mutex(state)
  }

  /// Starts reading standard input on its own thread.
  public func start(descriptor: Int32 = 0) {
    DetachedThread.start { [self] in
      var reader = LineReader(descriptor: descriptor, maximumLength: Feed.maximumLineLength)
      var number = 0
      while let line = reader.next() {
        number += 1
        switch line {
        case .tooLong:
          reports.warning("stdin:\(number): line longer than \(Feed.maximumLineLength >> 20) MiB, skipped")
        case .text(let text):
          do {
            try handle(text)
          } catch {
            reports.warning("stdin:\(number): \(error), line skipped")
          }
        }
      }
      inputEnded()
    }
  }

  /// Applies the end-of-input policy: keep the content, blank every zone, or stop the sign
  /// (the player then blanks it and the program exits 0).
  package func inputEnded() {
    switch onEnd {
    case .keep: break
    case .blank:
      for zone in zoneNames {
        do {
          try enqueue(zone: zone, messages: [], fields: nil, immediately: true, pause: nil)
        } catch {
          reports.warning("stdin: end of input: \(error)")
        }
      }
    case .exit:
      stop.set()
    }
    state.withLock { $0.ended = true }
    stop.wake()
  }

  /// Turns one feed line (plain text, or a JSON content document) into an update, applied
  /// at the next frame: the line read as ``SignCommand/commands(feedLine:)`` reads it for a
  /// session, applied to this feed alone (a sign built by ``SignPlan`` without a session).
  ///
  /// - Throws: ``SignFailure`` saying why the line changes nothing (a bad field names its
  ///   path: `field 'speed': …`).
  public func handle(_ line: String) throws {
    do {
      for command in try SignCommand.commands(feedLine: line) {
        switch command {
        case .content(let document, _):
          var documents = [try JSONFields(document)]
          if document["zones"] != nil {
            try documents[0].rejectUnknownKeys(["zones"])
            documents = try documents[0].objects("zones") ?? []
          }
          commit(try documents.map { try prepare($0) })
        case .notify(let document):
          let made = try notification(try JSONFields(document, path: "notify"))
          state.withLock { $0.notices.append(Notice(notification: made.notification, wakes: made.wakes)) }
        case .dismiss(let id):
          state.withLock { $0.notices.append(Notice(dismiss: id)) }
        default:
          break
        }
      }
    } catch let error as JSONFieldError {
      throw SignFailure(error.field == "(line)" ? error.reason : "\(error)")
    } catch let error as ContentError {
      throw SignFailure("\(error)")
    }
    stop.wake()
  }

  /// An update checked and built, waiting to be committed.
  package struct Update {
    package var zone: String
    package var options: ZoneOptions
    package var content: ZoneContent?
    var immediately: Bool
    package var pause: Bool?
    /// The fonts of the new content.
    var fonts: [FontCache.Identity]?
    /// How long the new content lasts without another update, if it is live data that can
    /// go stale.
    package var lifetime: Lifetime?
    /// The same messages with new placeholder values: the zone's lifetime stays as it is,
    /// and with `revives`, a stale zone is live again.
    var refreshes = false
    var revives = false
    /// Content a program (or the sign's start) set: what a stale zone without a fallback
    /// goes back to.
    package var isBase = false
    /// What a person's change leaves the zone with, live data left out: what the state file
    /// keeps (``Feed/prepare(_:replacing:keeping:)`` with `keeping`).
    package var keptOptions: ZoneOptions?
  }

  /// Checks one feed document (a JSON line, or a zone of an HTTP request) and builds its
  /// update without applying it. With `replacing`, the zone's options start from those it
  /// had when the sign started, and messages are required.
  /// With `keeping` (a person's change, to be saved), the update also carries the options
  /// it leaves the zone with apart from live data (``Update/keptOptions``): the document
  /// applied over what people, programs and the config last set, never over MQTT's messages.
  /// Content with a lifetime is live data, and is never kept.
  /// With `over`, the document applies over those options instead of the zone's current
  /// ones (a layer over content not committed yet).
  /// With `fonts`, its fonts come from that cache (a preview's guest) instead of the sign's.
  package func prepare(
    _ fields: JSONFields, replacing: Bool = false, keeping: Bool = false, over start: ZoneOptions? = nil, fonts cache: FontCache? = nil
  ) throws -> Update {
    for key in LayoutFile.placementKeys where fields.value[key] != nil {
      throw ContentError.placementInUpdate(field: fields.name(key), key: key)
    }
    try fields.rejectUnknownKeys(LayoutFile.contentKeys + ["zone", "message", "immediately", "pause", "lifetime", "fallback"])
    let zone = try fields.string("zone") ?? firstZone
    guard zoneNames.contains(zone) else {
      throw ContentError.noSuchZone(field: fields.name("zone"), name: zone, zones: zoneNames)
    }
    var messages = try fields.strings("messages")
    if let single = try fields.string("message") { messages = [single] }
    if replacing && messages == nil { throw fields.missing("messages") }
    if messages?.isEmpty == true {
      // The zone would go dark while the sign says it plays: a blank must be asked for.
      throw JSONFieldError(
        field: fields.name(fields.value["message"] != nil ? "message" : "messages"),
        reason: #"an empty list would leave the zone dark while the sign says it plays; to blank the zone on purpose, send [""]"#)
    }
    var update = try prepare(
      zone: zone, messages: messages, fields: fields, immediately: try fields.bool("immediately") ?? false,
      pause: try fields.bool("pause"), replacing: replacing, from: start, fonts: cache)
    if let seconds = try fields.number("lifetime", in: 0.1...604_800) {
      let fallback = try fields.strings("fallback")
      if let fallback { try check(try prepare(zone: zone, messages: fallback, fields: nil, immediately: true, pause: nil).content!, fits: zone, fields: fields) }
      update.lifetime = Lifetime(seconds: seconds, fallback: fallback, updated: 0)
    } else if fields.value["fallback"] != nil {
      throw JSONFieldError(field: fields.name("fallback"), reason: "a fallback needs a \"lifetime\" (seconds)")
    }
    if keeping && update.content != nil && update.lifetime == nil {
      let start = state.withLock { replacing ? $0.initial[zone]! : $0.kept[zone]! }
      update.keptOptions = try applied(messages, fields, to: start, zone: zone)
    }
    return update
  }

  func enqueue(zone: String, messages: [String]?, fields: JSONFields?, immediately: Bool, pause: Bool?) throws {
    commit([try prepare(zone: zone, messages: messages, fields: fields, immediately: immediately, pause: pause)])
  }

  func prepare(
    zone: String, messages: [String]?, fields: JSONFields?, immediately: Bool, pause: Bool?, replacing: Bool = false,
    from start: ZoneOptions? = nil, fonts cache: FontCache? = nil
  ) throws -> Update {
    // Options are applied to a copy first, so a bad line changes nothing.
    let options = try applied(
      messages, fields, to: start ?? state.withLock { replacing ? $0.initial[zone]! : $0.options[zone]! }, zone: zone)
    let changesContent = replacing || messages != nil
      || (fields.map { f in LayoutFile.contentKeys.contains { f.optional($0) != nil } } ?? false)
    var content: ZoneContent?
    var identities: [FontCache.Identity]?
    if changesContent {
      let chain: FontChain
      do {
        // Fonts a document names are checked against what the feed allows; the zone's own
        // (from the command line, config or layout) were the operator's choice.
        let rule = fields?.optional("font") != nil ? fontAccess : .any
        (chain, identities) = try (cache ?? fonts).chain(options.fonts, access: rule)
      } catch let refused as FontCache.NotOffered {
        throw JSONFieldError(field: fields?.name("font") ?? "font", reason: refused.description)
      } catch let refused as FontCache.OverBudget {
        throw JSONFieldError(field: fields?.name("font") ?? "font", reason: refused.description)
      }
      let made = try SignPlan.makeContent(options, epoch: state.withLock { $0.clockStart }, sprite: spritePath, fonts: chain, values: values)
      try check(made, fits: zone, fields: fields)
      content = made
    }
    return Update(zone: zone, options: options, content: content, immediately: immediately, pause: pause, fonts: identities)
  }

  /// `messages` and the options of `fields` applied to `start`, checked.
  func applied(_ messages: [String]?, _ fields: JSONFields?, to start: ZoneOptions, zone: String) throws -> ZoneOptions {
    var options = start
    if let messages {
      do {
        try RunOptions.checkMessages(messages)
      } catch {
        throw SignFailure(error.message)
      }
      try checkTopics(messages, zone: zone, fields: fields)
      options.messages = messages
    }
    if let fields {
      // The colours of an RGB board's zones are set up with the display, before any line.
      if fields.optional("color") != nil {
        throw ContentError.colorInUpdate(field: fields.name("color"))
      }
      try LayoutFile.apply(fields, to: &options)
      try LayoutFile.checkCycleOnly(fields, options)
    }
    return options
  }

  /// Refuses messages whose placeholders name a topic MQTT does not allow (subscribing to it
  /// would make the broker drop the connection), or that would take the topics the sign's
  /// content names past ``LiveValues/maximumTopics``; the error names the message.
  func checkTopics(_ messages: [String], zone: String, fields: JSONFields?) throws(JSONFieldError) {
    func place(_ index: Int) -> String {
      if let fields, fields.value["messages"] != nil { return fields.name("messages") + "[\(index)]" }
      return fields?.name("message") ?? "messages[\(index)]"
    }
    guard messages.contains(where: { $0.contains("{mqtt:") }) else { return }
    var inUse = state.withLock { state in
      Set(zoneNames.filter { $0 != zone }.flatMap { name in
        ((state.options[name]?.messages ?? []) + (state.lifetimes[name]?.liveMessages ?? [])).flatMap(LiveValues.topics)
      })
    }
    for (index, message) in messages.enumerated() where message.contains("{mqtt:") {
      if let (topic, problem) = LiveValues.topicProblem(in: message) {
        throw JSONFieldError(field: place(index), reason: "{mqtt:\(topic.count > 60 ? String(topic.prefix(60)) + "…" : topic)}: \(problem)")
      }
      for topic in LiveValues.topics(in: message) {
        inUse.insert(topic)
        if inUse.count > LiveValues.maximumTopics {
          throw JSONFieldError(
            field: place(index),
            reason: "{mqtt:\(topic)} would be the sign's \(inUse.count)th placeholder topic; its content may name at most \(LiveValues.maximumTopics)")
        }
      }
    }
  }

  /// Builds the zone's timeline once, so content that cannot be shown (a font taller than
  /// the zone, text too long to lay out) is refused before anything is applied.
  func check(_ content: ZoneContent, fits zone: String, fields: JSONFields?) throws {
    guard let size = places[zone] else { return }
    do {
      _ = try content.makeTimeline(width: size.width, height: size.height)
    } catch {
      if case .unknownIcon(let unknown) = error {
        throw JSONFieldError(field: fields?.name("messages") ?? "messages", reason: unknown.description)
      }
      let key: String
      switch error {
      case .textTallerThanSign: key = "font"
      default: key = "messages"
      }
      throw ContentError.doesNotFit(field: fields?.name(key) ?? key, zone: zone, width: size.width, height: size.height, reason: "\(error)")
    }
  }

  /// The wall clock was set (NTP at boot): every zone's `{time:…}` placeholders follow the
  /// clock from now on. The sign's start in Unix time moves by `seconds`; zones whose
  /// messages show the time are rebuilt at once, the others only learn it.
  func shiftClock(by seconds: Double) {
    let zones = state.withLock { state -> [String] in
      if let start = state.clockStart { state.clockStart = start + seconds }
      return zoneNames.filter { zone in state.options[zone]?.messages.contains { TextTemplate($0).isDynamic } ?? false }
    }
    var updates: [Update] = []
    for zone in zones {
      let messages = state.withLock { $0.options[zone]?.messages }
      if let update = try? prepare(zone: zone, messages: messages, fields: nil, immediately: true, pause: nil) { updates.append(update) }
    }
    if !updates.isEmpty { commit(updates) }
  }

  /// An update that shows `zone`'s content as the sign started with it (or as the last
  /// reload set it), at once.
  func restart(_ zone: String) throws -> Update {
    let messages = state.withLock { $0.initial[zone]?.messages ?? [] }
    var update = try prepare(zone: zone, messages: messages, fields: nil, immediately: true, pause: nil, replacing: true)
    update.isBase = true
    return update
  }

  /// An update that shows `zone`'s content as the playing program set it (or, without one,
  /// as the sign started), at once: what a stale zone without a fallback shows.
  func baseContent(_ zone: String) throws -> Update {
    guard let base = state.withLock({ $0.base[zone] }) else { return try restart(zone) }
    return try prepare(zone: zone, messages: base.messages, fields: nil, immediately: true, pause: nil, from: base)
  }

  /// Applies checked updates together, at the next frame.
  package func commit(_ updates: [Update]) {
    state.withLock { state in
      for update in updates {
        state.options[update.zone] = update.options
        var pending = state.pending[update.zone] ?? Pending()
        if let content = update.content {
          pending.content = content
          pending.immediately = update.immediately
        }
        if let pause = update.pause { pending.pause = pause }
        if update.content != nil && !update.refreshes {
          // New content: live for its lifetime, or for good.
          state.lifetimes[update.zone] = update.lifetime.map { lifetime in
            var live = lifetime
            live.updated = clock.monotonic()
            live.liveMessages = update.options.messages
            return live
          }
        }
        if update.revives { state.lifetimes[update.zone]?.stale = false }
        if update.isBase { state.base[update.zone] = update.options }
        if let kept = update.keptOptions { state.kept[update.zone] = kept } else if update.isBase { state.kept[update.zone] = update.options }
        if state.pending[update.zone] == nil { state.order.append(update.zone) }
        state.pending[update.zone] = pending
        state.received += 1
        if let identities = update.fonts { state.fontsInUse[update.zone] = identities }
      }
      // Fonts no zone shows any more, nor would show again after a PUT or reload, go.
      fonts.keep(only: Set(state.fontsInUse.values.joined()).union(state.initialFonts.values.joined()))
    }
    // Values of topics no content names any more go (and the subscriptions with them).
    values.keep(only: Set(placeholderTopics().topics))
    if updates.contains(where: { $0.lifetime != nil }) { watchLifetimes() }
    stop.wake()
  }

  /// The live content of `zone` that lasts only a while, if it has any: its lifetime, when
  /// it was last updated, and whether it went stale.
  package func lifetime(of zone: String) -> Lifetime? {
    state.withLock { $0.lifetimes[zone] }
  }

  /// The zones whose live content went stale (no update within its lifetime): they show
  /// their fallback until an update comes.
  package var staleZones: [String] {
    state.withLock { state in zoneNames.filter { state.lifetimes[$0]?.stale == true } }
  }

  /// Starts, once, the thread that puts up fallbacks when live content goes stale (it
  /// looks four times a second).
  func watchLifetimes() {
    let start = state.withLock { state in
      defer { state.watching = true }
      return !state.watching
    }
    guard start else { return }
    DetachedThread.start { [self] in
      while !stop.isSet {
        usleep(250_000)
        expire(at: clock.monotonic())
      }
    }
  }

  /// Puts up the fallback of every zone whose live content is older than its lifetime at
  /// monotonic time `now`: no update came in that time, or, for messages with
  /// placeholders, one of the topics they name sent nothing in that time.
  func expire(at now: Double) {
    // Marked stale as they are found, so the watcher and a caller never both put one up.
    let due = state.withLock { state in
      zoneNames.compactMap { zone -> (String, [String]?)? in
        guard let lifetime = state.lifetimes[zone], !lifetime.stale, !isFresh(lifetime, at: now) else { return nil }
        state.lifetimes[zone]?.stale = true
        return (zone, lifetime.fallback)
      }
    }
    for (zone, fallback) in due {
      do {
        let update = try fallback.map { try prepare(zone: zone, messages: $0, fields: nil, immediately: true, pause: nil) } ?? baseContent(zone)
        let kept = state.withLock { $0.lifetimes[zone] }
        commit([update])
        state.withLock { state in
          state.lifetimes[zone] = kept
          state.lifetimes[zone]?.stale = true
        }
        reports.notice("Zone '\(zone)': no update for \(Int(saturating: (kept?.seconds ?? 0).rounded())) s; showing its fallback until one comes")
      } catch {
        reports.warning("zone '\(zone)': its fallback cannot be shown: \(error)")
      }
    }
  }

  /// Whether live content is within its lifetime at monotonic time `now`: its last update,
  /// or each topic its messages name (since its last value, or since the content came when
  /// none has), is younger than the lifetime.
  func isFresh(_ lifetime: Lifetime, at now: Double) -> Bool {
    let topics = lifetime.liveMessages.flatMap(LiveValues.topics)
    guard !topics.isEmpty else { return now - lifetime.updated < lifetime.seconds }
    return topics.allSatisfy { topic in now - (values.value(topic)?.received ?? lifetime.updated) < lifetime.seconds }
  }

  /// A topic's new value (an MQTT message): zones whose messages name it are made again
  /// with it, at their next message boundary; a stale zone whose topics are all fresh again
  /// shows its live messages at once.
  package func take(topic: String, payload: String) {
    let now = clock.monotonic()
    let changed = values.set(topic, payload: payload, received: now)
    let work = state.withLock { state in
      zoneNames.compactMap { zone -> (zone: String, messages: [String], revive: Bool)? in
        if let lifetime = state.lifetimes[zone], lifetime.stale {
          guard lifetime.liveMessages.contains(where: { LiveValues.topics(in: $0).contains(topic) }), isFresh(lifetime, at: now) else { return nil }
          return (zone, lifetime.liveMessages, true)
        }
        guard changed, let messages = state.options[zone]?.messages, messages.contains(where: { LiveValues.topics(in: $0).contains(topic) }) else {
          return nil
        }
        return (zone, messages, false)
      }
    }
    var updates: [Update] = []
    for (zone, messages, revive) in work {
      do {
        var update = try prepare(zone: zone, messages: messages, fields: nil, immediately: revive, pause: nil)
        update.refreshes = true
        update.revives = revive
        updates.append(update)
        if revive { reports.notice("Zone '\(zone)': \(topic) is live again") }
      } catch {
        reports.warning("zone '\(zone)': the value of \(topic) cannot be shown: \(error)")
      }
    }
    if !updates.isEmpty { commit(updates) }
  }

  /// How many updates were committed: it changes with every change of content or options
  /// (a fallback put up included).
  package var updateCount: Int { state.withLock { $0.received } }

  /// The topics the zones' messages name in placeholders now (live content kept while a
  /// zone shows its fallback included), and a number that changes whenever they may have.
  package func placeholderTopics() -> (version: Int, topics: [String]) {
    state.withLock { state in
      var topics: [String] = []
      let messages = zoneNames.flatMap { zone in (state.options[zone]?.messages ?? []) + (state.lifetimes[zone]?.liveMessages ?? []) }
      for message in messages where message.contains("{mqtt:") {
        for topic in LiveValues.topics(in: message) where !topics.contains(topic) { topics.append(topic) }
      }
      return (state.received, topics)
    }
  }

  /// Replaces every zone's content and options with `zones` (a reloaded config), which must
  /// name the same zones; nothing changes if any zone fails.
  package func reset(to zones: [ZoneSpec]) throws {
    guard zones.map(\.name).sorted() == zoneNames.sorted() else {
      throw ContentError.zonesChanged(from: zoneNames, to: zones.map(\.name))
    }
    let previous = state.withLock { ($0.initial, $0.initialFonts) }
    var updates: [Update] = []
    do {
      for zone in zones {
        state.withLock { $0.initial[zone.name] = zone.options }
        var update = try prepare(
          zone: zone.name, messages: zone.options.messages, fields: nil, immediately: true, pause: nil, replacing: true)
        update.isBase = true
        state.withLock { $0.initialFonts[zone.name] = update.fonts ?? [] }
        updates.append(update)
      }
    } catch {
      state.withLock { ($0.initial, $0.initialFonts) = previous }
      throw error
    }
    commit(updates)
  }

  /// The sign's t = 0 in Unix time that `{time}` placeholders count from (moved when the
  /// wall clock is set).
  package var clockStart: Double? { state.withLock { $0.clockStart } }

  /// Each zone's options now (what updates have made of them).
  public var currentOptions: [String: ZoneOptions] { state.withLock { $0.options } }

  /// Takes the notifications and dismissals lines asked for, in order.
  func drainNotices() -> [Notice] {
    state.withLock { state in
      guard !state.notices.isEmpty else { return [] }
      defer { state.notices.removeAll() }
      return state.notices
    }
  }

  /// Takes what waits to be applied, oldest zone first.
  func drain() -> [(String, Pending)] {
    state.withLock { state in
      let taken = state.order.compactMap { zone in state.pending[zone].map { (zone, $0) } }
      state.pending.removeAll(keepingCapacity: true)
      state.order.removeAll(keepingCapacity: true)
      return taken
    }
  }

  /// Blocks until the first line has been read or input ended.
  package func waitForFirstLine() {
    while !stop.isSet {
      let ready = state.withLock { $0.received > 0 || $0.ended }
      if ready { return }
      usleep(2000)
    }
  }
}

/// A sign fed by a ``Feed``: before each frame, the updates waiting are applied at that
/// frame's time.
public struct FedSign: Timeline {
  let controller: SignController
  let feed: Feed

  package init(controller: SignController, feed: Feed) {
    self.controller = controller
    self.feed = feed
  }
  public var width: Int { controller.width }
  public var height: Int { controller.height }

  public func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace) {
    for (zone, pending) in feed.drain() {
      do {
        if let content = pending.content {
          try controller.replaceContent(content, inZone: zone, at: t, immediately: pending.immediately)
        }
        if let pause = pending.pause {
          if pause { try controller.pause(zone: zone, at: t) } else { try controller.resume(zone: zone, at: t) }
        }
      } catch {
        feed.reports.warning("zone '\(zone)': \(error), update skipped")
      }
    }
    for notice in feed.drainNotices() {
      do {
        if let notification = notice.notification {
          let id = try controller.notify(notification, at: t)
          if notice.wakes, let end = controller.sign.notifications.plan.last(where: { $0.id == id })?.end {
            feed.tap.withLock { $0 }?.wake(forSeconds: end - t)
          }
        } else {
          controller.dismiss(notification: notice.dismiss, at: t)
        }
      } catch {
        feed.reports.warning("notification: \(error), not shown")
      }
    }
    controller.render(at: t, into: &frame, workspace: &workspace)
  }

  public func nextChange(after t: Double) -> Double? {
    controller.nextChange(after: t)
  }
}

/// Reads lines from a file descriptor, bounding each line's length.
package struct LineReader {
  package enum Line {
    case text(String)
    case tooLong
  }

  let descriptor: Int32
  let maximumLength: Int
  var buffer: [UInt8] = []
  var start = 0
  var ended = false

  package init(descriptor: Int32, maximumLength: Int) {
    self.descriptor = descriptor
    self.maximumLength = maximumLength
  }

  package mutating func next() -> Line? {
    var skipping = false
    while true {
      if let newline = buffer[start...].firstIndex(of: 0x0A) {
        let bytes = buffer[start..<newline]
        start = newline + 1
        if skipping { return .tooLong }
        // Invalid UTF-8 becomes U+FFFD.
        return .text(String(decoding: bytes, as: UTF8.self))
      }
      if buffer.count - start > maximumLength {
        skipping = true
        buffer.removeAll(keepingCapacity: true)
        start = 0
      }
      if ended {
        guard start < buffer.count else { return nil }
        let bytes = buffer[start...]
        start = buffer.count
        return skipping ? .tooLong : .text(String(decoding: bytes, as: UTF8.self))
      }
      if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = retryingOnInterrupt { chunk.withUnsafeMutableBytes { FileBytes.read(descriptor, into: $0.baseAddress!, count: $0.count) } }
      if count <= 0 {
        ended = true
        continue
      }
      buffer += chunk[0..<count]
    }
  }
}


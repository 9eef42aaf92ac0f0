import Platform
import BitmapFonts
import Marquee
import MatrixCore
import SimpleJSON
import Synchronization

/// The content compiler: a content document (a feed line, a zone of a request, a
/// program) checked whole against the option model, the fonts, the topics and the zone's
/// size, and built into an update, nothing applied until it is committed.
extension Feed {
  /// A content document's zone documents: each of `{"zones": [document, …]}`, or the
  /// document itself (one zone's).
  static func zoneDocuments(_ document: JSONValue) throws(JSONFieldError) -> [JSONFields] {
    let fields = try JSONFields(document)
    guard fields.value["zones"] != nil else { return [fields] }
    try fields.rejectUnknownKeys(["zones"])
    return try fields.objects("zones") ?? []
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
    /// A fallback put up for live content gone stale: the zone's lifetime (and its live
    /// messages, whose topics stay subscribed) is kept, marked stale, in the same commit.
    var fallsBack = false
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
      throw SignRefusal.placementInUpdate(field: fields.name(key), key: key)
    }
    try fields.rejectUnknownKeys(LayoutFile.contentKeys + ["zone", "message", "immediately", "pause", "lifetime", "fallback"])
    let zone = try fields.string("zone") ?? firstZone
    guard zoneNames.contains(zone) else {
      throw SignRefusal.noSuchZone(field: fields.name("zone"), name: zone, zones: zoneNames)
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
      } catch let failed as SignFailure where fields?.optional("font") != nil {
        // A font the document chose that cannot be read: refused at its field, so another
        // can be chosen (the sign's own fonts failing is the machine's failure).
        throw JSONFieldError(field: fields?.name("font") ?? "font", reason: failed.message)
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
        // A bad value someone sent, at its field: not a failure of the machine.
        throw JSONFieldError(field: fields.map { $0.name($0.value["message"] != nil ? "message" : "messages") } ?? "messages", reason: error.message)
      }
      try checkTopics(messages, zone: zone, fields: fields)
      try checkSources(messages, fields: fields)
      options.messages = messages
    }
    if let fields {
      // The colours of an RGB board's zones are set up with the display, before any line.
      if fields.optional("color") != nil {
        throw SignRefusal.colorInUpdate(field: fields.name("color"))
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

  /// Refuses messages whose `{source:NAME}` names a source the config does not declare:
  /// it would never show anything.
  func checkSources(_ messages: [String], fields: JSONFields?) throws(JSONFieldError) {
    guard messages.contains(where: { $0.contains("{source:") }) else { return }
    let declared = values.declaredSources
    for (index, message) in messages.enumerated() {
      for name in LiveValues.sourceNames(in: message) where !declared.contains(name) {
        let field = fields.map { $0.value["messages"] != nil ? $0.name("messages") + "[\(index)]" : $0.name("message") } ?? "messages[\(index)]"
        throw JSONFieldError(
          field: field,
          reason: "{source:\(name)} names no source of this sign" + (declared.isEmpty ? " (its config has no \"sources\")" : " (its sources are \(declared.joined(separator: ", ")))"))
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
      throw SignRefusal.doesNotFit(field: fields?.name(key) ?? key, zone: zone, width: size.width, height: size.height, reason: "\(error)")
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
}

import Platform
import MatrixCore
import Marquee
import MQTT
import SimpleJSON
import Synchronization
import SignService

/// `marquee serve --mqtt`: the sign on an MQTT broker, under one topic prefix.
///
/// It takes what the API takes, each on its topic: `PREFIX/content` (a `PATCH /api/content`
/// document), `PREFIX/message` (plain text, shown at once), `PREFIX/notify` (a `POST
/// /api/notify` document, or plain text), `PREFIX/dismiss` (a notification's number, or
/// empty for all), `PREFIX/brightness` (0-15, or
/// `{"brightness": n}`), `PREFIX/pause` (`ON`/`OFF`, `true`/`false`), `PREFIX/power`
/// (`ON`/`OFF`), `PREFIX/program` (a program's name; empty: the schedule's). Each becomes
/// the session's own ``SignCommand``, checked as the API's are, on the session's queue; a
/// payload that fails is refused with its reason in the sign's reports and changes nothing. Commands wait in a
/// bounded inbox, never on the queue itself: only the newest of each topic waits (a flood of
/// brightness is one brightness), notifications and dismissals up to
/// ``waitingNotificationLimit``, and one job at a time drains it, so the API's own writes
/// are answered in their normal time during a flood. What was replaced or dropped is
/// counted in `/api/stats`. Placeholders in content from MQTT may read only the topics
/// `--mqtt-values` allows (the sign's own prefix by default): a client that may write the
/// sign's content cannot read another topic through it. Content from MQTT is
/// live data and is not written to the state file (SD cards wear); the rest is, as a person's
/// change (a program chosen from Home Assistant is kept until its stretch ends). The sign publishes `PREFIX/state` (retained: the body of `GET /api/state`)
/// after each change, and `PREFIX/status` (`online`; the broker's last will says `offline`).
/// It subscribes to each topic a message names in a placeholder (`{mqtt:TOPIC}`) as the
/// message comes, and hands the topic's values to the feed (``Feed/take(topic:payload:)``).
public final class MQTTBridge: Sendable {
  let session: SignSession
  let stats: ServeStats
  let prefix: String
  let client: MQTTClient
  let discovery: HomeAssistantDiscovery?
  let stopped = Atomic<Bool>(false)
  /// Commands waiting for the session's queue (with the topic they came on), and whether
  /// a job to drain them is queued.
  let inbox = Mutex<(waiting: [Waiting], scheduled: Bool)>(([], false))

  /// A command waiting for the session's queue as its source sent it (the layers are
  /// applied when it is performed), the topic it came on, and whether it was retained.
  struct Waiting {
    var command: SignCommand
    var topic: String
    var source: Int?
    var retained: Bool
  }
  /// The most commands waiting at once (content a source sent that cannot be merged with
  /// what it sent before waits apart); more are dropped and counted.
  static let waitingLimit = 64
  /// The most notifications and dismissals waiting at once; more are dropped and counted.
  static let waitingNotificationLimit = 16
  /// The topic filters placeholders in MQTT's content may read.
  let valueFilters: [String]
  /// The group prefixes the sign also takes commands on, in order (``Layers``).
  let groups: [String]
  /// What each source (the sign's own prefix, each group) last said, by kind.
  let layers = Mutex(Layers())

  /// The topics the sign takes, after the prefix.
  static let commands = ["content", "message", "notify", "dismiss", "brightness", "pause", "power", "program"]

  public init(
    session: SignSession, stats: ServeStats, address: MQTTAddress, prefix: String, discovery: Bool, clientID: String,
    valueFilters: [String], version: String, groups: [String] = []
  ) {
    self.session = session
    self.stats = stats
    self.prefix = prefix
    self.valueFilters = valueFilters
    self.groups = groups
    layers.withLock { $0.groupCount = groups.count }
    var configuration = MQTTClient.Configuration(host: address.host, port: address.port, clientID: clientID)
    configuration.username = address.username
    configuration.password = address.password
    configuration.will = .init(topic: prefix + "/status", payload: Array("offline".utf8), qos: 1, retain: true)
    configuration.greeting = .init(topic: prefix + "/status", payload: Array("online".utf8), qos: 1, retain: true)
    // The groups' topics first, in their order, then the sign's own: at each connect the
    // broker hands the retained messages in that order.
    configuration.subscriptions = (groups + [prefix]).flatMap { group in MQTTBridge.commands.map { group + "/" + $0 } }
    configuration.clock = session.clock
    let inbox = Inbox()
    let reports = session.reports
    stats.counts.withLock { $0.broker = "mqtt://\(HostPort(host: address.host, port: address.port))" }
    client = MQTTClient(configuration, onMessage: { inbox.deliver($0) }, onEvent: { event in
      switch event {
      case .connected:
        let now = session.clock.wall()
        stats.counts.withLock {
          $0.connected = true
          $0.connectedSince = now
          $0.connections += 1
        }
        reports.notice("MQTT: connected to \(address.host):\(address.port), topics under \(prefix)/")
        // The state goes out at once.
        session.changes.signal()
      case .disconnected(let reason, let retry):
        stats.counts.withLock {
          $0.lastError = reason
          if retry > 0 { $0.connected = false }
        }
        reports.notice("MQTT: \(reason)" + (retry > 0 ? "; trying again in \(retry) s" : ""))
      case .skipped(let topic, let bytes):
        let say = stats.counts.withLock { counts in
          counts.oversized += 1
          return counts.oversized == 1 || counts.oversized % 100 == 0
        }
        // Said the first time, then every hundredth: a flood of them must not flood the log.
        if say { reports.notice("MQTT \(topic): a message of \(bytes) bytes, over the limit of \(MQTTDecoder.defaultLimit / 1024) KiB; skipped") }
      }
      inbox.connected(event == .connected)
    })
    self.discovery = discovery ? HomeAssistantDiscovery(prefix: prefix, session: session, version: version) : nil
    inbox.bridge.withLock { $0 = self }
  }

  /// Hands the client's messages and connects to the bridge once it exists.
  final class Inbox: Sendable {
    let bridge = Mutex<MQTTBridge?>(nil)
    func deliver(_ message: MQTTPacket.Message) { bridge.withLock { $0 }?.take(message) }
    func connected(_ yes: Bool) { if yes { bridge.withLock { $0 }?.announce() } }
  }

  /// Connects, and publishes the state whenever it changes, on threads of their own.
  public func start() {
    client.start()
    DetachedThread.start { [self] in
      var published = ""
      var looked: StateMarks?
      var subscribed: Int?
      var showsTime = false
      var seen = -1
      let waiter = ChangeSignal.Waiter()
      while !stopped.load(ordering: .acquiring) {
        // Woken by a change to what the sign shows, at once; at least every second (the
        // minute of a clock, the connection's state).
        seen = session.changes.wait(after: seen, timeout: 1, as: waiter)
        if stopped.load(ordering: .acquiring) { return }
        // Topics new messages name: subscribed to at once (or at the next connect).
        let sign = session.marks
        if subscribed != sign.updates {
          subscribed = sign.updates
          client.setSubscriptions(session.placeholderTopics())
          showsTime = session.showsTime
        }
        guard client.isConnected else {
          published = ""
          looked = nil
          continue
        }
        // After each change at once: nothing is made (nor allocated) until one of the
        // marks moves.
        let (refused, connections) = stats.counts.withLock { ($0.refused, $0.connections) }
        let marks = StateMarks(sign: sign, refused: refused, connections: connections, minute: showsTime ? Int(session.clock.wall() / 60) : 0)
        guard marks != looked else { continue }
        // A new connection (even one made and lost between two wakes) may meet a broker
        // that lost its retained state: the state goes out again whatever it was.
        if marks.connections != looked?.connections { published = "" }
        looked = marks
        let text = publishedState().text
        if text != published, client.publish(.init(topic: prefix + "/state", payload: Array(text.utf8), qos: 0, retain: true)) {
          published = text
          stats.counts.withLock { $0.published += 1 }
          discovery?.refresh(client)
        }
      }
    }
  }

  /// The state as `PREFIX/state` carries it: `GET /api/state`'s, with `mqtt`: since when the
  /// sign is connected and the last payload it refused (for `marquee fleet`).
  func publishedState() -> JSONValue {
    guard case .object(let members) = session.state() else { return session.state() }
    let (since, refusal) = stats.counts.withLock { ($0.connectedSince, $0.lastRefusal) }
    return .object(members + [("mqtt", .object([
      ("connectedSince", since.map(SignSession.moment) ?? .null), ("lastRefusal", refusal.map { .string($0) } ?? .null),
    ]))])
  }

  /// What the state's changes move, read without making anything: the sign's marks, the
  /// minute when messages show the time, the payloads refused (the state carries the last)
  /// and the connections made (the state carries when the current one began). A wake that
  /// moved none of them makes nothing.
  struct StateMarks: Equatable {
    var sign: SignSession.Marks, refused: Int, connections: Int, minute: Int
  }

  /// Disconnects (the status is set to `offline` first: a clean disconnect has no will).
  public func stop() {
    stopped.store(true, ordering: .releasing)
    session.changes.signal()
    client.publish(.init(topic: prefix + "/status", payload: Array("offline".utf8), qos: 0, retain: true))
    client.stop()
  }

  /// After each connect: Home Assistant's discovery documents.
  func announce() {
    discovery?.announce(client)
  }

  /// One message from the broker: a placeholder's value goes to the feed at once; a
  /// command is read into the session's command and waits in the inbox (the newest of its
  /// kind replacing the one before) for the job that performs them on the session's queue.
  func take(_ message: MQTTPacket.Message) {
    let text = String(decoding: message.payload, as: UTF8.self).trimmingWhitespace
    guard let (source, topic) = commandTopic(message.topic) else {
      // A placeholder's topic: its value, shown by the zones that name it.
      session.take(topic: message.topic, payload: text)
      return
    }
    var command: SignCommand
    do {
      command = try MQTTBridge.command(topic, text)
    } catch {
      refused(message.topic, SignRefusal(from: error))
      return
    }
    let waiting = Waiting(command: command, topic: message.topic, source: source, retained: message.retain)
    let schedule = inbox.withLock { inbox -> Bool in
      if !command.coalesces {
        guard inbox.waiting.count(where: { !$0.command.coalesces }) < MQTTBridge.waitingNotificationLimit else {
          stats.counts.withLock { $0.dropped += 1 }
          return false
        }
        inbox.waiting.append(waiting)
      } else if let index = inbox.waiting.lastIndex(where: { $0.command.kind == command.kind && $0.source == source }) {
        // The newest of a source's kind counts; a source's content documents are merged,
        // as its layer would merge them.
        var newer = waiting
        if case .content(let older, _) = inbox.waiting[index].command, case .content(let document, let replacing) = command {
          guard let both = Layers.combined(older, document) else { return appended(waiting, to: &inbox.waiting) }
          newer.command = .content(both, replacing: replacing)
        }
        inbox.waiting.remove(at: index)
        inbox.waiting.append(newer)
        stats.counts.withLock { $0.replaced += 1 }
      } else if !appended(waiting, to: &inbox.waiting) {
        return false
      }
      defer { inbox.scheduled = true }
      return !inbox.scheduled
    }
    if schedule { session.onQueue { [self] in drain() } }
  }

  /// Appends `waiting` to the inbox unless it is full (then it is dropped and counted).
  func appended(_ waiting: Waiting, to list: inout [Waiting]) -> Bool {
    guard list.count < MQTTBridge.waitingLimit else {
      stats.counts.withLock { $0.dropped += 1 }
      return false
    }
    list.append(waiting)
    return true
  }

  /// The source (nil: the sign's own prefix; else a group's index) and command of a
  /// command topic, or nil for any other topic.
  func commandTopic(_ topic: String) -> (source: Int?, command: String)? {
    for (source, prefix) in [(Int?.none, prefix)] + groups.enumerated().map({ (Int?.some($0), $1) }) where topic.hasPrefix(prefix + "/") {
      let command = String(topic.dropFirst(prefix.count + 1))
      if MQTTBridge.commands.contains(command) { return (source, command) }
    }
    return nil
  }

  /// Performs what waits in the inbox, in the order it came, on the session's queue.
  func drain() {
    let taken = inbox.withLock { inbox in
      defer { inbox = ([], false) }
      return inbox.waiting
    }
    for waiting in taken {
      // The layers as they would be with this command: swapped in only if the sign takes
      // what they make, so a refused payload leaves every layer as it was.
      var candidate = layers.withLock { $0 }
      guard let command = candidate.take(waiting.command, from: waiting.source, retained: waiting.retained) else {
        stats.counts.withLock { $0.overridden += 1 }
        continue
      }
      // Content is live data (not kept); the rest is a person's change. Placeholders in
      // what MQTT sends read only the allowed topics.
      let live = { if case .content = command { true } else { false } }()
      switch session.performOnQueue(command, from: CommandSource(keeps: !live, valueFilters: valueFilters)) {
      case .success:
        layers.withLock { $0 = candidate }
        stats.counts.withLock { $0.taken += 1 }
      case .failure(let refusal):
        refused(waiting.topic, refusal)
      }
    }
  }

  /// Counts and reports a refused payload.
  func refused(_ topic: String, _ refusal: SignRefusal) {
    stats.counts.withLock { counts in
      counts.refused += 1
      counts.lastRefusal = "\(topic): \(refusal)"
    }
    session.reports.warning("MQTT \(topic): \(refusal); nothing changed")
    // The state topic carries the last refusal.
    session.changes.signal()
  }

  /// A command topic's payload as the session's command.
  static func command(_ topic: String, _ text: String) throws -> SignCommand {
    func json(_ what: String) throws -> JSONValue {
      do {
        return try JSONParser.parse(text)
      } catch {
        throw SignRefusal("expected \(what): \(error)")
      }
    }
    switch topic {
    case "content":
      return .content(try json("a content document (JSON, as PATCH /api/content takes)"), replacing: false)
    case "message":
      return .content(.object([("messages", .array([.string(text)])), ("immediately", .bool(true))]), replacing: false)
    case "notify":
      // Plain text is one message; JSON that does not parse is refused as the API refuses it.
      guard text.hasPrefix("{") else { return .notify(.object([("messages", .array([.string(text)]))])) }
      return .notify(try json("a notification document (JSON, as POST /api/notify takes)"))
    case "dismiss":
      guard !text.isEmpty else { return .dismiss(id: nil) }
      guard let id = Int(text), id > 0 else { throw SignRefusal("expected a notification's number, or nothing for all, got '\(text.prefix(40))'") }
      return .dismiss(id: id)
    // A bare number or word is the document it stands for, read as the API reads it.
    case "brightness":
      let level = BrightnessLevel.range
      return try .brightness(Double(text).map { .object([("brightness", .number($0))]) } ?? json("a brightness from \(level.lowerBound) to \(level.upperBound)"))
    case "pause":
      guard let on = MQTTBridge.switchValue(text) else { throw SignRefusal("expected ON or OFF (or true or false), got '\(text.prefix(40))'") }
      return .pause(zone: nil, on)
    case "power":
      if text.hasPrefix("{") { return try .power(try json("ON, OFF or {\"on\": true}")) }
      guard let on = MQTTBridge.switchValue(text) else { throw SignRefusal("expected ON or OFF (or true or false), got '\(text.prefix(40))'") }
      return try .power(.object([("on", .bool(on))]))
    case "program":
      if text.hasPrefix("\""), case .string(let quoted)? = try? JSONParser.parse(text) { return try .program(.object([("name", .string(quoted))])) }
      return try .program(.object([("name", text.isEmpty ? .null : .string(text))]))
    default:
      throw SignRefusal("no such command topic")
    }
  }


  static func switchValue(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "on", "true", "1": true
    case "off", "false", "0": false
    default: nil
    }
  }

  /// `marquee/<hostname>`: this machine's name, lower case, made topic-safe.
  public static func defaultPrefix() -> String {
    let name = (Environment.hostName() ?? "").lowercased()
    let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
    return "marquee/" + (safe.isEmpty ? "sign" : safe)
  }
}

import Platform
import MatrixCore
import HTTP
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
/// (`ON`/`OFF`), `PREFIX/program` (a program's name; empty: the schedule's). Each goes
/// through the same checks as the API, on the API's writes queue; a payload that fails
/// is refused with its reason on standard error and changes nothing. Commands wait in a
/// bounded inbox, never on the queue itself: only the newest of each topic waits (a flood of
/// brightness is one brightness), notifications and dismissals up to
/// ``waitingNotificationLimit``, and one job at a time drains it, so the API's own writes
/// are answered in their normal time during a flood. What was replaced or dropped is
/// counted in `/api/stats`. Placeholders in content from MQTT may read only the topics
/// `--mqtt-values` allows (the sign's own prefix by default): a client that may write the
/// sign's content cannot read another topic through it. Content from MQTT is
/// live data and is not written to the state file (SD cards wear); the rest is, as a person's
/// change. The sign publishes `PREFIX/state` (retained: the body of `GET /api/state`)
/// after each change, and `PREFIX/status` (`online`; the broker's last will says `offline`).
/// It subscribes to each topic a message names in a placeholder (`{mqtt:TOPIC}`) as the
/// message comes, and hands the topic's values to the feed (``Feed/take(topic:payload:)``).
final class MQTTBridge: Sendable {
  let api: SignAPI
  let prefix: String
  let client: MQTTClient
  let discovery: HomeAssistantDiscovery?
  let stopped = Atomic<Bool>(false)
  /// Commands waiting for the writes queue, and whether a job to drain them is queued.
  let inbox = Mutex<(waiting: [(command: String, text: String, topic: String)], scheduled: Bool)>(([], false))
  /// The most notifications and dismissals waiting at once; more are dropped and counted.
  static let waitingNotificationLimit = 16
  /// The topic filters placeholders in MQTT's content may read.
  let valueFilters: [String]

  /// The topics the sign takes, after the prefix.
  static let commands = ["content", "message", "notify", "dismiss", "brightness", "pause", "power", "program"]

  init(api: SignAPI, address: MQTTAddress, prefix: String, discovery: Bool, clientID: String, valueFilters: [String]) {
    self.api = api
    self.prefix = prefix
    self.valueFilters = valueFilters
    var configuration = MQTTClient.Configuration(host: address.host, port: address.port, clientID: clientID)
    configuration.username = address.username
    configuration.password = address.password
    configuration.will = .init(topic: prefix + "/status", payload: Array("offline".utf8), qos: 1, retain: true)
    configuration.greeting = .init(topic: prefix + "/status", payload: Array("online".utf8), qos: 1, retain: true)
    configuration.subscriptions = MQTTBridge.commands.map { prefix + "/" + $0 }
    let inbox = Inbox()
    let counting = api
    client = MQTTClient(configuration, onMessage: { inbox.deliver($0) }, onEvent: { event in
      switch event {
      case .connected: printError("MQTT: connected to \(address.host):\(address.port), topics under \(prefix)/")
      case .disconnected(let reason, let retry):
        counting.mqttCounts.withLock { $0.lastError = reason }
        printError("MQTT: \(reason)" + (retry > 0 ? "; trying again in \(retry) s" : ""))
      case .skipped(let topic, let bytes):
        let say = counting.mqttCounts.withLock { counts in
          counts.oversized += 1
          return counts.oversized == 1 || counts.oversized % 100 == 0
        }
        // Said the first time, then every hundredth: a flood of them must not flood the log.
        if say { printError("MQTT \(topic): a message of \(bytes) bytes, over the limit of \(MQTTDecoder.defaultLimit / 1024) KiB; skipped") }
      }
      inbox.connected(event == .connected)
    })
    self.discovery = discovery ? HomeAssistantDiscovery(prefix: prefix, api: api) : nil
    inbox.bridge.withLock { $0 = self }
  }

  /// Hands the client's messages and connects to the bridge once it exists.
  final class Inbox: Sendable {
    let bridge = Mutex<MQTTBridge?>(nil)
    func deliver(_ message: MQTTPacket.Message) { bridge.withLock { $0 }?.take(message) }
    func connected(_ yes: Bool) { if yes { bridge.withLock { $0 }?.announce() } }
  }

  /// Connects, and publishes the state whenever it changes, on threads of their own.
  func start() {
    client.start()
    DetachedThread.start { [self] in
      var published = ""
      var looked: StateMarks?
      var updates = -1
      var showsTime = false
      while !stopped.load(ordering: .acquiring) {
        usleep(50_000)
        // Topics new messages name: subscribed to at once (or at the next connect).
        if api.feed.updateCount != updates {
          let (count, topics) = api.feed.placeholderTopics()
          updates = count
          client.setSubscriptions(topics)
          showsTime = api.feed.currentOptions.values.contains { $0.messages.contains { TextTemplate($0).isDynamic } }
        }
        guard client.isConnected else {
          published = ""
          looked = nil
          continue
        }
        // After each change at once: nothing is made (nor allocated) until one of the
        // marks moves.
        let marks = StateMarks(api, showsTime: showsTime)
        guard marks != looked else { continue }
        looked = marks
        let text = api.state().text
        if text != published, client.publish(.init(topic: prefix + "/state", payload: Array(text.utf8), qos: 0, retain: true)) {
          published = text
          api.mqttCounts.withLock { $0.published += 1 }
          discovery?.refresh(client)
        }
      }
    }
  }

  /// What the state's changes move, read without making anything: the API's changes, the
  /// feed's updates, the schedule's program, brightness and off period, and the minute
  /// when messages show the time.
  struct StateMarks: Equatable {
    var version: Int, updates: Int, level: Int, off: Bool, program: String?, minute: Int

    init(_ api: SignAPI, showsTime: Bool) {
      version = api.counters.withLock { $0.stateVersion }
      updates = api.feed.updateCount
      level = api.frames.level
      off = api.frames.off
      program = api.pump?.current?.program
      minute = showsTime ? Int(LocalTime.now() / 60) : 0
    }
  }

  /// Disconnects (the status is set to `offline` first: a clean disconnect has no will).
  func stop() {
    stopped.store(true, ordering: .releasing)
    client.publish(.init(topic: prefix + "/status", payload: Array("offline".utf8), qos: 0, retain: true))
    client.stop()
  }

  /// After each connect: Home Assistant's discovery documents.
  func announce() {
    discovery?.announce(client)
  }

  /// One message from the broker: a placeholder's value goes to the feed at once; a
  /// command waits in the inbox (the newest of its topic replacing the one before) for the
  /// job that applies them on the API's writes queue.
  func take(_ message: MQTTPacket.Message) {
    let command = message.topic.hasPrefix(prefix + "/") ? String(message.topic.dropFirst(prefix.count + 1)) : ""
    let text = MQTTBridge.trimmed(String(decoding: message.payload, as: UTF8.self))
    guard MQTTBridge.commands.contains(command) else {
      // A placeholder's topic: its value, shown by the zones that name it.
      api.feed.take(topic: message.topic, payload: text)
      return
    }
    let schedule = inbox.withLock { inbox -> Bool in
      if command == "notify" || command == "dismiss" {
        guard inbox.waiting.count(where: { $0.command == "notify" || $0.command == "dismiss" }) < MQTTBridge.waitingNotificationLimit else {
          api.mqttCounts.withLock { $0.dropped += 1 }
          return false
        }
      } else if let index = inbox.waiting.firstIndex(where: { $0.command == command }) {
        inbox.waiting.remove(at: index)
        api.mqttCounts.withLock { $0.replaced += 1 }
      }
      inbox.waiting.append((command, text, message.topic))
      defer { inbox.scheduled = true }
      return !inbox.scheduled
    }
    if schedule { api.writes.async { [self] in drain() } }
  }

  /// Applies what waits in the inbox, in the order it came, on the writes queue.
  func drain() {
    let taken = inbox.withLock { inbox in
      defer { inbox = ([], false) }
      return inbox.waiting
    }
    for (command, text, topic) in taken {
      let response: HTTPResponse
      do {
        response = try apply(command, text)
      } catch let error as JSONFieldError {
        response = .error(400, "\(error.field): \(error.reason)")
      } catch {
        response = .error(400, "\(error)")
      }
      if response.status == 200 {
        api.mqttCounts.withLock { $0.taken += 1 }
      } else {
        var reason = "status \(response.status)"
        if case .string(let text)? = (try? JSONParser.parse(String(decoding: response.body, as: UTF8.self)))?["error"] { reason = text }
        api.mqttCounts.withLock { counts in
          counts.refused += 1
          counts.lastRefusal = "\(topic): \(reason)"
        }
        printError("MQTT \(topic): \(reason); nothing changed")
      }
    }
  }

  /// A command as the API call it is.
  func apply(_ command: String, _ text: String) throws -> HTTPResponse {
    func request(_ json: JSONValue) -> HTTPRequest { MQTTBridge.request(json.text) }
    // Content from MQTT reads only the topics the owner allows (--mqtt-values).
    func checked(_ document: JSONValue) throws -> HTTPRequest {
      try LiveValues.checkTopics(in: document, allowed: valueFilters)
      return request(document)
    }
    switch command {
    case "content":
      let document: JSONValue
      do {
        document = try JSONParser.parse(text)
      } catch {
        throw MQTTBridge.Refusal("expected a content document (JSON, as PATCH /api/content takes): \(error)")
      }
      return api.content(try checked(document), replacing: false, persist: false)
    case "message":
      return api.content(try checked(.object([("messages", .array([.string(text)])), ("immediately", .bool(true))])), replacing: false, persist: false)
    case "notify":
      // Plain text is one message; JSON that does not parse gets the API's own refusal.
      guard text.hasPrefix("{") else { return api.notify(try checked(.object([("messages", .array([.string(text)]))]))) }
      guard let document = try? JSONParser.parse(text) else { return api.notify(MQTTBridge.request(text)) }
      return api.notify(try checked(document))
    case "dismiss":
      var path = "/api/notify"
      if !text.isEmpty {
        guard let id = Int(text), id > 0 else { throw MQTTBridge.Refusal("expected a notification's number, or nothing for all, got '\(text.prefix(40))'") }
        path += "/\(id)"
      }
      return api.dismiss(HTTPRequest(method: "DELETE", path: path))
    case "brightness":
      if let level = Double(text) { return api.brightness(request(.object([("brightness", .number(level))]))) }
      return api.brightness(MQTTBridge.request(text))
    case "pause":
      guard let on = MQTTBridge.switchValue(text) else { throw MQTTBridge.Refusal("expected ON or OFF (or true or false), got '\(text.prefix(40))'") }
      return api.pause(MQTTBridge.request(""), on)
    case "power":
      if text.hasPrefix("{") { return api.power(MQTTBridge.request(text)) }
      guard let on = MQTTBridge.switchValue(text) else { throw MQTTBridge.Refusal("expected ON or OFF (or true or false), got '\(text.prefix(40))'") }
      return api.power(request(.object([("on", .bool(on))])))
    case "program":
      var name: JSONValue = text.isEmpty ? .null : .string(text)
      if text.hasPrefix("\""), case .string(let quoted)? = try? JSONParser.parse(text) { name = .string(quoted) }
      return api.chooseProgram(request(.object([("name", name)])))
    default:
      throw MQTTBridge.Refusal("no such command topic")
    }
  }

  struct Refusal: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  static func trimmed(_ text: String) -> String {
    String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }

  static func switchValue(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "on", "true", "1": true
    case "off", "false", "0": false
    default: nil
    }
  }

  static func request(_ body: String) -> HTTPRequest {
    HTTPRequest(method: "POST", path: "/mqtt", headers: ["content-type": "application/json"], body: Array(body.utf8))
  }

  /// `marquee/<hostname>`: this machine's name, lower case, made topic-safe.
  static func defaultPrefix() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    gethostname(&buffer, buffer.count - 1)
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
    let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
    return "marquee/" + (safe.isEmpty ? "sign" : safe)
  }
}

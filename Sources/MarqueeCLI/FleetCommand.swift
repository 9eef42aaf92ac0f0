import MQTT
import Marquee
import Platform
import SignService
import SimpleJSON
import Synchronization

/// `marquee fleet`: every sign a broker knows, from the retained `PREFIX/status` (online,
/// or the last will's offline) and `PREFIX/state` (what `marquee serve --mqtt` publishes),
/// as a table, or a JSON array for scripts; `--watch` keeps the table current.
public struct FleetCommand: Sendable, Equatable {
  var address: MQTTAddress
  /// The topic level under which the signs' prefixes are (`marquee`: `marquee/shop/status`).
  var prefix = "marquee"
  var watch = false
  var json = false

  /// The most signs listed (the memory a broker can make the view hold is bounded).
  static let signLimit = 10_000

  static let usage = "marquee fleet --mqtt <mqtt://[user:password@]host[:port]> [--prefix <topic>] [--watch] [--json]"

  static func parse(_ rest: [String]) throws(UsageError) -> FleetCommand {
    var url: String?, prefix = "marquee", watch = false, json = false
    var index = 0
    while index < rest.count {
      let argument = rest[index]
      let value = index + 1 < rest.count ? rest[index + 1] : nil
      switch argument {
      case "--mqtt", "--prefix":
        guard let value else { throw UsageError("'\(argument)' needs a value: \(usage)") }
        if argument == "--mqtt" { url = value } else { prefix = value }
        index += 2
      case "--watch": (watch, index) = (true, index + 1)
      case "--json": (json, index) = (true, index + 1)
      default: throw UsageError("'fleet' does not take '\(argument)': \(usage)")
      }
    }
    guard let url else { throw UsageError("'fleet' needs the broker: \(usage)") }
    if watch && json { throw UsageError("Use '--watch' or '--json', not both.") }
    if let problem = MQTTTopic.prefixProblem(prefix) { throw UsageError("'--prefix \(prefix)': \(problem)") }
    do {
      return FleetCommand(address: try MQTTAddress(url), prefix: prefix, watch: watch, json: json)
    } catch {
      throw UsageError("--mqtt: \(error)")
    }
  }

  /// One sign as the broker's retained topics show it.
  struct Sign: Equatable {
    var name: String
    var status: String?
    var state: JSONValue?

    var online: Bool { status == "online" }
  }

  /// What was heard, by sign name.
  final class Heard: Sendable {
    let signs = Mutex<[String: Sign]>([:])
    let changes = Atomic<Int>(0)
  }

  /// Connects, gathers the retained topics, and prints (again on each change with
  /// `--watch`, until `stop`). Throws ``RuntimeError`` when the broker cannot be reached.
  func run(stop: StopFlag, output: (String) throws -> Void) throws {
    let heard = Heard()
    let name = prefix
    let connection = try BrokerConnection.open(address, tool: "fleet", subscriptions: [prefix + "/#"], stop: stop) { message in
      guard let sign = FleetCommand.signName(message.topic, under: name) else { return }
      let text = String(decoding: message.payload, as: UTF8.self)
      heard.signs.withLock { signs in
        // A broker that names more signs than any fleet has is not believed past the limit.
        guard signs[sign.name] != nil || signs.count < FleetCommand.signLimit else { return }
        var entry = signs[sign.name] ?? Sign(name: sign.name)
        if sign.isStatus { entry.status = text } else { entry.state = try? JSONParser.parse(text) }
        signs[sign.name] = entry
      }
      heard.changes.add(1, ordering: .releasing)
    }
    guard let client = connection else { return }
    defer { client.stop() }
    // The retained messages come right after the subscription: wait until none has come for
    // half a second (6 s at most).
    var seen = -1, quietSince = SystemClock.monotonicSeconds()
    let connected = quietSince
    while !stop.isSet, SystemClock.monotonicSeconds() - quietSince < 0.5, SystemClock.monotonicSeconds() - connected < 6 {
      let now = heard.changes.load(ordering: .acquiring)
      if now != seen { (seen, quietSince) = (now, SystemClock.monotonicSeconds()) }
      usleep(50_000)
    }
    let signs = { heard.signs.withLock { $0.values.sorted { $0.name < $1.name } } }
    if json {
      try output(FleetCommand.json(signs()).text + "\n")
      return
    }
    try output(FleetCommand.table(signs()))
    guard watch else { return }
    var shown = heard.changes.load(ordering: .acquiring)
    while !stop.isSet {
      usleep(200_000)
      let now = heard.changes.load(ordering: .acquiring)
      guard now != shown else { continue }
      shown = now
      try output("\n" + FleetCommand.table(signs()))
    }
  }

  /// The sign a topic is about, and whether it is its status (else its state), for topics
  /// `PREFIX/…/status` and `PREFIX/…/state`.
  static func signName(_ topic: String, under prefix: String) -> (name: String, isStatus: Bool)? {
    guard topic.hasPrefix(prefix + "/") else { return nil }
    for (suffix, isStatus) in [("/status", true), ("/state", false)] where topic.hasSuffix(suffix) {
      let name = String(topic.dropLast(suffix.count))
      return name.count > prefix.count ? (name, isStatus) : nil
    }
    return nil
  }

  /// What each zone shows: `{"zone": ["message", …]}`.
  static func showing(_ state: JSONValue?) -> [(zone: String, messages: [String])] {
    guard case .array(let zones)? = state?["zones"] else { return [] }
    return zones.compactMap { zone in
      guard case .string(let name)? = zone["name"] else { return nil }
      guard case .array(let messages)? = zone["showing"] else { return (name, []) }
      return (name, messages.compactMap { if case .string(let text) = $0 { text } else { nil } })
    }
  }

  static func string(_ value: JSONValue?) -> String? { if case .string(let text)? = value { text } else { nil } }

  /// One object per sign: name, online, since, program, brightness, on, showing, lastRefusal.
  static func json(_ signs: [Sign]) -> JSONValue {
    .array(signs.map { sign in
      let state = sign.state
      var brightness = JSONValue.null, on = JSONValue.null
      if case .number(let level)? = state?["brightness"] { brightness = .number(level) }
      if case .bool(let lit)? = state?["on"] { on = .bool(lit) }
      return .object([
        ("name", .string(sign.name)), ("online", .bool(sign.online)),
        ("since", sign.online ? string(state?["mqtt"]?["connectedSince"]?["local"]).map { .string($0) } ?? .null : .null),
        ("program", string(state?["program"]).map { .string($0) } ?? .null), ("brightness", brightness), ("on", on),
        ("showing", .object(showing(state).map { ($0.zone, .array($0.messages.map { .string($0) })) })),
        ("lastRefusal", string(state?["mqtt"]?["lastRefusal"]).map { .string($0) } ?? .null),
      ])
    })
  }

  /// The signs as a table, one line each.
  static func table(_ signs: [Sign]) -> String {
    guard !signs.isEmpty else { return "No signs under this prefix (none has published its status).\n" }
    let header = ["SIGN", "ONLINE", "PROGRAM", "BRIGHTNESS", "ON", "SHOWING", "LAST REFUSAL"]
    let rows = signs.map { sign -> [String] in
      let state = sign.state
      let online = sign.online ? "online" + (string(state?["mqtt"]?["connectedSince"]?["local"]).map { " since \($0)" } ?? "") : (sign.status ?? "unknown")
      var brightness = "-", on = "-"
      if case .number(let level)? = state?["brightness"] { brightness = String(Int(level)) }
      if case .bool(let lit)? = state?["on"] { on = lit ? "on" : "off" }
      let showing = FleetCommand.showing(state).map { "\($0.zone): \($0.messages.joined(separator: " / "))" }.joined(separator: "; ")
      return [sign.name, online, string(state?["program"]) ?? "-", brightness, on, showing.isEmpty ? "-" : showing, string(state?["mqtt"]?["lastRefusal"]) ?? "-"]
    }
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    return ([header] + rows).map { row in
      row.enumerated().map { column, text in column == row.count - 1 ? text : text + String(repeating: " ", count: widths[column] - text.count) }
        .joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }
}

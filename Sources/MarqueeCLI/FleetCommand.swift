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

  /// One sign as the broker's retained topics show it: only the fields the view shows,
  /// each bounded (``Digest``), never the state a sign published, whatever its size.
  struct Sign: Equatable {
    var name: String
    var status: String?
    var state: Digest?

    var online: Bool { status == "online" }

    mutating func take(_ said: Said) {
      switch said {
      case .status(let text): status = text
      case .state(let digest): state = digest
      }
    }
  }

  /// The fields of a sign's published state the view shows, read from it once and cut to
  /// bounds: ``textLimit`` characters a text, ``showingLimit`` characters of what shows in
  /// all, so that a broker can make the view hold little more than a line per sign.
  struct Digest: Equatable {
    var since: String?
    var program: String?
    /// The level as published: any JSON number (the table shows only 0 to 15 as one).
    var brightness: Double?
    var on: Bool?
    var showing: [Zone] = []
    var lastRefusal: String?
    /// Why the first zone shows what it shows: the layer, and until when (local time).
    var why: String?

    struct Zone: Equatable {
      var name: String
      var messages: [String]
    }

    /// The most characters kept of one text.
    static let textLimit = 120
    /// The most characters kept of what the zones show, all together.
    static let showingLimit = 256

    init(_ state: JSONValue) {
      since = Digest.text(state["mqtt"]?["connectedSince"]?["local"])
      program = Digest.text(state["program"])
      if case .number(let level)? = state["brightness"] { brightness = level }
      if case .bool(let lit)? = state["on"] { on = lit }
      lastRefusal = Digest.text(state["mqtt"]?["lastRefusal"])
      if case .array(let zones)? = state["zones"], let first = zones.first, let layer = Digest.text(first["why"]?["layer"]) {
        why = String((layer + (Digest.text(first["why"]?["until"]?["local"]).map { " until \($0)" } ?? "")).prefix(Digest.textLimit))
      }
      var budget = Digest.showingLimit
      if case .array(let zones)? = state["zones"] {
        for zone in zones where budget > 0 {
          guard let name = Digest.text(zone["name"]) else { continue }
          var messages: [String] = []
          if case .array(let list)? = zone["showing"] {
            for case .string(let message) in list where budget > 0 {
              let kept = String(message.prefix(min(budget, Digest.textLimit)))
              budget -= kept.count
              messages.append(kept)
            }
          }
          budget -= name.count
          showing.append(Zone(name: name, messages: messages))
        }
      }
    }

    /// A string field, cut to ``textLimit`` characters.
    static func text(_ value: JSONValue?) -> String? {
      if case .string(let text)? = value { String(text.prefix(textLimit)) } else { nil }
    }

    /// The level as the table shows it: a whole number from 0 to 15, else `?`.
    var level: String {
      guard let brightness else { return "-" }
      guard brightness.isFinite, brightness.rounded() == brightness, Double(BrightnessLevel.range.lowerBound)...Double(BrightnessLevel.range.upperBound) ~= brightness else { return "?" }
      return String(Int(brightness))
    }
  }

  /// What one retained message says of a sign: its name, and its status or its state's
  /// digest (nil: the topic is not a sign's, or the name is past ``nameLimit``).
  static func read(_ message: MQTTPacket.Message, under prefix: String) -> (name: String, said: Said)? {
    guard let sign = signName(message.topic, under: prefix), sign.name.utf8.count <= nameLimit else { return nil }
    if sign.isStatus { return (sign.name, .status(String(String(decoding: message.payload.prefix(64), as: UTF8.self).prefix(16)))) }
    return (sign.name, .state((try? JSONParser.parse(String(decoding: message.payload, as: UTF8.self))).map(Digest.init)))
  }

  /// A sign's status (`online`, `offline`) or its state, as a message said it.
  enum Said {
    case status(String)
    case state(Digest?)
  }

  /// The table `messages` (retained, as a broker hands them at a subscription to
  /// `PREFIX/#`) make: what `marquee fleet` prints, for a test or a fuzzer to check.
  public static func table(under prefix: String, messages: [MQTTPacket.Message]) -> String {
    var signs: [String: Sign] = [:]
    for message in messages {
      guard let (name, said) = FleetCommand.read(message, under: prefix), signs[name] != nil || signs.count < signLimit else { continue }
      signs[name, default: Sign(name: name)].take(said)
    }
    return table(signs.values.sorted { $0.name < $1.name })
  }

  /// The longest sign name believed, in bytes: a topic may be 64 KiB long.
  static let nameLimit = 256

  /// What was heard, by sign name.
  final class Heard: Sendable {
    let signs = Mutex<[String: Sign]>([:])
    let changes = Atomic<Int>(0)
  }

  /// Connects, gathers the retained topics, and prints (again on each change with
  /// `--watch`, until `stop`). Throws ``SignFailure`` when the broker cannot be reached.
  func run(stop: StopFlag, output: (String) throws -> Void) throws {
    let heard = Heard()
    let name = prefix
    let connection = try BrokerConnection.open(address, tool: "fleet", subscriptions: [prefix + "/#"], stop: stop) { message in
      // Read into the few fields shown before the lock, and the payload let go.
      guard let (sign, entry) = FleetCommand.read(message, under: name) else { return }
      heard.signs.withLock { signs in
        // A broker that names more signs than any fleet has is not believed past the limit.
        guard signs[sign] != nil || signs.count < FleetCommand.signLimit else { return }
        signs[sign, default: Sign(name: sign)].take(entry)
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
      SignClock.kernelSleep(0.05)
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
      SignClock.kernelSleep(0.2)
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

  /// One object per sign: name, online, since, program, brightness, on, why (the first
  /// zone's layer and until when), showing, lastRefusal.
  static func json(_ signs: [Sign]) -> JSONValue {
    .array(signs.map { sign in
      let state = sign.state
      let text = { (value: String?) in value.map { JSONValue.string($0) } ?? .null }
      return .object([
        ("name", .string(sign.name)), ("online", .bool(sign.online)),
        ("since", sign.online ? text(state?.since) : .null),
        ("program", text(state?.program)), ("brightness", state?.brightness.map { .number($0) } ?? .null),
        ("on", state?.on.map { .bool($0) } ?? .null),
        ("why", text(state?.why)),
        ("showing", .object((state?.showing ?? []).map { ($0.name, .array($0.messages.map { .string($0) })) })),
        ("lastRefusal", text(state?.lastRefusal)),
      ])
    })
  }

  /// The signs as a table, one line each. Every text came from the network: its control
  /// characters are shown as escapes, never sent to the terminal.
  static func table(_ signs: [Sign]) -> String {
    guard !signs.isEmpty else { return "No signs under this prefix (none has published its status).\n" }
    let header = ["SIGN", "ONLINE", "PROGRAM", "BRIGHTNESS", "ON", "WHY", "SHOWING", "LAST REFUSAL"]
    let rows = signs.map { sign -> [String] in
      let state = sign.state
      let online = sign.online ? "online" + (state?.since.map { " since \($0)" } ?? "") : (sign.status ?? "unknown")
      let on = state?.on.map { $0 ? "on" : "off" } ?? "-"
      let showing = (state?.showing ?? []).map { "\($0.name): \($0.messages.joined(separator: " / "))" }.joined(separator: "; ")
      return [sign.name, online, state?.program ?? "-", state?.level ?? "-", on, state?.why ?? "-", showing.isEmpty ? "-" : showing, state?.lastRefusal ?? "-"]
        .map(\.controlsMadeVisible)
    }
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    return ([header] + rows).map { row in
      row.enumerated().map { column, text in column == row.count - 1 ? text : text + String(repeating: " ", count: widths[column] - text.count) }
        .joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }
}

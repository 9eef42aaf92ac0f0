import MQTT
import SignService
import SimpleJSON
import Synchronization

/// Home Assistant's MQTT discovery (its documented schema, "MQTT Discovery" and each
/// entity's page): retained documents under `homeassistant/<component>/<node>/<object>/config`
/// that make the sign a device with a text entity for the message, a light for on/off and
/// brightness (16 steps), a select for the program, a switch for pause, a sensor for what
/// is shown and one for why (the layer on top, until when), all available while
/// `PREFIX/status` says `online`.
final class HomeAssistantDiscovery: Sendable {
  let prefix: String
  let session: SignSession
  /// The version the device shows.
  let version: String
  /// The node ID, one per prefix (``nodeID(of:)``).
  let node: String
  /// The program names last announced (the select's options).
  let announced = Mutex<[String]?>(nil)

  init(prefix: String, session: SignSession, version: String) {
    self.prefix = prefix
    self.session = session
    self.version = version
    node = HomeAssistantDiscovery.nodeID(of: prefix)
  }

  /// The node ID of a prefix, as Home Assistant takes it (ASCII letters, digits, `-`, `_`)
  /// and different for different prefixes: a prefix of ASCII letters, digits, `-` and `/`
  /// is itself with `/` as `_` (`signs/shop` is `signs_shop`); any other (with `_`, a space,
  /// 中文) is written so, other characters as `_` too, and ends with `_h` and 16 hex digits
  /// of a hash of the whole prefix, so `signs/a_b` and `signs/a/b` never share entities.
  static func nodeID(of prefix: String) -> String {
    let plain = prefix.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "/") }
    let readable = String(prefix.unicodeScalars.map { scalar -> Character in
      scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-") ? Character(scalar) : "_"
    })
    guard !plain else { return readable }
    // FNV-1a, 64 bits, of the prefix's bytes: the same on every machine and every run.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in prefix.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    let hex = String(hash, radix: 16)
    return readable + "_h" + String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// The documents, by topic; an empty payload removes an entity (the select without programs).
  func documents(programs: [String]) -> [(topic: String, payload: JSONValue?)] {
    let device = JSONValue.object([
      ("identifiers", .array([.string(node)])), ("name", .string("marquee " + (prefix.split(separator: "/").last.map(String.init) ?? prefix))),
      ("manufacturer", .string("marquee")), ("model", .string("LED sign \(session.width)x\(session.height)")),
      ("sw_version", .string(version)),
    ])
    let state = prefix + "/state"
    func entity(_ name: String, _ object: String, _ members: [(key: String, value: JSONValue)]) -> JSONValue {
      .object([("name", .string(name)), ("unique_id", .string(node + "_" + object))] + members + [
        ("availability_topic", .string(prefix + "/status")), ("payload_available", .string("online")),
        ("payload_not_available", .string("offline")), ("device", device),
      ])
    }
    let shown = "{{ value_json.zones[0].messages | join(' / ') }}"
    var documents: [(topic: String, payload: JSONValue?)] = [
      ("homeassistant/text/\(node)/message/config", entity("Message", "message", [
        ("command_topic", .string(prefix + "/message")), ("state_topic", .string(state)),
        ("value_template", .string(shown)), ("max", .number(255)),
      ])),
      ("homeassistant/light/\(node)/display/config", entity("Display", "display", [
        ("command_topic", .string(prefix + "/power")), ("payload_on", .string("ON")), ("payload_off", .string("OFF")),
        ("state_topic", .string(state)), ("state_value_template", .string("{{ 'ON' if value_json.on else 'OFF' }}")),
        ("brightness_command_topic", .string(prefix + "/brightness")), ("brightness_state_topic", .string(state)),
        ("brightness_value_template", .string("{{ value_json.brightness }}")), ("brightness_scale", .number(15)),
      ])),
      ("homeassistant/switch/\(node)/pause/config", entity("Pause", "pause", [
        ("command_topic", .string(prefix + "/pause")), ("payload_on", .string("ON")), ("payload_off", .string("OFF")),
        ("state_topic", .string(state)), ("value_template", .string("{{ 'ON' if value_json.paused else 'OFF' }}")),
      ])),
      ("homeassistant/sensor/\(node)/showing/config", entity("Showing", "showing", [
        ("state_topic", .string(state)), ("value_template", .string("{{ (value_json.zones[0].showing | join(' / '))[:255] }}")),
      ])),
      // Why the first zone shows it: the layer on top (config, program, feed, person, live,
      // notification) and until when (Docs/api.md, "Layers").
      ("homeassistant/sensor/\(node)/why/config", entity("Why", "why", [
        ("state_topic", .string(state)),
        ("value_template", .string("{{ value_json.zones[0].why.layer ~ (' until ' ~ value_json.zones[0].why.until.local if value_json.zones[0].why.until else '') }}")),
      ])),
    ]
    // A select needs options: without programs it is removed.
    documents.append(("homeassistant/select/\(node)/program/config", programs.isEmpty ? nil : entity("Program", "program", [
      ("command_topic", .string(prefix + "/program")), ("state_topic", .string(state)),
      ("value_template", .string("{{ value_json.program }}")), ("options", .array(programs.map { .string($0) })),
    ])))
    return documents
  }

  var programNames: [String] { session.programNames }

  /// Publishes every document (after each connect).
  func announce(_ client: MQTTClient) {
    let programs = programNames
    announced.withLock { $0 = programs }
    for (topic, payload) in documents(programs: programs) {
      client.publish(.init(topic: topic, payload: Array((payload?.text ?? "").utf8), qos: 1, retain: true))
    }
  }

  /// Announces again when the programs changed (the select's options).
  func refresh(_ client: MQTTClient) {
    if announced.withLock({ $0 }) != programNames { announce(client) }
  }
}

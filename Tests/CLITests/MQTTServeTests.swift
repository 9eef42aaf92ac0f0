import Foundation
import Platform
import SimpleJSON
import TestSupport
import Testing

/// `marquee serve --mqtt` against a real broker (Debian's mosquitto), with mosquitto_pub
/// and mosquitto_sub on the other side, as a home or a shop wires a sign in.
@Suite(.offThePool, .serialized, .enabled(if: MosquittoBroker.available, "needs the Debian packages mosquitto and mosquitto-clients"))
struct MQTTServeTests {
  func serve(_ broker: MosquittoBroker, _ extra: [String] = [], url: String? = nil) throws -> ServedSign {
    let address = url ?? "mqtt://127.0.0.1:\(broker.port)"
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "--mqtt", address, "--mqtt-topic", "signs/shop"] + extra)
    return sign
  }

  func state(_ sign: ServedSign) -> JSONValue? { try? ServeTests.json(sign.client.request("GET", "/api/state")) }

  @Test func commandsOnTheTopicsChangeTheSignAndBadOnesChangeNothing() throws {
    let broker = try MosquittoBroker()
    let folder = NSTemporaryDirectory() + "marquee-mqtt-serve-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let stateFile = folder + "/sign.state"
    let sign = try serve(broker, ["--state", stateFile, "Start"])
    #expect(eventually { broker.receive("signs/shop/status", timeout: 1) == ["signs/shop/status online"] })
    broker.publish("signs/shop/message", "Order 42 ready")
    #expect(eventually { state(sign)?["zones"]?.arrayValue?.first?["messages"] == .array([.string("Order 42 ready")]) })
    broker.publish("signs/shop/content", #"{"messages": ["Soup", "Tea"], "speed": 30}"#)
    #expect(eventually { state(sign)?["zones"]?.arrayValue?.first?["speed"] == .number(30) })
    broker.publish("signs/shop/notify", #"{"messages": ["Doorbell"], "duration": 30}"#)
    #expect(eventually { (try? ServeTests.json(sign.client.request("GET", "/api/notify")))?["notifications"]?.arrayValue?.count == 1 })
    broker.publish("signs/shop/dismiss", "")
    #expect(eventually { (try? ServeTests.json(sign.client.request("GET", "/api/notify")))?["notifications"] == .array([]) })
    broker.publish("signs/shop/brightness", "6")
    #expect(eventually { state(sign)?["brightness"] == .number(6) })
    broker.publish("signs/shop/pause", "ON")
    #expect(eventually { state(sign)?["paused"] == .bool(true) })
    broker.publish("signs/shop/pause", "OFF")
    broker.publish("signs/shop/power", "OFF")
    #expect(eventually { state(sign)?["on"] == .bool(false) && state(sign)?["paused"] == .bool(false) })
    broker.publish("signs/shop/power", "ON")
    // Malformed payloads: refused with the reason on standard error, nothing changed.
    let before = state(sign)
    for (topic, payload, reason) in [
      ("content", #"{"speed": "fast"}"#, "speed: expected a number"),
      ("content", "not json", "expected a content document (JSON, as PATCH /api/content takes)"),
      ("brightness", "99", "brightness: 99 is out of range"),
      ("pause", "maybe", "expected ON or OFF"),
      ("program", "nothing", "name: no program named 'nothing'"),
    ] {
      broker.publish("signs/shop/\(topic)", payload)
      #expect(eventually { sign.child.errorSoFar.contains("MQTT signs/shop/\(topic): ") && sign.child.errorSoFar.contains(reason) },
              "\(topic) \(payload): \(sign.child.errorSoFar)")
    }
    #expect(eventually { state(sign)?["on"] == .bool(true) })
    #expect(state(sign)?["zones"] == before?["zones"] && state(sign)?["brightness"] == .number(6))
    // The state, retained, as GET /api/state has it.
    let published = broker.receive("signs/shop/state")
    let text = try #require(published.first?.dropFirst("signs/shop/state ".count))
    #expect(try JSONParser.parse(String(text))["brightness"] == .number(6))
    // Live content is not written to the state file; the brightness is.
    let saved = (try? String(contentsOfFile: stateFile, encoding: .utf8)) ?? ""
    #expect(saved.contains("\"brightness\":6") && !saved.contains("Soup"), "\(saved)")
    _ = sign.stop()
    // Stopped cleanly: offline.
    #expect(broker.receive("signs/shop/status", timeout: 1) == ["signs/shop/status offline"])
  }

  /// `{mqtt:TOPIC}` in a message: the sign subscribes to the topic, shows its retained
  /// value at once and each new one as it comes; a topic that falls silent past the
  /// zone's lifetime gives way to the fallback.
  @Test func placeholdersShowTheTopicsValues() throws {
    let broker = try MosquittoBroker()
    #expect(broker.publish("home/outside/temp", "7.5", retain: true))
    // The API without a token may name the topics the owner allows (--mqtt-values).
    let sign = try serve(broker, ["--width", "96", "--mqtt-values", "station/#", "Out {mqtt:home/outside/temp|--}°C"])
    func showing() -> JSONValue? { state(sign)?["zones"]?.arrayValue?.first?["showing"] }
    #expect(eventually { showing() == .array([.string("Out 7.5°C")]) }, "\(String(describing: state(sign)))")
    #expect(state(sign)?["zones"]?.arrayValue?.first?["messages"] == .array([.string("Out {mqtt:home/outside/temp|--}°C")]))
    broker.publish("home/outside/temp", "8")
    #expect(eventually { showing() == .array([.string("Out 8°C")]) })
    // A topic named later (over the API) is subscribed to then.
    let patch = #"{"messages": ["Next {mqtt:station/next|?}"], "lifetime": 1, "fallback": ["See the screens"], "immediately": true}"#
    #expect(sign.client.request("PATCH", "/api/content", body: patch)?.status == 200)
    // Its default until a value comes: for its lifetime of one second, after which the
    // fallback shows; a loaded machine may take that long to answer the look, so either is
    // the sign's right answer (and the fallback is checked for itself below).
    #expect(eventually { showing() == .array([.string("Next ?")]) || showing() == .array([.string("See the screens")]) })
    var live = false
    for _ in 0..<100 where !live {
      broker.publish("station/next", "12:05")
      live = showing() == .array([.string("Next 12:05")])
      if !live { usleep(50_000) }
    }
    #expect(live, "\(sign.child.errorSoFar)")
    // Silent for its lifetime: the fallback, marked stale; a value brings it back.
    #expect(eventually { showing() == .array([.string("See the screens")]) && state(sign)?["zones"]?.arrayValue?.first?["stale"] == .bool(true) })
    // (Published again while waiting: a value lives one second, which a loaded machine can
    // spend between one publish and the look; what shows and whether it is stale are read
    // from one state, not two that a second may separate.)
    #expect(eventually {
      broker.publish("station/next", "12:20")
      let zone = state(sign)?["zones"]?.arrayValue?.first
      return zone?["showing"] == .array([.string("Next 12:20")]) && zone?["stale"] == .bool(false)
    }, "\(String(describing: state(sign)))\n\(sign.child.errorSoFar)")
    _ = sign.stop()
  }

  @Test func theLastWillAndABrokerRestart() throws {
    let broker = try MosquittoBroker()
    var sign = try serve(broker, ["Start"])
    #expect(eventually { broker.receive("signs/shop/status", timeout: 1) == ["signs/shop/status online"] })
    // The broker goes and comes back: the sign connects and subscribes again.
    broker.stop()
    #expect(eventually { sign.child.errorSoFar.contains("MQTT: the broker closed the connection") || sign.child.errorSoFar.contains("MQTT: cannot connect") })
    let restarted = Date()
    try broker.start()
    var back = false
    for _ in 0..<300 where !back {
      broker.publish("signs/shop/message", "Back")
      back = state(sign)?["zones"]?.arrayValue?.first?["messages"] == .array([.string("Back")])
      if !back { usleep(50_000) }
    }
    #expect(back, "\(sign.child.errorSoFar)")
    print("MQTT reconnect after a broker restart: \(Int(Date().timeIntervalSince(restarted) * 1000)) ms")
    // The Pi loses power (SIGKILL): the broker publishes the will.
    sign.child.send(SIGKILL)
    _ = sign.child.wait(timeout: 10)
    #expect(eventually { broker.receive("signs/shop/status", timeout: 1) == ["signs/shop/status offline"] })
    sign = try serve(broker, ["Again"])
    #expect(eventually { broker.receive("signs/shop/status", timeout: 1) == ["signs/shop/status online"] })
    _ = sign.stop()
  }

  /// A broker that restarts without persistence has lost the retained state: the sign
  /// publishes it again at each connect, even when nothing it shows has changed and the
  /// connection came back before the bridge looked (the fleet test's failure on CI). Three
  /// quick restarts, so a bridge that sees the gap only by luck fails at least one.
  @Test func theStateIsPublishedAgainAfterEachReconnect() throws {
    let broker = try MosquittoBroker()
    let sign = try serve(broker, ["Steady"])
    #expect(eventually { broker.receive("signs/shop/state", timeout: 1).count == 1 })
    for round in 1...3 {
      broker.stop()
      try broker.start()
      let lines = broker.receive("signs/shop/state", timeout: 10)
      #expect(lines.count == 1 && lines[0].contains("Steady"), "restart \(round): \(lines) \(sign.child.errorSoFar)")
    }
    _ = sign.stop()
  }

  @Test func aRefusedPasswordIsSaidAndTheSignRunsOn() throws {
    let broker = try MosquittoBroker(users: ["sign": "secret"])
    let sign = try serve(broker, ["Start"], url: "mqtt://sign:wrong@127.0.0.1:\(broker.port)")
    #expect(eventually { sign.child.errorSoFar.contains("MQTT: the broker says this client is not authorised")
      || sign.child.errorSoFar.contains("MQTT: the broker refused the user name or password") }, "\(sign.child.errorSoFar)")
    #expect(sign.client.request("GET", "/api/state")?.status == 200)
    _ = sign.stop()
    let right = try serve(broker, ["Start"], url: "mqtt://sign:secret@127.0.0.1:\(broker.port)")
    #expect(eventually { broker.receive("signs/shop/status", timeout: 1) == ["signs/shop/status online"] })
    _ = right.stop()
  }

  @Test(arguments: [
    (["--mqtt", "mqtts://broker:8883"], "TLS is not supported"),
    (["--mqtt", "mqtt://host:0"], "the port '0' is not 1-65535"),
    (["--ha-discovery"], "'--ha-discovery' needs '--mqtt"),
    (["--mqtt", "mqtt://h", "--mqtt-topic", "a/#"], "is not a topic prefix"),
  ])
  func badMQTTOptionsAreUsageErrors(arguments: [String], message: String) throws {
    let result = try BinaryRunner.run(["serve", "--listen", "127.0.0.1:0", "--output", "ascii", "--frames", "1"] + arguments + ["X"])
    #expect(result.status == 64 && result.stderr.contains(message), "\(result.stderr)")
  }

  /// Home Assistant's discovery documents, checked against its documented schema: each
  /// component's required keys, and no key its page does not list.
  @Test func homeAssistantFindsTheSign() throws {
    let broker = try MosquittoBroker()
    let folder = NSTemporaryDirectory() + "marquee-ha-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try #"{"width": 32, "messages": ["x"], "programs": [{"name": "offers", "dates": "2001-01-01/2001-01-01", "messages": ["O"]}, {"name": "closed", "dates": "2001-01-01/2001-01-01", "messages": ["C"]}]}"#
      .write(toFile: folder + "/sign.json", atomically: true, encoding: .utf8)
    let sign = try ServedSign(["--config", folder + "/sign.json", "--output", "ascii", "--mqtt", "mqtt://127.0.0.1:\(broker.port)",
                               "--mqtt-topic", "signs/shop", "--ha-discovery"])
    let lines = broker.receive("homeassistant/#", count: 6, timeout: 5)
    #expect(lines.count == 6, "\(lines)")
    let common: Set<String> = ["name", "unique_id", "availability_topic", "payload_available", "payload_not_available", "device"]
    let schema: [String: (required: Set<String>, optional: Set<String>)] = [
      "text": (["command_topic"], ["state_topic", "value_template", "max", "min", "mode", "pattern"]),
      "light": (["command_topic"], ["payload_on", "payload_off", "state_topic", "state_value_template", "brightness_command_topic",
                                    "brightness_state_topic", "brightness_value_template", "brightness_scale"]),
      "switch": (["command_topic"], ["payload_on", "payload_off", "state_topic", "value_template", "state_on", "state_off"]),
      "sensor": (["state_topic"], ["value_template", "unit_of_measurement", "device_class"]),
      "select": (["command_topic", "options"], ["state_topic", "value_template"]),
    ]
    var components: [String: JSONValue] = [:]
    for line in lines {
      let parts = line.split(separator: " ", maxSplits: 1)
      let topic = parts[0].split(separator: "/")
      // homeassistant/<component>/<node_id>/<object_id>/config
      #expect(topic.count == 5 && topic[0] == "homeassistant" && topic[2] == "signs_shop" && topic[4] == "config", "\(parts[0])")
      let document = try JSONParser.parse(String(parts[1]))
      guard case .object(let members) = document, let rules = schema[String(topic[1])] else {
        Issue.record("unexpected \(parts[0])")
        continue
      }
      components[String(topic[1])] = document
      let keys = Set(members.map(\.key))
      #expect(rules.required.isSubset(of: keys), "\(topic[1]) lacks \(rules.required.subtracting(keys))")
      #expect(keys.isSubset(of: rules.required.union(rules.optional).union(common)), "\(topic[1]) has \(keys.subtracting(rules.required.union(rules.optional).union(common)))")
      #expect(document["availability_topic"] == .string("signs/shop/status") && document["device"]?["identifiers"] == .array([.string("signs_shop")]))
      for member in members where member.key.hasSuffix("_topic") {
        if case .string(let value) = member.value { #expect(value.hasPrefix("signs/shop/"), "\(member.key) \(value)") }
      }
    }
    #expect(Set(components.keys) == Set(schema.keys))
    #expect(components["select"]?["options"] == .array([.string("offers"), .string("closed")]))
    #expect(components["light"]?["brightness_scale"] == .number(15))
    #expect(lines.contains { $0.hasPrefix("homeassistant/sensor/signs_shop/why/config ") && $0.contains("zones[0].why.layer") })
    // What the light's and select's commands do, as Home Assistant sends them.
    broker.publish("signs/shop/program", "closed")
    #expect(eventually { state(sign)?["program"] == .string("closed") })
    broker.publish("signs/shop/brightness", "3")
    #expect(eventually { state(sign)?["brightness"] == .number(3) })
    _ = sign.stop()
  }
}

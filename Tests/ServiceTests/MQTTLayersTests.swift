import MQTT
import SignService
import SimpleJSON
import TestSupport
import Testing

@testable import MarqueeServe

/// What wins between a sign's own MQTT topics and its groups': decided by what each source
/// last said, never by the order the broker hands it over.
@Suite struct MQTTLayersTests {
  typealias Layers = MQTTBridge.Layers

  func content(_ text: String) throws -> SignCommand { .content(try JSONParser.parse(text), replacing: false) }

  /// The document the sign is given after `messages` (source, JSON) in that order.
  func last(_ messages: [(Int?, String)], groups: Int = 2) throws -> JSONValue? {
    var layers = Layers()
    layers.groupCount = groups
    var performed: JSONValue?
    for (source, text) in messages {
      if case .content(let document, _)? = layers.take(try content(text), from: source, retained: false) { performed = document }
    }
    return performed
  }

  @Test func theSignsOwnContentIsOnTopInEveryOrder() throws {
    let own = (Int?.none, #"{"messages": ["Own"], "zone": "main"}"#)
    let group = (Int?.some(0), #"{"zone": "main", "messages": ["Group"], "speed": 25}"#)
    let other = (Int?.some(1), #"{"zones": [{"zone": "main", "speed": 40}, {"zone": "ticker", "messages": ["News"]}]}"#)
    let expected = try JSONParser.parse(#"{"zones": [{"zone": "main", "messages": ["Own"], "speed": 40}, {"zone": "ticker", "messages": ["News"]}]}"#)
    for order in [[own, group, other], [group, other, own], [other, own, group], [group, own, other]] {
      let result = try last(order)
      // The same fields whatever the order (the zones may be listed in another order).
      guard case .array(let zones)? = result?["zones"], case .array(let expectedZones)? = expected["zones"] else {
        Issue.record("not a zones document: \(String(describing: result))")
        continue
      }
      for expectedZone in expectedZones {
        let zone = zones.first { $0["zone"] == expectedZone["zone"] }
        #expect(zone?["messages"] == expectedZone["messages"] && zone?["speed"] == expectedZone["speed"], "\(order.map(\.0))")
      }
    }
  }

  @Test func withoutGroupsContentIsTakenAsItComes() throws {
    var layers = Layers()
    let command = try content(#"{"messages": ["Plain"]}"#)
    #expect(layers.take(command, from: nil, retained: false) == command)
    #expect(layers.content.isEmpty)
  }

  @Test func settingsAreTheGroupsUntilTheSignHasItsOwn() {
    var layers = Layers()
    layers.groupCount = 1
    #expect(layers.take(.brightness(3), from: 0, retained: false) == .brightness(3))
    #expect(layers.take(.brightness(9), from: nil, retained: true) == .brightness(9))
    #expect(layers.take(.brightness(2), from: 0, retained: false) == nil)
    #expect(layers.take(.power(on: false), from: 0, retained: false) == .power(on: false))
  }

  @Test func noticesAreEventsAndAGroupsRetainedOneIsNotReplayed() throws {
    var layers = Layers()
    layers.groupCount = 1
    let notice = SignCommand.notify(try JSONParser.parse(#"{"messages": ["Closing"]}"#))
    #expect(layers.take(notice, from: 0, retained: false) == notice)
    #expect(layers.take(notice, from: 0, retained: true) == nil)
    #expect(layers.take(notice, from: nil, retained: true) == notice)
    #expect(layers.take(.dismiss(id: nil), from: 0, retained: false) == .dismiss(id: nil))
  }

  /// A bridge with one group over a sign of two zones ("left", "right"), as a broker's
  /// messages reach it; `settle` waits until the session's queue has drained them.
  struct Bridged {
    let sign: SignRoutesTests.Served
    let bridge: MQTTBridge

    init() throws {
      sign = try SignRoutesTests.Served()
      bridge = MQTTBridge(
        session: sign.session, stats: ServeStats(), address: try MQTTAddress("mqtt://127.0.0.1:1"), prefix: "signs/shop", discovery: false,
        clientID: "test", valueFilters: ["signs/#"], version: "t", groups: ["signs/all"])
    }

    func send(_ topic: String, _ payload: String, retained: Bool = false) {
      bridge.take(MQTTPacket.Message(topic: topic, payload: Array(payload.utf8), retain: retained))
    }

    /// Waits for every message sent so far to be performed.
    func settle() { _ = sign.session.perform(.dismiss(id: nil)) }

    func messages(_ zone: String) throws -> JSONValue? {
      guard case .array(let zones)? = try sign.json(sign.send("GET", "/api/state"))["zones"] else { return nil }
      return zones.first { $0["name"] == .string(zone) }?["messages"]
    }
  }

  /// Issue 50, defect 3: a group payload the sign refuses, followed within milliseconds by
  /// other content, was put back into the merged layers for good (a rollback raced the
  /// inbox), after which every content publish was refused. The layers are now a candidate
  /// swapped in only when the sign takes it.
  @Test func aRefusedGroupPayloadNeverWedgesTheLayers() throws {
    let bridged = try Bridged()
    for round in 0..<200 {
      bridged.send("signs/all/content", #"{"zones": [{"zone": "left", "messages": ["G\#(round)"]}, {"zone": "nope", "messages": ["x"]}]}"#)
      bridged.send("signs/shop/content", #"{"zone": "right", "messages": ["Own \#(round)"]}"#)
      if round % 7 == 0 { bridged.settle() }
    }
    bridged.settle()
    #expect(try bridged.messages("right") == .array([.string("Own 199")]))
    bridged.send("signs/all/content", #"{"zone": "left", "messages": ["Group"]}"#)
    bridged.send("signs/shop/content", #"{"zone": "right", "messages": ["Own last"]}"#)
    bridged.settle()
    #expect(try bridged.messages("left") == .array([.string("Group")]) && bridged.messages("right") == .array([.string("Own last")]))
    #expect(!bridged.bridge.layers.withLock { "\($0.merged())" }.contains("nope"))
  }

  /// A group's retained content naming a zone this sign lacks dropped the sign's own
  /// retained content at every start (5 of 5), though Docs/fleet.md says such content is
  /// refused by that sign alone; a group's `message` beat the sign's own `messages`, and the
  /// sign's own `message` stuck over its later content and Home Assistant's topic.
  @Test func retainedGroupContentTheSignRefusesLeavesItsOwn() throws {
    let bridged = try Bridged()
    bridged.send("signs/all/content", #"{"zone": "ticker", "messages": ["Fleet news"]}"#, retained: true)
    bridged.send("signs/shop/content", #"{"zone": "left", "messages": ["Own"]}"#, retained: true)
    bridged.settle()
    #expect(try bridged.messages("left") == .array([.string("Own")]))
    // A group's `message` under the sign's own `messages`.
    bridged.send("signs/all/content", #"{"zone": "left", "message": "Group says"}"#)
    bridged.settle()
    #expect(try bridged.messages("left") == .array([.string("Own")]))
    // The sign's own `message`, then its own `messages`, then Home Assistant's topic: the later wins.
    bridged.send("signs/shop/content", #"{"zone": "left", "message": "One"}"#)
    bridged.settle()
    #expect(try bridged.messages("left") == .array([.string("One")]))
    bridged.send("signs/shop/content", #"{"zone": "left", "messages": ["Two", "Three"]}"#)
    bridged.settle()
    #expect(try bridged.messages("left") == .array([.string("Two"), .string("Three")]))
    bridged.send("signs/shop/message", "From Home Assistant")
    bridged.settle()
    #expect(try bridged.messages("left") == .array([.string("From Home Assistant")]))
  }
}

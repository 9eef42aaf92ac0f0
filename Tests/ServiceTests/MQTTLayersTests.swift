import SignService
import SimpleJSON
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
      if case .content(let document, _)? = layers.take(try content(text), from: source, retained: false)?.command { performed = document }
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
    #expect(layers.take(command, from: nil, retained: false)?.command == command)
    #expect(layers.take(command, from: nil, retained: false)?.before == nil)
  }

  @Test func settingsAreTheGroupsUntilTheSignHasItsOwn() {
    var layers = Layers()
    layers.groupCount = 1
    #expect(layers.take(.brightness(3), from: 0, retained: false)?.command == .brightness(3))
    #expect(layers.take(.brightness(9), from: nil, retained: true)?.command == .brightness(9))
    #expect(layers.take(.brightness(2), from: 0, retained: false) == nil)
    #expect(layers.take(.power(on: false), from: 0, retained: false)?.command == .power(on: false))
  }

  @Test func noticesAreEventsAndAGroupsRetainedOneIsNotReplayed() throws {
    var layers = Layers()
    layers.groupCount = 1
    let notice = SignCommand.notify(try JSONParser.parse(#"{"messages": ["Closing"]}"#))
    #expect(layers.take(notice, from: 0, retained: false)?.command == notice)
    #expect(layers.take(notice, from: 0, retained: true) == nil)
    #expect(layers.take(notice, from: nil, retained: true)?.command == notice)
    #expect(layers.take(.dismiss(id: nil), from: 0, retained: false)?.command == .dismiss(id: nil))
  }
}

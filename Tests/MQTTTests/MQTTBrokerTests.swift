import Foundation
import Platform
import Synchronization
import TestSupport
import Testing

@testable import MQTT

/// The client against a real broker (Debian's mosquitto, an independent implementation),
/// with mosquitto_pub and mosquitto_sub on the other side.
@Suite(.serialized, .offThePool, .enabled(if: MosquittoBroker.available, "needs the Debian packages mosquitto and mosquitto-clients"))
struct MQTTBrokerTests {
  /// What a client saw.
  final class Seen: Sendable {
    let messages = Mutex<[MQTTPacket.Message]>([])
    let events = Mutex<[MQTTClient.Event]>([])
    func has(_ condition: ([MQTTPacket.Message]) -> Bool) -> Bool { messages.withLock { condition($0) } }
  }

  func client(_ broker: MosquittoBroker, _ seen: Seen, configure: (inout MQTTClient.Configuration) -> Void = { _ in }) -> MQTTClient {
    var configuration = MQTTClient.Configuration(host: "127.0.0.1", port: UInt16(broker.port), clientID: "marquee-test-\(getpid())")
    configure(&configuration)
    return MQTTClient(configuration, onMessage: { message in seen.messages.withLock { $0.append(message) } },
                      onEvent: { event in seen.events.withLock { $0.append(event) } })
  }

  @Test func subscribeReceiveRetainedAndLiveAndPublishRetainedWithQoS1() throws {
    let broker = try MosquittoBroker()
    #expect(broker.publish("sign/content", "kept", retain: true))
    let seen = Seen()
    let client = client(broker, seen) { configuration in
      configuration.subscriptions = ["sign/#"]
      configuration.will = .init(topic: "sign/status", payload: Array("offline".utf8), qos: 1, retain: true)
      configuration.greeting = .init(topic: "sign/status", payload: Array("online".utf8), qos: 1, retain: true)
    }
    client.start()
    defer { client.stop() }
    // The retained message arrives on subscribing, marked retained; then a live one.
    #expect(eventually { seen.has { $0.contains { $0.topic == "sign/content" && $0.payload == Array("kept".utf8) && $0.retain } } })
    #expect(broker.publish("sign/content", "live"))
    #expect(eventually { seen.has { $0.contains { $0.payload == Array("live".utf8) && !$0.retain } } })
    // What the client publishes retained is what a later subscriber gets.
    #expect(client.publish(.init(topic: "sign/state", payload: Array(#"{"on": true}"#.utf8), qos: 1, retain: true)))
    #expect(eventually { client.unacknowledgedCount == 0 }, "the broker did not acknowledge the QoS 1 publish")
    #expect(broker.receive("sign/state") == [#"sign/state {"on": true}"#])
    #expect(broker.receive("sign/status") == ["sign/status online"])
  }

  @Test func theLastWillTellsWhenTheSignIsGone() throws {
    let broker = try MosquittoBroker()
    let seen = Seen()
    let client = client(broker, seen) { configuration in
      configuration.keepAlive = 1
      configuration.will = .init(topic: "sign/status", payload: Array("offline".utf8), qos: 1, retain: true)
      configuration.greeting = .init(topic: "sign/status", payload: Array("online".utf8), qos: 1, retain: true)
    }
    client.start()
    #expect(eventually { client.isConnected })
    #expect(broker.receive("sign/status") == ["sign/status online"])
    // The connection dies without a DISCONNECT (as when the Pi loses power): the broker
    // publishes the will.
    client.stop(disconnecting: false)
    #expect(eventually { broker.receive("sign/status", timeout: 1) == ["sign/status offline"] })
  }

  @Test func aBrokerRestartIsSurvived() throws {
    let broker = try MosquittoBroker()
    let seen = Seen()
    let client = client(broker, seen) { $0.subscriptions = ["sign/#"] }
    client.start()
    defer { client.stop() }
    #expect(eventually { client.isConnected })
    broker.stop()
    #expect(eventually { !client.isConnected })
    try broker.start()
    // Connected and subscribed again (the pauses grow from half a second).
    #expect(eventually { client.connects == 2 })
    #expect(eventually {
      broker.publish("sign/content", "after")
      return seen.has { $0.contains { $0.payload == Array("after".utf8) } }
    })
    let events = seen.events.withLock { $0 }
    #expect(events.filter { $0 == .connected }.count == 2)
    #expect(events.contains { if case .disconnected = $0 { true } else { false } })
  }

  @Test func aRefusedPasswordSaysSo() throws {
    let broker = try MosquittoBroker(users: ["sign": "right"])
    func signingIn(with password: String, _ seen: Seen) -> MQTTClient {
      client(broker, seen) { configuration in
        configuration.username = "sign"
        configuration.password = password
      }
    }
    let seen = Seen()
    let wrong = signingIn(with: "wrong", seen)
    wrong.start()
    defer { wrong.stop() }
    #expect(eventually { !seen.events.withLock { $0 }.isEmpty })
    let reasons = seen.events.withLock { $0 }.compactMap { event -> String? in
      if case .disconnected(let reason, _) = event { reason } else { nil }
    }
    #expect(reasons.first == "the broker says this client is not authorised" || reasons.first == "the broker refused the user name or password",
            "\(reasons)")
    #expect(!wrong.isConnected)
    let right = signingIn(with: "right", Seen())
    right.start()
    defer { right.stop() }
    #expect(eventually { right.isConnected })
  }
}

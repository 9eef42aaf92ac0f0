import MQTT
import Platform
import Synchronization
import Testing
import TestSupport

/// The client's state machine on a scripted broker and a clock the test moves: keep-alive,
/// the pauses between attempts, and what is sent again after a reconnect. No socket, and no
/// waiting for time to pass: the client's waits end when the test moves the clock, and the
/// test knows the client is waiting (asleep on the clock, or receiving) before it moves it.
@Suite(.offThePool) struct MQTTKeepAliveTests {
  static let connectAccepted: [UInt8] = [0x20, 2, 0, 0]

  final class Events: Sendable {
    let list = Mutex<[MQTTClient.Event]>([])
    func add(_ event: MQTTClient.Event) { list.withLock { $0.append(event) } }
    /// The pauses announced so far, in order.
    var pauses: [Double] { list.withLock { $0.compactMap { if case .disconnected(_, let retry) = $0 { retry } else { nil } } } }
    var reasons: [String] { list.withLock { $0.compactMap { if case .disconnected(let reason, _) = $0 { reason } else { nil } } } }
  }

  /// A client of `keepAlive` seconds on a scripted broker and a manual clock, started, for
  /// `body`; stopped after it (the clock let run free first, so no wait holds the stop).
  func withClient(keepAlive: UInt16, _ body: (ManualSignClock, ScriptedBroker, Events, MQTTClient) throws -> Void) rethrows {
    let clock = ManualSignClock(wall: 0)
    let broker = ScriptedBroker(clock: clock)
    let events = Events()
    var configuration = MQTTClient.Configuration(host: "broker", clientID: "state-machine")
    configuration.keepAlive = keepAlive
    configuration.clock = clock.clock
    configuration.transport = broker
    let client = MQTTClient(configuration, onMessage: { _ in }, onEvent: { events.add($0) })
    defer {
      clock.runFree()
      client.stop()
    }
    try body(clock, broker, events, client)
  }

  /// Accepts the client's `connects`th connection once its CONNECT came, and waits until
  /// the client is connected and receiving.
  func accept(_ broker: ScriptedBroker, _ client: MQTTClient, connects: Int) throws {
    #expect(eventually { broker.links == connects && broker.link?.sent.first?.first == 0x10 }, "a CONNECT comes first")
    try #require(broker.link).deliver(MQTTKeepAliveTests.connectAccepted)
    #expect(eventually { client.connects == connects && broker.link?.receiving == true })
  }

  @Test func pingsAtHalfTheKeepAliveAndDropsASilentBroker() throws {
    try withClient(keepAlive: 30) { clock, broker, events, client in
      client.start()
      try accept(broker, client, connects: 1)
      let link = try #require(broker.link)
      let sentBefore = link.sent.count
      clock.advance(by: 14.9)
      #expect(eventually { link.receiving && clock.monotonic >= 1014.9 })
      #expect(link.sent.count == sentBefore, "no ping before half the keep-alive")
      clock.advance(by: 0.1)
      #expect(eventually { link.sent.last == [0xC0, 0x00] }, "a PINGREQ at half the keep-alive")
      // The broker never answers: 1.5 times the keep-alive after it was last heard, the client
      // lets go, and waits its first pause on the clock before it tries again.
      clock.advance(by: 31)
      #expect(eventually { events.reasons.contains { $0.contains("did not answer for 45 s") } }, "\(events.reasons)")
      #expect(eventually { clock.sleepers == 1 })
      #expect(broker.opens == 1, "no new connection while the pause lasts")
      clock.advance(by: 0.5)
      #expect(eventually { broker.opens == 2 })
    }
  }

  @Test func pausesDoubleToTheLongestAndStartAgainOnlyAfterASteadyConnection() throws {
    try withClient(keepAlive: 0) { clock, broker, events, client in
      broker.refuse(true)
      client.start()
      // Refused eight times: 0.5 s doubling, held at 30 s; each attempt only once its pause
      // passed. The ninth is taken.
      for attempt in 1...8 {
        #expect(eventually { events.pauses.count == attempt && clock.sleepers == 1 })
        #expect(broker.opens == attempt)
        if attempt == 8 { broker.refuse(false) }
        clock.advance(by: events.pauses.last ?? 0)
      }
      #expect(events.pauses == [0.5, 1, 2, 4, 8, 16, 30, 30])
      // A connection that lasts less than 10 s does not start the pauses again...
      try accept(broker, client, connects: 1)
      clock.advance(by: 9)
      try #require(broker.link).drop()
      #expect(eventually { events.pauses.count == 9 && clock.sleepers == 1 }, "\(events.pauses)")
      #expect(events.pauses.last == 30)
      clock.advance(by: 30)
      // ...one that lasts 10 s does.
      try accept(broker, client, connects: 2)
      clock.advance(by: 10)
      try #require(broker.link).drop()
      #expect(eventually { events.pauses.count == 10 }, "\(events.pauses)")
      #expect(events.pauses.last == 0.5)
    }
  }

  @Test func whatWasNotAcknowledgedGoesAgainMarkedAsSentBefore() throws {
    try withClient(keepAlive: 0) { clock, broker, events, client in
      client.start()
      try accept(broker, client, connects: 1)
      #expect(client.publish(.init(topic: "sign/state", payload: Array("on".utf8), qos: 1, retain: true)))
      let first = try #require(broker.link)
      #expect(first.sent.last?.first == 0x33, "a retained QoS 1 PUBLISH")
      first.drop()
      #expect(eventually { clock.sleepers == 1 })
      #expect(client.unacknowledgedCount == 1)
      clock.advance(by: 0.5)
      try accept(broker, client, connects: 2)
      let again = try #require(broker.link)
      #expect(again !== first)
      #expect(again.sent.contains { $0.first == 0x3B }, "sent again with DUP set: \(again.sent.map { $0.first ?? 0 })")
      // The broker's PUBACK (packet 1) ends the keeping.
      again.deliver([0x40, 2, 0, 1])
      #expect(eventually { client.unacknowledgedCount == 0 })
    }
  }
}

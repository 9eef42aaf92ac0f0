import MQTT
import Platform
import Synchronization
import Testing
import TestSupport

/// Keep-alive and reconnect pauses on a clock the test moves: no sleeping for 15 s to see a
/// ping, no waiting 45 s to see a silent broker dropped.
@Suite(.offThePool) struct MQTTKeepAliveTests {
  final class HandClock: Sendable {
    let seconds = Mutex(1000.0)
    func advance(by step: Double) { seconds.withLock { $0 += step } }
    var now: Double { seconds.withLock { $0 } }
  }

  /// Waits (at most `seconds`, polling every 10 ms) until `condition` holds.
  static func wait(_ seconds: Double = 10, until condition: () -> Bool) -> Bool {
    let end = SystemClock.monotonicSeconds() + seconds
    while SystemClock.monotonicSeconds() < end {
      if condition() { return true }
      usleep(10_000)
    }
    return condition()
  }

  /// The bytes that arrive on `descriptor` within `seconds`, up to `count` of them.
  static func read(_ descriptor: Int32, count: Int, within seconds: Double = 10) -> [UInt8] {
    var bytes: [UInt8] = []
    let end = SystemClock.monotonicSeconds() + seconds
    var chunk = [UInt8](repeating: 0, count: 256)
    while bytes.count < count, SystemClock.monotonicSeconds() < end {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) > 0 else { continue }
      let got = recv(descriptor, &chunk, min(chunk.count, count - bytes.count), 0)
      guard got > 0 else { break }
      bytes += chunk[0..<got]
    }
    return bytes
  }

  @Test func pingsAtHalfTheKeepAliveAndDropsASilentBroker() throws {
    let (listener, port) = try #require(LoopbackListener.open())
    defer { close(listener) }
    let clock = HandClock()
    let events = Mutex<[MQTTClient.Event]>([])
    var configuration = MQTTClient.Configuration(host: "127.0.0.1", port: port, clientID: "keepalive")
    configuration.keepAlive = 30
    configuration.monotonic = { clock.now }
    let client = MQTTClient(configuration, onMessage: { _ in }, onEvent: { event in events.withLock { $0.append(event) } })
    client.start()
    defer { client.stop() }

    var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
    #expect(poll(&poller, 1, 10_000) == 1)
    let broker = accept(listener, nil, nil)
    try #require(broker >= 0)
    defer { close(broker) }
    let head = MQTTKeepAliveTests.read(broker, count: 2)
    #expect(head.first == 0x10, "a CONNECT comes first")
    _ = MQTTKeepAliveTests.read(broker, count: Int(head.last ?? 0), within: 2)
    #expect(TCPConnection.write([0x20, 2, 0, 0], to: broker))
    #expect(MQTTKeepAliveTests.wait { client.isConnected })

    clock.advance(by: 15)
    #expect(MQTTKeepAliveTests.read(broker, count: 2) == [0xC0, 0x00], "a PINGREQ at half the keep-alive")
    // The broker never answers: 1.5 times the keep-alive after it was last heard, the client lets go.
    clock.advance(by: 31)
    #expect(MQTTKeepAliveTests.wait {
      events.withLock { $0.contains { if case .disconnected(let reason, _) = $0 { reason.contains("did not answer for 45 s") } else { false } } }
    })
    // It tries again only after its pause, on the same clock.
    let connectsBefore = client.connects
    #expect(poll(&poller, 1, 300) == 0, "no reconnect before the pause has passed on the clock")
    clock.advance(by: 1)
    #expect(poll(&poller, 1, 10_000) == 1, "a reconnect once the pause has passed")
    #expect(client.connects == connectsBefore)
  }
}

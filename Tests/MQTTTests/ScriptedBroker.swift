import MQTT
import Platform
import Synchronization

/// A broker a test plays by hand, as the client's transport: it sees each connection the
/// client opens and each packet it sends, and answers only what the test hands it. Waits
/// run on the test's ``ManualSignClock``, so nothing waits for real time to pass.
final class ScriptedBroker: MQTTTransport {
  let clock: ManualSignClock
  let state = Mutex<(opens: Int, refusing: Bool, links: [Link])>((0, false, []))

  init(clock: ManualSignClock) { self.clock = clock }

  /// Connections asked for (refused ones too).
  var opens: Int { state.withLock { $0.opens } }
  /// Whether the next connections are refused.
  func refuse(_ yes: Bool) { state.withLock { $0.refusing = yes } }
  /// The newest connection.
  var link: Link? { state.withLock { $0.links.last } }
  /// Connections made (not refused).
  var links: Int { state.withLock { $0.links.count } }

  func open(_ host: String, _ port: UInt16) throws(MQTTConnectionError) -> any MQTTConnection {
    let link = Link(clock: clock)
    let refused = state.withLock { state -> Bool in
      state.opens += 1
      if !state.refusing { state.links.append(link) }
      return state.refusing
    }
    if refused { throw MQTTConnectionError("cannot connect to the broker (scripted refusal)") }
    return link
  }

  /// One connection: what the client sent, what the broker hands it.
  final class Link: MQTTConnection {
    let clock: ManualSignClock
    let state = Mutex<(toClient: [UInt8], sent: [[UInt8]], closed: Bool, receiving: Bool)>(([], [], false, false))

    init(clock: ManualSignClock) { self.clock = clock }

    /// Each send of the client's, in order.
    var sent: [[UInt8]] { state.withLock { $0.sent } }
    /// Whether the client waits in ``receive(within:)`` now.
    var receiving: Bool { state.withLock { $0.receiving } }
    /// Hands the client `bytes`.
    func deliver(_ bytes: [UInt8]) { state.withLock { $0.toClient += bytes } }
    /// The broker goes away.
    func drop() { state.withLock { $0.closed = true } }

    func send(_ bytes: [UInt8]) -> Bool {
      state.withLock { state in
        guard !state.closed else { return false }
        state.sent.append(bytes)
        return true
      }
    }

    func receive(within seconds: Double) throws(MQTTConnectionError) -> ArraySlice<UInt8>? {
      let end = clock.monotonic + seconds
      state.withLock { $0.receiving = true }
      defer { state.withLock { $0.receiving = false } }
      while true {
        let (bytes, closed) = state.withLock { state in
          defer { state.toClient = [] }
          return (state.toClient, state.closed)
        }
        if !bytes.isEmpty { return bytes[...] }
        if closed { throw MQTTConnectionError("the broker closed the connection") }
        if clock.monotonic >= end || clock.runsFree { return nil }
        SignClock.kernelSleep(0.001)
      }
    }

    func shutdown() { drop() }
  }
}

import MQTT
import Marquee
import Platform
import SignService
import Synchronization

/// A short-lived MQTT connection for the commands that talk to a broker and end (`marquee
/// fleet`, `marquee notify mqtt://…`): the password from `MARQUEE_MQTT_PASSWORD` when the URL
/// gives none, a client ID of its own, and the first failure to connect as the error (the
/// client would only try again).
enum BrokerConnection {
  /// Connects (10 s at most) and returns the client, started; nil when `stop` is set first.
  ///
  /// - Throws: ``SignFailure`` with the broker's refusal or the connection's failure.
  static func open(
    _ address: MQTTAddress, tool: String, subscriptions: [String] = [], stop: StopFlag? = nil,
    onMessage: @escaping @Sendable (MQTTPacket.Message) -> Void = { _ in }
  ) throws -> MQTTClient? {
    var configuration = MQTTClient.Configuration(
      host: address.host, port: address.port, clientID: "marquee-\(tool)-\(FileSystem.processID)-\(UInt32.random(in: 0...UInt32.max))")
    configuration.username = address.username
    configuration.password = address.password ?? Environment.value("MARQUEE_MQTT_PASSWORD")
    configuration.subscriptions = subscriptions
    let failure = Mutex<String?>(nil)
    let client = MQTTClient(configuration, onMessage: onMessage, onEvent: { event in
      if case .disconnected(let why, _) = event { failure.withLock { $0 = $0 ?? why } }
    })
    client.start()
    let deadline = SystemClock.monotonicSeconds() + 10
    while !client.isConnected {
      if stop?.isSet == true || SystemClock.monotonicSeconds() > deadline || failure.withLock({ $0 }) != nil {
        client.stop()
        if stop?.isSet == true { return nil }
        throw SignFailure(failure.withLock { $0 } ?? "the broker at \(HostPort(host: address.host, port: address.port)) did not answer within 10 s")
      }
      SignClock.kernelSleep(0.02)
    }
    return client
  }
}

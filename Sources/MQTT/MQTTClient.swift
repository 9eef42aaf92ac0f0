import Platform
import Synchronization

/// An MQTT 3.1.1 client that keeps its connection up: it connects (user name and password,
/// a last will), subscribes, pings within the keep-alive, and when the broker goes away or
/// restarts it connects again with growing pauses (0.5 s doubling to 30 s; the pause starts
/// again from 0.5 s only after a connection that lasted ``steadyConnection`` seconds, so a
/// broker that accepts and then drops the client is not hammered) and subscribes again. A
/// message over the decoder's limit is skipped and reported (``Event/skipped(topic:bytes:)``),
/// the connection kept. Messages arrive on its own thread; QoS 1 messages it sends are kept until the
/// broker acknowledges them and sent again after a reconnect.
///
/// Plain TCP only: the toolchain has no TLS library. For a broker that needs TLS, run a
/// local mosquitto bridged to it and point the sign at the local one (Docs/fleet.md).
public final class MQTTClient: Sendable {
  /// Where and how to connect.
  public struct Configuration: Sendable {
    public var host: String
    public var port: UInt16
    public var username: String?
    public var password: String?
    public var clientID: String
    /// Seconds; the client pings at half of it.
    public var keepAlive: UInt16 = 30
    /// Published by the broker when the connection is lost (`offline`, retained).
    public var will: MQTTPacket.Message?
    /// Published after every connect (`online`, retained).
    public var greeting: MQTTPacket.Message?
    /// Topic filters subscribed at QoS 1 after every connect.
    public var subscriptions: [String] = []
    /// The longest pause between attempts, in seconds.
    public var longestPause = 30.0
    /// The clock that times keep-alive, pauses and waits (a test gives a
    /// ``ManualSignClock``'s; a connection's own waits stay bounded, at most 0.25 s at a
    /// time while connected).
    public var clock = SignClock.system
    /// What the client reaches the broker over: TCP, or a test's scripted broker.
    public var transport: any MQTTTransport = .tcp

    public init(host: String, port: UInt16 = 1883, clientID: String) {
      self.host = host
      self.port = port
      self.clientID = clientID
    }
  }

  /// What happened to the connection.
  public enum Event: Sendable, Equatable {
    case connected
    /// The connection failed or was lost; the client tries again after `retryIn` seconds.
    case disconnected(reason: String, retryIn: Double)
    /// A message larger than the client takes came on `topic` and was skipped (and
    /// acknowledged, at QoS 1).
    case skipped(topic: String, bytes: Int)
  }

  /// How long a connection must last before the next pause starts again from 0.5 s.
  public static let steadyConnection = 10.0

  struct State {
    var connection: (any MQTTConnection)?
    var connected = false
    var nextID: UInt16 = 1
    /// QoS 1 messages sent and not yet acknowledged, by packet ID, in order.
    var unacknowledged: [(id: UInt16, message: MQTTPacket.Message)] = []
    var lastSent = 0.0
    var connects = 0
    /// Filters subscribed to after the start (``subscribe(_:)``), subscribed to again at
    /// each connect.
    var added: [String] = []
  }

  public let configuration: Configuration
  let onMessage: @Sendable (MQTTPacket.Message) -> Void
  let onEvent: @Sendable (Event) -> Void
  let state = Mutex(State())
  let stopped = Atomic<Bool>(false)
  let finished = Atomic<Bool>(false)

  public init(
    _ configuration: Configuration, onMessage: @escaping @Sendable (MQTTPacket.Message) -> Void,
    onEvent: @escaping @Sendable (Event) -> Void = { _ in }
  ) {
    self.configuration = configuration
    self.onMessage = onMessage
    self.onEvent = onEvent
  }

  /// Whether the client is connected now.
  public var isConnected: Bool { state.withLock { $0.connected } }

  /// How many times it has connected.
  public var connects: Int { state.withLock { $0.connects } }

  /// QoS 1 messages sent and not yet acknowledged.
  public var unacknowledgedCount: Int { state.withLock { $0.unacknowledged.count } }

  /// Starts connecting, on a thread of its own.
  public func start() {
    DetachedThread.start { [self] in
      run()
      finished.store(true, ordering: .releasing)
    }
  }

  /// Disconnects cleanly (the broker does not publish the will) and stops trying; with
  /// `disconnecting` false, just closes the connection, as a power cut would, and the
  /// broker publishes the will.
  public func stop(disconnecting: Bool = true) {
    stopped.store(true, ordering: .releasing)
    state.withLock { state in
      if disconnecting, state.connected { _ = state.connection?.send(MQTTPacket.disconnect.bytes) }
      state.connection?.shutdown()
    }
    for _ in 0..<100 where !finished.load(ordering: .acquiring) { SignClock.kernelSleep(0.01) }
  }

  /// Sends a message now if connected. QoS 1 messages are kept until acknowledged, and
  /// sent when the client next connects if it is not connected now; QoS 0 messages sent
  /// while it is not connected are dropped. Returns whether it was written now.
  @discardableResult
  public func publish(_ message: MQTTPacket.Message) -> Bool {
    state.withLock { state in
      var id: UInt16?
      if message.qos > 0 {
        id = state.nextID
        state.nextID = state.nextID == .max ? 1 : state.nextID + 1
        state.unacknowledged.append((id!, message))
        // Never more than 1,000 kept: the oldest go.
        if state.unacknowledged.count > 1000 { state.unacknowledged.removeFirst() }
      }
      guard state.connected, let connection = state.connection else { return false }
      state.lastSent = configuration.clock.monotonic()
      return connection.send(MQTTPacket.publish(message, packetID: id).bytes)
    }
  }

  /// Subscribes to exactly `filters` (QoS 1) besides the configuration's, now if connected
  /// and at every connect from now on: new ones are subscribed to, those no longer listed
  /// unsubscribed from. A filter MQTT does not allow (``MQTTTopic/problem(_:filter:)``) is
  /// left out: sent, it would make the broker drop the connection.
  public func setSubscriptions(_ filters: [String]) {
    state.withLock { state in
      var wanted: [String] = []
      for filter in filters where MQTTTopic.problem(filter, filter: true) == nil {
        if !configuration.subscriptions.contains(filter) && !wanted.contains(filter) { wanted.append(filter) }
      }
      let new = wanted.filter { !state.added.contains($0) }
      let gone = state.added.filter { !wanted.contains($0) }
      guard !new.isEmpty || !gone.isEmpty else { return }
      state.added = state.added.filter { wanted.contains($0) } + new
      guard state.connected, let connection = state.connection else { return }
      state.lastSent = configuration.clock.monotonic()
      if !gone.isEmpty { _ = connection.send(MQTTPacket.unsubscribe(packetID: MQTTClient.unsubscribeID, filters: gone).bytes) }
      if !new.isEmpty { _ = connection.send(MQTTPacket.subscribe(packetID: MQTTClient.laterSubscribeID, topics: new.map { ($0, 1) }).bytes) }
    }
  }

  /// Every filter subscribed to.
  public var subscriptions: [String] { configuration.subscriptions + state.withLock { $0.added } }

  static let firstSubscribeID: UInt16 = 0xFFFF
  static let laterSubscribeID: UInt16 = 0xFFFE
  static let unsubscribeID: UInt16 = 0xFFFD

  // MARK: The connection's thread

  func run() {
    var pause = 0.5
    while !stopped.load(ordering: .acquiring) {
      var reason: String
      var connectedAt: Double?
      do {
        try session { connectedAt = configuration.clock.monotonic() }
        reason = "the broker closed the connection"
      } catch {
        reason = error.description
      }
      // Only a connection that lasted starts the pauses again from the shortest.
      let clock = configuration.clock
      if let connectedAt, clock.monotonic() - connectedAt >= MQTTClient.steadyConnection { pause = 0.5 }
      // The connection let go (a socket closes with it).
      state.withLock { state in
        state.connected = false
        state.connection = nil
      }
      if stopped.load(ordering: .acquiring) { return }
      onEvent(.disconnected(reason: reason, retryIn: pause))
      // The pause, in steps of at most 50 ms so that a stop is noticed.
      let until = clock.monotonic() + pause
      while !stopped.load(ordering: .acquiring) {
        let left = until - clock.monotonic()
        if left <= 0 { break }
        clock.sleep(min(left, 0.05))
      }
      pause = min(configuration.longestPause, pause * 2)
    }
  }

  /// One connection, from connect to its loss; `connected` is called once the broker
  /// accepted it.
  func session(connected: () -> Void) throws(MQTTConnectionError) {
    let connection = try configuration.transport.open(configuration.host, configuration.port)
    state.withLock { $0.connection = connection }
    let clock = configuration.clock
    var connect = MQTTPacket.Connect(
      clientID: configuration.clientID, keepAlive: configuration.keepAlive, username: configuration.username,
      password: configuration.password, will: configuration.will)
    connect.cleanSession = true
    guard connection.send(MQTTPacket.connect(connect).bytes) else { throw MQTTConnectionError("cannot send to the broker") }
    var decoder = MQTTDecoder()
    guard case .connectAcknowledgement(_, let code)? = try readPacket(connection, &decoder, within: 10) else {
      throw MQTTConnectionError("the broker did not answer the connect within 10 s")
    }
    guard code == 0 else { throw MQTTConnectionError(MQTTPacket.refusal(code)) }
    state.withLock { state in
      state.connected = true
      state.connects += 1
      state.lastSent = clock.monotonic()
      let filters = (configuration.subscriptions + state.added).filter { MQTTTopic.problem($0, filter: true) == nil }
      if !filters.isEmpty {
        let topics = filters.map { (filter: $0, qos: UInt8(1)) }
        _ = connection.send(MQTTPacket.subscribe(packetID: MQTTClient.firstSubscribeID, topics: topics).bytes)
      }
      if let greeting = configuration.greeting {
        // Sent again at every connect, so not kept for resending.
        let id: UInt16? = greeting.qos > 0 ? state.nextID : nil
        if greeting.qos > 0 { state.nextID = state.nextID == .max ? 1 : state.nextID + 1 }
        _ = connection.send(MQTTPacket.publish(greeting, packetID: id).bytes)
      }
      // What was not acknowledged goes again, marked as sent before.
      for (id, message) in state.unacknowledged {
        var again = message
        again.duplicate = true
        _ = connection.send(MQTTPacket.publish(again, packetID: id).bytes)
      }
    }
    // The broker was heard (its CONNACK) before anyone learns the client is connected: a
    // clock that moves once `isConnected` says so cannot make the broker seem heard later.
    var lastHeard = clock.monotonic()
    connected()
    onEvent(.connected)
    let keepAlive = Double(configuration.keepAlive)
    while !stopped.load(ordering: .acquiring) {
      let now = clock.monotonic()
      if keepAlive > 0 && now - lastHeard > keepAlive * 1.5 {
        throw MQTTConnectionError("the broker did not answer for \(Int(saturating: keepAlive * 1.5)) s")
      }
      if keepAlive > 0 && now - state.withLock({ $0.lastSent }) >= keepAlive / 2 {
        state.withLock { state in
          state.lastSent = now
          _ = connection.send(MQTTPacket.pingRequest.bytes)
        }
      }
      guard let packet = try readPacket(connection, &decoder, within: 0.25) else { continue }
      lastHeard = clock.monotonic()
      switch packet {
      case .publish(let message, let id):
        if message.qos > 0, let id {
          state.withLock { _ in _ = connection.send(MQTTPacket.publishAcknowledgement(packetID: id).bytes) }
        }
        onMessage(message)
      case .oversized(let topic, let qos, let id, let length):
        if qos > 0, let id {
          state.withLock { _ in _ = connection.send(MQTTPacket.publishAcknowledgement(packetID: id).bytes) }
        }
        onEvent(.skipped(topic: topic, bytes: length))
      case .publishAcknowledgement(let id):
        state.withLock { $0.unacknowledged.removeAll { $0.id == id } }
      case .subscribeAcknowledgement(let id, let granted):
        if let refused = granted.firstIndex(of: 0x80) {
          // A later subscription's acknowledgement names the newest filters (they went last).
          let filters = subscriptions
          let index = id == MQTTClient.firstSubscribeID ? refused : filters.count - granted.count + refused
          let name = filters.indices.contains(index) ? filters[index] : "a topic"
          onEvent(.disconnected(reason: "the broker refused the subscription to \(name)", retryIn: 0))
        }
      default: break
      }
    }
  }

  /// The next packet within `seconds`, or nil; throws when the connection is lost.
  func readPacket(_ connection: any MQTTConnection, _ decoder: inout MQTTDecoder, within seconds: Double) throws(MQTTConnectionError) -> MQTTPacket? {
    let deadline = configuration.clock.monotonic() + seconds
    while true {
      do {
        if let packet = try decoder.next() { return packet }
      } catch {
        throw MQTTConnectionError("the broker sent \(error.description)")
      }
      let left = deadline - configuration.clock.monotonic()
      if left <= 0 { return nil }
      guard let bytes = try connection.receive(within: left) else { return nil }
      decoder.append(bytes)
    }
  }
}

/// Why a connection to the broker failed or ended.
public struct MQTTConnectionError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

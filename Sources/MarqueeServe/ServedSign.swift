import Platform
import HTTP
import Marquee
import MQTT
import SignService
import Synchronization

/// A sign served: its session behind the HTTP routes and the page, and on an MQTT broker
/// if one is given, with SIGHUP as a reload of the config. What `marquee serve` runs
/// beside its frame loop; an embedder runs the same with a display of its own.
public final class ServedSign: Sendable {
  /// Where the sign is on MQTT and what its content there may read.
  public struct MQTTSettings: Sendable {
    public var address: MQTTAddress
    /// The topic prefix the sign's commands are under (`marquee/shop`).
    public var prefix: String
    /// Announces the sign to Home Assistant.
    public var discovery: Bool
    /// The topic filters placeholders in content from MQTT may read.
    public var valueFilters: [String]
    /// The group prefixes whose command topics the sign also takes, in order.
    public var groups: [String] = []
    /// The client ID, made from the address the server listens on (the port the kernel
    /// chose, for port 0): two signs never share one.
    public var clientID: @Sendable (_ listening: String) -> String

    public init(
      address: MQTTAddress, prefix: String, discovery: Bool, valueFilters: [String], clientID: @escaping @Sendable (_ listening: String) -> String
    ) {
      self.address = address
      self.prefix = prefix
      self.discovery = discovery
      self.valueFilters = valueFilters
      self.clientID = clientID
    }
  }

  public let session: SignSession
  public let routes: SignRoutes
  let server: HTTPServer
  let bridge: MQTTBridge?
  /// systemd's notifications, when it started the sign as `Type=notify` (`NOTIFY_SOCKET`).
  let systemd: SystemdLink?

  /// Listens on `listen` (refusing hosts `hosts` does not name, asking `token` for the API
  /// when given) and makes the MQTT bridge; nothing runs until ``start()``.
  ///
  /// - Throws: ``ListenAddress/ListenError`` when the address cannot be bound.
  public init(
    session: SignSession, listen: ListenAddress, hosts: HostNames, token: String?, mqtt: MQTTSettings?, version: String,
    stop: StopFlag, finder: PanelFinderDesk? = nil
  ) throws(ListenAddress.ListenError) {
    self.session = session
    let stats = ServeStats()
    // Without a token, anyone who can reach the API could read other topics through
    // placeholders: the MQTT filters hold for its content too.
    routes = SignRoutes(session: session, stats: stats, valueFilters: mqtt != nil && token == nil ? mqtt?.valueFilters : nil, version: version, finder: finder)
    let hangups = HangupWatch()
    let systemd = SystemdNotifier.fromEnvironment().map {
      SystemdLink(notifier: $0, watchdog: SystemdNotifier.watchdogSeconds(), session: session, stats: stats, stop: stop)
    }
    self.systemd = systemd
    server = try HTTPServer(
      address: listen, responder: routes.responder(hosts: hosts, token: token), clock: session.clock,
      shouldStop: { stop.isSet },
      onTick: { ServedSign.reloadOnHangup(session, seen: hangups, systemd: systemd) })
    let listening = "\(server.address)"
    bridge = mqtt.map { mqtt in
      MQTTBridge(
        session: session, stats: stats, address: mqtt.address, prefix: mqtt.prefix, discovery: mqtt.discovery, clientID: mqtt.clientID(listening),
        valueFilters: mqtt.valueFilters, version: version, groups: mqtt.groups)
    }
  }

  /// The address the server listens on (with the port the kernel chose for port 0).
  public var address: ListenAddress { server.address }

  /// Starts the session's threads, the server and the MQTT connection.
  public func start() {
    session.start()
    server.start()
    bridge?.start()
    systemd?.start()
  }

  /// Says `offline` on MQTT and disconnects, and waits for the server to close (the stop
  /// flag must be set for it to).
  public func finish() {
    systemd?.stopping()
    // The bridge first (it marks itself stopped, then wakes), so that the wake below makes
    // no state to publish on the way out; the systemd link looks at the stop now.
    bridge?.stop()
    session.changes.signal()
    server.join()
  }

  /// After each SIGHUP, the config read again on the session's queue (it reads files).
  static func reloadOnHangup(_ session: SignSession, seen watch: HangupWatch, systemd: SystemdLink?) {
    let count = HangupSignal.count
    guard watch.seen.withLock({ seen in
      defer { seen = count }
      return seen != count
    }) else { return }
    guard session.canReload else { return }
    systemd?.reloading()
    session.submit(.reload) { result in
      defer { systemd?.reloaded() }
      switch result {
      case .success: session.reports.notice("SIGHUP: the config was reloaded")
      case .failure(let refusal) where refusal.kind == .unsupported: break
      case .failure(let refusal): session.reports.warning("SIGHUP: the config was not reloaded: \(refusal); the sign keeps the old one")
      }
    }
  }
}

/// The SIGHUPs a served sign has seen.
final class HangupWatch: Sendable {
  let seen = Mutex(HangupSignal.count)
}

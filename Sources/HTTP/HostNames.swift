import Platform

/// The names a server answers to, checked against each request's `Host`.
///
/// Taken: any IP address literal (a browser sends one only when the person typed it, so
/// it cannot come from a page on another name), `localhost` and names under `.localhost`
/// (RFC 6761: they are this machine), the machine's host name and that name under
/// `.local` (mDNS, as a Pi announces itself), and the names given (`--allow-host`).
/// Everything else is refused, which is what stops DNS rebinding: a page on
/// `evil.example` whose name an attacker points at this machine still sends
/// `Host: evil.example`.
public struct HostNames: Sendable, Equatable {
  /// The names taken besides IP literals and loopback names, in lower case.
  public private(set) var names: Set<String>

  /// This machine's names and `extra`.
  public init(extra: [String] = [], machineName: String? = HostNames.machineName()) {
    names = []
    if let machineName, !machineName.isEmpty {
      names.insert(HostNames.normalized(machineName))
      names.insert(HostNames.normalized(machineName) + ".local")
    }
    for name in extra { names.insert(HostNames.normalized(name)) }
  }

  /// Whether a request for `authority` (`host`, `host:port`, `[v6]:port`) is answered.
  public func allows(_ authority: String) -> Bool {
    let host = HostNames.normalized(HostNames.host(of: authority))
    if host.isEmpty { return false }
    if HostNames.isAddressLiteral(host) { return true }
    if host == "localhost" || host.hasSuffix(".localhost") { return true }
    return names.contains(host)
  }

  /// The host part of an authority: without the port, without IPv6 brackets.
  public static func host(of authority: String) -> String {
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return authority }
      return String(authority[authority.index(after: authority.startIndex)..<close])
    }
    if let colon = authority.lastIndex(of: ":"), authority.firstIndex(of: ":") == colon {
      return String(authority[..<colon])
    }
    return authority
  }

  /// Lower case, without a trailing dot (`Sign.Local.` is `sign.local`).
  static func normalized(_ name: String) -> String {
    var name = name.lowercased()
    if name.hasSuffix(".") { name.removeLast() }
    return name
  }

  /// Whether `host` is an IPv4 address in dotted form or an IPv6 address.
  static func isAddressLiteral(_ host: String) -> Bool {
    IPAddress(host) != nil
  }

  /// The machine's host name (`gethostname`).
  public static func machineName() -> String? { Environment.hostName() }
}

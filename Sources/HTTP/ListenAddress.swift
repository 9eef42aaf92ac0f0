import Platform

/// Where `marquee serve` listens: `HOST:PORT` with an IPv4 address, or `[IPv6]:PORT`.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
  public var host: String
  public var port: UInt16
  public var isIPv6: Bool

  /// The default: loopback only, port 8080.
  public static let loopback = ListenAddress(host: "127.0.0.1", port: 8080, isIPv6: false)

  /// Reads `HOST:PORT` or `[HOST]:PORT`; `nil` when it is neither.
  public init?(_ text: String) {
    // Port 0: any free port (the server says which).
    guard let written = try? HostPort(Substring(text), ports: .anyIncludingZero) else { return nil }
    host = written.host
    port = written.port
    isIPv6 = written.bracketed
    guard IPAddress(host, isIPv6: isIPv6) != nil else { return nil }
  }

  public init(host: String, port: UInt16, isIPv6: Bool) {
    self.host = host
    self.port = port
    self.isIPv6 = isIPv6
  }

  public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// Whether only this machine can reach it: 127.0.0.0/8 (every address of it is the
  /// loopback interface on Linux, 127.0.0.2 as much as 127.0.0.1), `::1`, and IPv4 loopback
  /// written as an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`), in any spelling.
  public var isLoopback: Bool {
    guard let address = IPAddress(host, isIPv6: isIPv6) else { return false }
    let bytes = address.bytes
    if !isIPv6 { return bytes[0] == 127 }
    if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
    let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
    return mapped && bytes[12] == 127
  }

  /// Whether it is every address of the machine (`0.0.0.0`, `::`).
  public var isWildcard: Bool { host == "0.0.0.0" || host == "::" }

  /// Why a server could not listen: the address and the system's reason.
  public struct ListenError: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// A listening, non-blocking socket bound to the address.
  ///
  /// - Throws: ``ListenError`` naming the address (in use, not this machine's, no right).
  public func listen() throws(ListenError) -> Int32 {
    guard let address = IPAddress(host, isIPv6: isIPv6) else { throw ListenError(description: "\(self): not an address") }
    do {
      return try Socket.listen(on: address, port: port)
    } catch {
      if error.operation == "socket" { throw ListenError(description: "\(self): cannot open a socket: \(error.reason)") }
      let advice = error.isAddressInUse ? " (is another marquee serve running? pick another port with --listen)" : ""
      throw ListenError(description: "\(self): cannot listen: \(error.reason)\(advice)")
    }
  }

  /// The address a listening socket is bound to (the port the system chose for port 0).
  public static func bound(_ descriptor: Int32, like address: ListenAddress) -> ListenAddress {
    guard let port = Socket.boundPort(descriptor) else { return address }
    return ListenAddress(host: address.host, port: port, isIPv6: address.isIPv6)
  }
}

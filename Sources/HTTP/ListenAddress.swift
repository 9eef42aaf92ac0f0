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
    guard (try? socketAddress()) != nil else { return nil }
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
    if !isIPv6 {
      var address = in_addr()
      return inet_pton(AF_INET, host, &address) == 1 && UInt32(bigEndian: address.s_addr) >> 24 == 127
    }
    var address = in6_addr()
    guard inet_pton(AF_INET6, host, &address) == 1 else { return false }
    let bytes = withUnsafeBytes(of: address) { Array($0) }
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

  struct BadAddress: Error {}

  /// The address for bind().
  func socketAddress() throws -> (storage: sockaddr_storage, length: socklen_t) {
    func stored<Address>(_ address: Address) -> (storage: sockaddr_storage, length: socklen_t) {
      var storage = sockaddr_storage()
      withUnsafeBytes(of: address) { source in
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
      }
      return (storage, socklen_t(MemoryLayout<Address>.size))
    }
    if isIPv6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { throw BadAddress() }
      return stored(address)
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw BadAddress() }
    return stored(address)
  }

  /// A listening, non-blocking socket bound to the address.
  ///
  /// - Throws: ``ListenError`` naming the address (in use, not this machine's, no right).
  public func listen() throws(ListenError) -> Int32 {
    let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw ListenError(description: "\(self): cannot open a socket: \(String(cString: strerror(errno)))") }
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    guard let (socket, length) = try? socketAddress() else {
      close(descriptor)
      throw ListenError(description: "\(self): not an address")
    }
    var storage = socket
    let bound = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0 else {
      let code = errno
      close(descriptor)
      let advice = code == EADDRINUSE ? " (is another marquee serve running? pick another port with --listen)" : ""
      throw ListenError(description: "\(self): cannot listen: \(String(cString: strerror(code)))\(advice)")
    }
    guard systemListen(descriptor, 64) == 0 else {
      let code = errno
      close(descriptor)
      throw ListenError(description: "\(self): cannot listen: \(String(cString: strerror(code)))")
    }
    return descriptor
  }

  /// The address a listening socket is bound to (the port the system chose for port 0).
  public static func bound(_ descriptor: Int32, like address: ListenAddress) -> ListenAddress {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard result == 0 else { return address }
    let port = withUnsafeBytes(of: storage) { raw in
      address.isIPv6 ? raw.load(as: sockaddr_in6.self).sin6_port : raw.load(as: sockaddr_in.self).sin_port
    }
    return ListenAddress(host: address.host, port: UInt16(bigEndian: port), isIPv6: address.isIPv6)
  }
}


private let systemListen = LibC.listen

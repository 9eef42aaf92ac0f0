#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A listening TCP socket and the calls a server makes on it, so the HTTP module needs no
/// socket structures of the C library.
public enum Socket {
  /// A listening, non-blocking socket bound to `address` (`port` 0: any free port), closed
  /// on exec, with room for `backlog` connections not yet accepted.
  ///
  /// - Throws: ``SystemError`` with the `errno` of the call that failed (its operation is
  ///   `socket`, `bind` or `listen`).
  public static func listen(on address: IPAddress, port: UInt16, backlog: Int32 = 64) throws(SystemError) -> Int32 {
    let descriptor = socket(address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw SystemError.last("socket") }
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    Descriptor.makeNonBlocking(descriptor)
    var (storage, length) = address.socketAddress(port: port)
    let bound = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0 else {
      let error = SystemError.last("bind")
      Descriptor.close(descriptor)
      throw error
    }
    guard Descriptor.listen(descriptor, backlog: backlog) == 0 else {
      let error = SystemError.last("listen")
      Descriptor.close(descriptor)
      throw error
    }
    return descriptor
  }

  /// Connects the socket `descriptor` to `address`:`port` (blocking, as the socket is set);
  /// 0, or -1 with `errno`.
  public static func connect(_ descriptor: Int32, to address: IPAddress, port: UInt16) -> Int32 {
    var (storage, length) = address.socketAddress(port: port)
    return withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { LibC.connect(descriptor, $0, length) }
    }
  }

  /// The port a socket is bound to (the one the system chose for port 0), or nil.
  public static func boundPort(_ descriptor: Int32) -> UInt16? {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard result == 0 else { return nil }
    return withUnsafeBytes(of: storage) { raw in
      Int32(storage.ss_family) == AF_INET6 ? UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
        : UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
    }
  }

  /// A connection waiting on a listening socket, non-blocking and closed on exec; -1 when
  /// none waits (or with `errno` on failure).
  public static func accept(_ listener: Int32) -> Int32 {
    let descriptor = retryingOnInterrupt { acceptWithoutPeer(listener) }
    if descriptor >= 0 { Descriptor.makeNonBlocking(descriptor) }
    return descriptor
  }

  /// Whether the call that just failed only found nothing to do on a non-blocking
  /// descriptor (EAGAIN, EWOULDBLOCK): not an error of the connection.
  public static var lastCallWouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }
}

/// The C library's `accept` with no peer address.
private func acceptWithoutPeer(_ listener: Int32) -> Int32 { accept(listener, nil, nil) }

/// An IPv4 or IPv6 address in its 4 or 16 bytes, read from text by the C library's
/// `inet_pton` (dotted IPv4 only: no `127.1`).
public struct IPAddress: Sendable, Equatable {
  /// The address's bytes, in network order.
  public var bytes: [UInt8]
  /// Whether it is an IPv6 address.
  public var isIPv6: Bool { bytes.count == 16 }

  /// The address written in `text` as IPv6 (`isIPv6`) or IPv4; nil when it is not one.
  public init?(_ text: String, isIPv6: Bool) {
    if isIPv6 {
      var address = in6_addr()
      guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
      bytes = withUnsafeBytes(of: address) { Array($0) }
    } else {
      var address = in_addr()
      guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
      bytes = withUnsafeBytes(of: address) { Array($0) }
    }
  }

  /// The address written in `text`, IPv4 or IPv6; nil when it is neither.
  public init?(_ text: String) {
    guard let address = IPAddress(text, isIPv6: false) ?? IPAddress(text, isIPv6: true) else { return nil }
    self = address
  }

  /// The address for `bind` with `port`.
  func socketAddress(port: UInt16) -> (storage: sockaddr_storage, length: socklen_t) {
    var storage = sockaddr_storage()
    func stored<Address>(_ address: Address) -> socklen_t {
      withUnsafeBytes(of: address) { source in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) } }
      return socklen_t(MemoryLayout<Address>.size)
    }
    if isIPv6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: bytes) }
      let length = stored(address)
      return (storage, length)
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: bytes) }
    let length = stored(address)
    return (storage, length)
  }
}

extension SystemError {
  /// Whether the address asked for is taken (EADDRINUSE): another server listens there.
  public var isAddressInUse: Bool { code == EADDRINUSE }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
/// A TCP connection made the way a client needs it: the host looked up, each address tried,
/// and connect, send and receive giving up after a time instead of hanging.
public enum TCPConnection {
  /// Why a connection could not be made.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    /// Whether the host's name could not be found (else: no address answered).
    public var lookup: Bool
    /// The C library's words for it.
    public var reason: String
    public var description: String { reason }
  }

  /// A connected socket to `host`:`port` (its descriptor, for the caller to close), with
  /// `seconds` as the limit of connect, send and receive; TCP_NODELAY set.
  public static func open(_ host: String, _ port: UInt16, seconds: Int) throws(Failure) -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &found)
    guard status == 0, let first = found else { throw Failure(lookup: true, reason: String(cString: gai_strerror(status))) }
    defer { freeaddrinfo(first) }
    var failure = "no address"
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let address = entry {
      let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.ai_protocol)
      if descriptor >= 0 {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return descriptor }
        failure = String(cString: strerror(errno))
        close(descriptor)
      }
      entry = address.pointee.ai_next
    }
    throw Failure(lookup: false, reason: failure)
  }

  /// Writes all of `bytes` (no SIGPIPE); whether it could.
  public static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let count = retryingOnInterrupt { bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
      guard count > 0 else { return false }
      sent += count
    }
    return true
  }

  /// Ends the connection in both directions: a thread reading it returns.
  public static func shutDown(_ descriptor: Int32) {
    _ = shutdown(descriptor, Int32(SHUT_RDWR))
  }

}

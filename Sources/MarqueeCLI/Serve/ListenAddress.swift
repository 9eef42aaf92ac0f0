#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Drivers
import MatrixCore

/// Where `marquee serve` listens: `HOST:PORT` with an IPv4 address, or `[IPv6]:PORT`.
struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
  var host: String
  var port: UInt16
  var isIPv6: Bool

  /// The default: loopback only, port 8080.
  static let loopback = ListenAddress(host: "127.0.0.1", port: 8080, isIPv6: false)

  /// Reads `HOST:PORT` or `[HOST]:PORT`; `nil` when it is neither.
  init?(_ text: String) {
    let host: Substring, port: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
      host = text[text.index(after: text.startIndex)..<close]
      port = text[text.index(close, offsetBy: 2)...]
      isIPv6 = true
    } else {
      guard let colon = text.lastIndex(of: ":") else { return nil }
      host = text[..<colon]
      port = text[text.index(after: colon)...]
      isIPv6 = false
    }
    // Port 0: any free port (the server says which).
    guard let number = UInt16(port) else { return nil }
    self.host = String(host)
    self.port = number
    guard (try? socketAddress()) != nil else { return nil }
  }

  init(host: String, port: UInt16, isIPv6: Bool) {
    self.host = host
    self.port = port
    self.isIPv6 = isIPv6
  }

  var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// Whether only this machine can reach it (127.0.0.0/8 or ::1).
  var isLoopback: Bool { isIPv6 ? host == "::1" : host.hasPrefix("127.") }

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
  /// - Throws: ``RuntimeError`` naming the address (in use, not this machine's, no right).
  func listen() throws -> Int32 {
    let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw RuntimeError("\(self): cannot open a socket: \(String(cString: strerror(errno)))") }
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    var (storage, length) = try socketAddress()
    let bound = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0 else {
      let code = errno
      close(descriptor)
      let advice = code == EADDRINUSE ? " (is another marquee serve running? pick another port with --listen)" : ""
      throw RuntimeError("\(self): cannot listen: \(String(cString: strerror(code)))\(advice)")
    }
    guard Glibc.listen(descriptor, 64) == 0 else {
      let code = errno
      close(descriptor)
      throw RuntimeError("\(self): cannot listen: \(String(cString: strerror(code)))")
    }
    return descriptor
  }

  /// The address a listening socket is bound to (the port the system chose for port 0).
  static func bound(_ descriptor: Int32, like address: ListenAddress) -> ListenAddress {
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

/// The bearer token a non-loopback server asks for, kept in a file only its owner reads.
enum TokenFile {
  /// Reads the token in `path`, or creates the file (mode 0600) with a new random one.
  ///
  /// - Throws: ``RuntimeError`` naming the file.
  static func load(_ path: String) throws -> String {
    if let bytes = try? FileBytes.read(path, limit: 4096) {
      let token = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: " \n\r\t")
      guard token.count >= 16 else {
        throw RuntimeError("\(path): the token is shorter than 16 characters; delete the file to have a new one made")
      }
      var status = stat()
      if stat(path, &status) == 0 && status.st_mode & 0o077 != 0 {
        printError("Warning: \(path) can be read by others (mode \(String(status.st_mode & 0o777, radix: 8))); chmod 600 it")
      }
      return token
    }
    var random = [UInt8](repeating: 0, count: 24)
    let source = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
    guard source >= 0, read(source, &random, random.count) == random.count else {
      throw RuntimeError("cannot read /dev/urandom to make a token")
    }
    close(source)
    let token = random.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard file >= 0 else {
      throw RuntimeError("\(path): cannot create the token file: \(String(cString: strerror(errno)))")
    }
    defer { close(file) }
    try writeAll(Array((token + "\n").utf8), to: file, what: path)
    printError("Made a new token in \(path) (mode 600): give it to the clients as 'Authorization: Bearer <token>'.")
    return token
  }
}

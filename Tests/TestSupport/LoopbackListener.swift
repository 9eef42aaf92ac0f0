import Foundation
import Platform

/// A TCP socket listening on a loopback port the kernel chose (no fixed port to collide
/// with another test's): for the servers tests play (a broker, a sign that trickles).
public enum LoopbackListener {
  /// The listening descriptor (the caller closes it) and its port, or nil; on `port`, or on
  /// one the kernel picks if it is 0.
  public static func open(port: UInt16 = 0, backlog: Int32 = 8) -> (descriptor: Int32, port: UInt16)? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var one: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard bound, listen(descriptor, backlog) == 0 else {
      close(descriptor)
      return nil
    }
    return (descriptor, UInt16(bigEndian: address.sin_port))
  }
}

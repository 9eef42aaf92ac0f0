import Platform

/// The socket calls the server makes.
enum SocketCalls {
  /// `send` without SIGPIPE; the count sent, or -1 with `errno`.
  static func send(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    LibC.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
  }

  /// `send` of a whole small message, best effort (a refusal before a close).
  static func sendOnce(_ descriptor: Int32, _ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { send(descriptor, $0) }
  }

  /// `recv` into `buffer`; the count read, 0 at the end, or -1 with `errno`.
  static func receive(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    recv(descriptor, buffer.baseAddress, buffer.count, 0)
  }

  /// The bytes sent on `descriptor` that its peer has not acknowledged yet (`SIOCOUTQ`).
  static func unacknowledged(_ descriptor: Int32) -> Int {
    var count: Int32 = 0
    // SIOCOUTQ is TIOCOUTQ on Linux (0x5411).
    return ioctl(descriptor, 0x5411, &count) == 0 ? Int(count) : 0
  }

  /// Makes a descriptor non-blocking and closed on exec.
  static func prepare(_ descriptor: Int32) {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
  }
}

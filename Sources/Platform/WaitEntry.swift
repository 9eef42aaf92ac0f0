#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One descriptor of a ``Descriptor/wait(_:milliseconds:)``: what it is waited for, and
/// afterwards what it is ready for. Laid out as the kernel's `struct pollfd`.
public struct WaitEntry: Sendable {
  var entry: pollfd

  /// Waits on `descriptor` for input (`read`) and for room to write (`write`).
  public init(_ descriptor: Int32, read: Bool, write: Bool = false) {
    entry = pollfd(fd: descriptor, events: Int16((read ? POLLIN : 0) | (write ? POLLOUT : 0)), revents: 0)
  }

  /// Whether anything happened on it.
  public var isReady: Bool { entry.revents != 0 }
  /// Whether it has input, or its peer closed (a read returns at once).
  public var canRead: Bool { entry.revents & Int16(POLLIN | POLLHUP) != 0 }
  /// Whether the connection failed (POLLERR).
  public var failed: Bool { entry.revents & Int16(POLLERR) != 0 }
}

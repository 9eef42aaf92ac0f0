#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls on a descriptor held by its number: what the rest of the package calls
/// instead of the C library's `open`, `read`, `write`, `ioctl`, `close`, `poll`, `send` and
/// `recv`, each retried on EINTR where that is right, each failure readable as `errno`.
///
/// A descriptor one piece of code opens and closes is better held as a ``FileDescriptor``;
/// these are for descriptors kept in tables (a server's connections) or handed between
/// threads.
public enum Descriptor {
  /// Opens `path` closed on exec unless `keepOnExec` (retried on EINTR); the descriptor, or
  /// -1 with `errno`.
  public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0, keepOnExec: Bool = false) -> Int32 {
    retryingOnInterrupt { LibC.open(path, flags | (keepOnExec ? 0 : O_CLOEXEC), mode) }
  }

  /// Closes a descriptor. Never retried: on Linux the number is free after any return.
  public static func close(_ raw: Int32) {
    _ = LibC.close(raw)
  }

  /// Reads up to `buffer.count` bytes (retried on EINTR); the count, 0 at the end, or -1
  /// with `errno`.
  public static func read(_ raw: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    retryingOnInterrupt { LibC.read(raw, buffer.baseAddress, buffer.count) }
  }

  /// Reads once, without a retry: a stop signal's EINTR reaches the caller.
  public static func readOnce(_ raw: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    LibC.read(raw, buffer.baseAddress, buffer.count)
  }

  /// Writes up to `buffer.count` bytes once (no retry: the caller decides, as a stop signal
  /// may be why it was interrupted); the count, or -1 with `errno`.
  public static func write(_ raw: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
    LibC.write(raw, buffer.baseAddress, buffer.count)
  }

  /// Writes all of `bytes` (retried on EINTR and short writes); whether it could.
  @discardableResult
  public static func writeAll(_ raw: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let count = retryingOnInterrupt { bytes[offset...].withUnsafeBytes { LibC.write(raw, $0.baseAddress, $0.count) } }
      guard count > 0 else { return false }
      offset += count
    }
    return true
  }

  /// `ioctl(2)` with a pointer argument, retried on EINTR; its result, or -1 with `errno`.
  public static func control(_ raw: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
    retryingOnInterrupt { LibC.ioctl(raw, request, argument) }
  }

  /// `ioctl(2)` on a value the call fills in or reads; whether it succeeded (`errno` if not).
  public static func control<Value>(_ raw: Int32, _ request: UInt, _ value: inout Value) -> Bool {
    withUnsafeMutableBytes(of: &value) { control(raw, request, $0.baseAddress!) } >= 0
  }

  /// Waits until `raw` has something to read (or its peer closed), at most `milliseconds`
  /// (the wait starts again after a signal); whether it has.
  public static func waitReadable(_ raw: Int32, milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: raw, events: Int16(POLLIN), revents: 0)
    return retryingOnInterrupt { poll(&entry, 1, milliseconds) } == 1
  }

  /// Waits on many descriptors at once (`poll(2)`), at most `milliseconds`; how many are
  /// ready, or -1 with `errno`. Each entry says afterwards what its descriptor is ready for.
  public static func wait(_ entries: inout [WaitEntry], milliseconds: Int32) -> Int32 {
    entries.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: pollfd.self) { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
    }
  }

  /// `send` without SIGPIPE, once; the count sent, or -1 with `errno`.
  public static func send(_ raw: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    LibC.send(raw, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
  }

  /// `send` of a whole small message, best effort (a refusal before a close).
  public static func sendOnce(_ raw: Int32, _ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { send(raw, $0) }
  }

  /// The bytes sent on a socket that its peer has not acknowledged yet (`SIOCOUTQ`, which is
  /// `TIOCOUTQ` on Linux); 0 if the kernel does not say.
  public static func unacknowledged(_ raw: Int32) -> Int {
    var count: Int32 = 0
    return control(raw, 0x5411, &count) ? Int(count) : 0
  }

  /// `recv` into `buffer`, retried on EINTR; the count, 0 at the end, or -1 with `errno`.
  public static func receive(_ raw: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    retryingOnInterrupt { LibC.recv(raw, buffer.baseAddress, buffer.count, 0) }
  }

  /// Marks a bound socket as listening, with room for `backlog` connections not yet accepted;
  /// 0, or -1 with `errno`.
  public static func listen(_ raw: Int32, backlog: Int32) -> Int32 {
    LibC.listen(raw, backlog)
  }

  /// A pipe, both ends closed on exec; nil with `errno` if the system has none to give.
  public static func pipe() -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    guard LibC.pipe(&ends) == 0 else { return nil }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
  }

  /// Makes `raw` non-blocking (and closed on exec).
  public static func makeNonBlocking(_ raw: Int32) {
    _ = fcntl(raw, F_SETFL, fcntl(raw, F_GETFL) | O_NONBLOCK)
    _ = fcntl(raw, F_SETFD, FD_CLOEXEC)
  }

  /// Whether `raw` is a regular file (not a pipe, a terminal or a device).
  public static func isRegularFile(_ raw: Int32) -> Bool {
    var info = stat()
    return fstat(raw, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }

  /// Empties a regular file and moves to its start, to write it again; whether it could
  /// (`errno` if not).
  public static func truncateToStart(_ raw: Int32) -> Bool {
    lseek(raw, 0, SEEK_SET) == 0 && ftruncate(raw, 0) == 0
  }

  /// Whether `raw` is an open descriptor of this process.
  public static func isOpen(_ raw: Int32) -> Bool {
    fcntl(raw, F_GETFD) != -1 || errno != EBADF
  }
}

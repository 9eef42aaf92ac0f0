#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file descriptor this value owns: closed when the value goes away, on every path out
/// of the code that opened it (a thrown error included), unless ``release()`` hands it on.
public struct FileDescriptor: ~Copyable, Sendable {
  /// The descriptor number.
  public let raw: Int32

  /// Takes ownership of `raw` (a valid descriptor).
  public init(owning raw: Int32) {
    self.raw = raw
  }

  /// Opens `path` (retrying on EINTR).
  ///
  /// - Throws: ``SystemError`` with the `errno` of the failed open.
  public init(opening path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemError) {
    let raw = retryingOnInterrupt { LibC.open(path, flags | O_CLOEXEC, mode) }
    guard raw >= 0 else { throw SystemError.last("open", path: path) }
    self.raw = raw
  }

  /// Creates (or truncates) a file to write, as the dump options do; a stop signal
  /// pending ends a blocked open (a FIFO nobody reads).
  ///
  /// - Throws: ``SystemError`` with the `errno` of the failed open.
  public init(creating path: String, operation: String = "create the dump file") throws(SystemError) {
    let raw = StopSignal.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard raw >= 0 else { throw SystemError.last(operation, path: path) }
    self.raw = raw
  }

  /// Creates the file `path` anew, readable by its owner alone: never an existing file, nor
  /// a link someone planted at the name (O_EXCL), so a name in a shared folder is safe.
  public init(creatingNew path: String) throws(SystemError) {
    let raw = StopSignal.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard raw >= 0 else { throw SystemError.last("create", path: path) }
    self.raw = raw
  }

  /// Gives the descriptor up without closing it: the caller owns it now.
  public consuming func release() -> Int32 {
    let raw = self.raw
    discard self
    return raw
  }

  deinit { close(raw) }
}

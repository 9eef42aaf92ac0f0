#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call: its `errno`, what was being done, and on which file.
///
/// The errors of the devices (``description`` aside) are this with advice for their kind of
/// node: SPI, I2C and GPIO wrap one.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The `errno` value.
  public var code: Int32
  /// What was being done (`open`, `write 17 bytes`, `set the SPI mode`).
  public var operation: String
  /// The file or device node, when there is one.
  public var path: String?

  /// Creates the error.
  public init(code: Int32, operation: String, path: String? = nil) {
    self.code = code
    self.operation = operation
    self.path = path
  }

  /// The error of the call that just failed: `errno` as it is now.
  public static func last(_ operation: String, path: String? = nil) -> SystemError {
    SystemError(code: errno, operation: operation, path: path)
  }

  /// The C library's name for the code (`No such file or directory`).
  public var reason: String { String(cString: strerror(code)) }

  /// `PATH: OPERATION failed: REASON`.
  public var description: String {
    (path.map { "\($0): " } ?? "") + "\(operation) failed: \(reason)"
  }
}

/// An error of a device node (SPI, I2C, GPIO) that is a ``SystemError`` with advice for its
/// kind of node: the path, code and operation are the system error's.
public protocol DeviceNodeError: Error, CustomStringConvertible {
  /// The failed call on the node.
  var system: SystemError { get }
  /// The error of a failed call.
  init(system: SystemError)
}

extension DeviceNodeError {
  /// The error of a failed call on the node `path`.
  public init(path: String, code: Int32, operation: String) {
    self.init(system: SystemError(code: code, operation: operation, path: path))
  }

  /// The device node.
  public var path: String { system.path ?? "" }
  /// The `errno` value.
  public var code: Int32 { system.code }
  /// What was being done.
  public var operation: String { system.operation }
}

/// Calls `body` again while it fails with EINTR (a signal arrived during the call), and
/// returns what it returned last: a system call that a signal handler must not break.
@inlinable
public func retryingOnInterrupt<Result: BinaryInteger>(_ body: () -> Result) -> Result {
  while true {
    let result = body()
    if result == -1 && errno == EINTR { continue }
    return result
  }
}

/// Calls `body` again while it fails with EINTR, unless `stopping` says the interruption was
/// a request to stop: then the failure (-1, `errno` EINTR) is returned for the caller to
/// end on.
@inlinable
public func retryingOnInterrupt<Result: BinaryInteger>(unless stopping: () -> Bool, _ body: () -> Result) -> Result {
  while true {
    let result = body()
    if result == -1 && errno == EINTR && !stopping() { continue }
    return result
  }
}

/// Calls `body` again while it returns EINTR, for the calls that return their error number
/// instead of setting `errno` (`clock_nanosleep`, the pthread calls).
///
/// Its own name, not an overload of ``retryingOnInterrupt(_:)``: a trailing closure drops
/// the label, and the compiler then chose this for every call returning an `Int32` (`open`,
/// `accept`, `ioctl`), which a descriptor numbered 4 (EINTR's value) sent round again.
@inlinable
public func retryingWhileErrorCodeIsInterrupted(_ body: () -> Int32) -> Int32 {
  while true {
    let result = body()
    if result == EINTR { continue }
    return result
  }
}

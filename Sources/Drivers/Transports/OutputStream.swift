import Platform
import MatrixCore

/// An error from writing to a file descriptor, keeping the `errno` and what was being done.
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The failed write: its `errno`, and what was being written as the operation.
  public var system: SystemError

  /// The `errno` value.
  public var code: Int32 { system.code }
  /// What was being written.
  public var what: String { system.operation }

  public init(code: Int32, what: String) {
    system = SystemError(code: code, operation: what)
  }

  /// Whether the reader went away (EPIPE): the end of a pipeline, not a failure of ours.
  public var isBrokenPipe: Bool { code == Errno.brokenPipe }

  public var description: String {
    "\(what): \(system.reason)"
  }
}

/// Writes bytes to a file descriptor completely, retrying on EINTR and short writes.
///
/// - Throws: ``OutputError`` with the `errno` of a failed write.
public func writeAll(_ bytes: [UInt8], to descriptor: Int32, what: String) throws(OutputError) {
  try bytes[...].withUnsafeBytes { raw in Result { () throws(OutputError) in try writeAll(raw, to: descriptor, what: what) } }.get()
}

/// Writes a slice of bytes completely, without copying it.
public func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32, what: String) throws(OutputError) {
  try bytes.withUnsafeBytes { raw in Result { () throws(OutputError) in try writeAll(raw, to: descriptor, what: what) } }.get()
}

/// Writes raw bytes completely, retrying on EINTR and short writes.
///
/// Once a stop signal is pending (``StopSignal``), each write waits at most half a second
/// for the descriptor to take it: a reader that stopped reading cannot hold the program.
public func writeAll(_ raw: UnsafeRawBufferPointer, to descriptor: Int32, what: String) throws(OutputError) {
  var offset = 0
  while offset < raw.count {
    if StopSignal.pending != 0 && !StopSignal.waitWritable(descriptor, milliseconds: 500) {
      throw OutputError(code: Errno.interrupted, what: what)
    }
    let written = retryingOnInterrupt(unless: { StopSignal.pending != 0 }) { Descriptor.write(descriptor, UnsafeRawBufferPointer(rebasing: raw[offset...])) }
    if written < 0 {
      // Interrupted by a stop: the top of the loop gives the reader half a second.
      if Errno.current == Errno.interrupted { continue }
      throw OutputError(code: Errno.current, what: what)
    }
    offset += written
  }
}

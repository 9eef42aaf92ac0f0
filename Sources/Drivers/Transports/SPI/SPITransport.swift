import Platform
import MatrixCore

/// Sends latched SPI transactions to a device: each transaction with chip select held for
/// all of its bytes, then released (which latches a MAX7219 chain).
public protocol SPITransport: BatchTransport where Batch == SPITransactions {
  /// Sends the transactions in order.
  mutating func send(_ transactions: SPITransactions) throws
}

extension SPITransport {
  public mutating func reopen() throws {
    throw SPIError(path: "transport", code: Errno.notSupported, operation: "reopen")
  }
}

/// How a display recovers from a failing device: retry with growing pauses.
public struct RetryPolicy: Sendable {
  /// The first pause, in seconds; each next one doubles, up to ``maximumDelay``.
  public var initialDelay: Double
  /// The longest pause, in seconds.
  public var maximumDelay: Double
  /// Sleeps for the given seconds, returning early (false) when the run should stop.
  public var sleep: @Sendable (Double) -> Bool
  /// Told about each failure and the pause before the next attempt.
  public var report: @Sendable (String) -> Void

  /// Creates a policy.
  public init(
    initialDelay: Double = 1, maximumDelay: Double = 30, sleep: @escaping @Sendable (Double) -> Bool,
    report: @escaping @Sendable (String) -> Void
  ) {
    self.initialDelay = initialDelay
    self.maximumDelay = maximumDelay
    self.sleep = sleep
    self.report = report
  }

  /// After `failure`, runs `attempt` (reopen, start up, resend) after pauses of
  /// ``initialDelay``, then twice as long each time up to ``maximumDelay``, until it
  /// succeeds; each failure and the recovery are reported.
  ///
  /// - Throws: the last error, when ``sleep`` says the run should stop.
  public func recover(from failure: any Error, _ attempt: () throws -> Void) throws {
    var delay = initialDelay
    var error = failure
    while true {
      report("\(error); trying again in \(delay) s")
      guard sleep(delay) else { throw error }
      do {
        try attempt()
        report("the device works again")
        return
      } catch let next {
        error = next
        delay = min(maximumDelay, delay * 2)
      }
    }
  }
}

/// A failure of the SPI device, keeping the `errno` and saying what to do about it.
public struct SPIError: DeviceNodeError, Sendable, Equatable {
  /// The failed call: its `errno`, what was being done (`open`, `set the SPI mode`,
  /// `write`) and the device node.
  public var system: SystemError

  /// The error of a failed call on the SPI device `path`.
  public init(system: SystemError) {
    self.system = system
  }

  public var description: String {
    switch code {
    case Errno.noSuchFileOrDirectory where operation == "open":
      return "\(path): no such device — is SPI enabled (dtparam=spi=on)?"
    case Errno.permissionDenied where operation == "open", Errno.notPermitted where operation == "open":
      return "\(path): permission denied — add your user to the 'spi' group "
        + "(sudo usermod -aG spi $USER, then log in again) or run as root"
    case Errno.noSuchDeviceOrAddress where operation == "open", Errno.noSuchDevice where operation == "open":
      return "\(path): no SPI device behind this node (\(name)) — is the spidev driver bound to it?"
    case Errno.inappropriateControl:
      return "\(path): not an SPI device (\(operation): \(name))"
    case Errno.shutDown, Errno.noSuchDevice, Errno.ioError:
      return "\(path): \(operation) failed: \(message) — was the device removed?"
    default:
      return "\(path): \(operation) failed: \(message)"
    }
  }

  var name: String { system.reason }
  var message: String { name }
}

/// Records what was sent, for tests of code that drives a sign.
public struct RecordingTransport: SPITransport {
  /// Every transaction sent, in order.
  public private(set) var transactions: [[UInt8]] = []

  /// Creates an empty recorder.
  public init() {}

  public mutating func send(_ batch: SPITransactions) throws {
    for index in 0..<batch.count { transactions.append(Array(batch.transaction(index))) }
  }
}

/// Writes every latched transaction's raw bytes to a file, in the order sent (`--spi-dump`),
/// so the byte stream can be checked on any machine.
public final class DumpTransport: SPITransport {
  /// The file's path.
  public let path: String
  let file: FileDescriptor
  var descriptor: Int32 { file.raw }

  /// Creates (or truncates) the dump file.
  public init(path: String) throws(SPIError) {
    self.path = path
    do { file = try FileDescriptor(creating: path) } catch { throw SPIError(system: error) }
  }

  /// - Throws: ``OutputError``: a file's errors (a full disk, a size limit), with no advice
  ///   meant for devices.
  public func send(_ transactions: SPITransactions) throws {
    try writeAll(transactions.bytes, to: descriptor, what: path)
  }
}

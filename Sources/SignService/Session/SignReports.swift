import Synchronization

/// Something a running sign reports: a warning (a refused MQTT payload, a stale zone, a
/// broken state file set aside) or a notice (a reload, a clock set).
public struct SignReport: Sendable, Equatable, CustomStringConvertible {
  public enum Level: Sendable, Equatable {
    case notice, warning
  }

  public var level: Level
  public var text: String

  /// A report of `text`, kept as one line a person can read: what came from the network
  /// inside it (a payload, a topic) can neither forge a line of its own nor steer a
  /// terminal (``Swift/String/controlsMadeVisible``).
  public init(_ level: Level, _ text: String) {
    self.level = level
    self.text = text.controlsMadeVisible
  }

  /// The line the command line prints: `Warning: …` for warnings.
  public var description: String { level == .warning ? "Warning: " + text : text }
}

/// Where the service layer hands its reports: the front end chooses (standard error for
/// the command line, a list for an embedder or a test). The last ``recentLimit`` are kept
/// for whoever asks (the page's status).
public final class SignReports: Sendable {
  /// How many recent reports are kept.
  public static let recentLimit = 32
  let sink: @Sendable (SignReport) -> Void
  let kept = Mutex<[SignReport]>([])

  /// Reports handed to `sink` (called on the reporting thread; keep it short).
  public init(_ sink: @escaping @Sendable (SignReport) -> Void) {
    self.sink = sink
  }

  /// Reports printed on standard error, one line each.
  public static func standardError() -> SignReports {
    SignReports { printError($0.description) }
  }

  /// Reports kept only in memory (an embedder's, a test's): read them with ``recent``.
  public static func inMemory() -> SignReports {
    SignReports { _ in }
  }

  public func warning(_ text: String) { report(SignReport(.warning, text)) }
  public func notice(_ text: String) { report(SignReport(.notice, text)) }

  public func report(_ report: SignReport) {
    kept.withLock { list in
      if list.count == SignReports.recentLimit { list.removeFirst() }
      list.append(report)
    }
    sink(report)
  }

  /// The last reports, oldest first.
  public var recent: [SignReport] { kept.withLock { $0 } }
}

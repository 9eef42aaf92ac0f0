#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
/// The service manager's notification socket (systemd's `Type=notify`): one datagram per
/// message on the Unix socket `NOTIFY_SOCKET` names (`@name` for an abstract one), as
/// `sd_notify(3)` sends it; no library needed.
public struct SystemdNotifier: Sendable {
  /// The socket's path (`@` first for an abstract name).
  public let path: String

  /// The notifier `NOTIFY_SOCKET` names, or nil when the sign was not started by a service
  /// manager that listens.
  public static func fromEnvironment() -> SystemdNotifier? {
    guard let value = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), value.hasPrefix("/") || value.hasPrefix("@"),
      value.utf8.count < 108
    else { return nil }
    return SystemdNotifier(path: value)
  }

  public init(path: String) {
    self.path = path
  }

  /// The watchdog's interval in seconds (`WATCHDOG_USEC`), when it is this process's
  /// (`WATCHDOG_PID` absent or ours); nil without a watchdog.
  public static func watchdogSeconds() -> Double? {
    guard let text = getenv("WATCHDOG_USEC").map({ String(cString: $0) }), let microseconds = UInt64(text), microseconds > 0 else {
      return nil
    }
    if let owner = getenv("WATCHDOG_PID").map({ String(cString: $0) }), Int32(owner) != getpid() { return nil }
    return Double(microseconds) / 1_000_000
  }

  /// The longest `STATUS=` text sent, in bytes (systemd shows one line; a datagram past
  /// its size limit would be dropped whole).
  public static let statusLimit = 200

  /// `text` as a `STATUS=` value that cannot break its datagram: control characters (NUL,
  /// newlines, ESC) as spaces, cut at a character's end to ``statusLimit`` bytes with `…`.
  public static func statusLine(_ text: String) -> String {
    var line = ""
    var bytes = 0
    for scalar in text.unicodeScalars {
      let shown: Unicode.Scalar = scalar.properties.generalCategory == .control ? " " : scalar
      let size = String(shown).utf8.count
      if bytes + size > statusLimit - 3 {
        line += "…"
        break
      }
      line.unicodeScalars.append(shown)
      bytes += size
    }
    return line
  }

  /// Sends `message` (`READY=1`, `STATUS=…`, lines joined by newlines); whether it went.
  /// Never waits: a service manager that does not read its socket (a full queue) loses the
  /// message, the sign goes on.
  @discardableResult
  public func send(_ message: String) -> Bool {
    let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    var bytes = Array(path.utf8)
    // An abstract name starts with a NUL byte where the '@' is written.
    if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in bytes.enumerated() { raw[index] = byte }
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
    let payload = Array(message.utf8)
    let sent = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        payload.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), socketAddress, length) }
      }
    }
    return sent == payload.count
  }
}

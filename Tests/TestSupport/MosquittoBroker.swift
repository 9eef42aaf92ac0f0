import Foundation
import Synchronization
import Platform

/// A real MQTT broker (Debian's mosquitto) on loopback, in the foreground as the test's
/// child; stopped and its folder removed when released.
public final class MosquittoBroker {
  /// Whether mosquitto and its clients are installed.
  public static let available = FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_sub")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_pub")

  public let port: Int
  public let folder: String
  var process: ChildProcess?

  /// A broker on a loopback port the kernel says is free now (no fixed port to collide with
  /// another test's or a client's), `users` as below.
  public convenience init(users: [String: String] = [:]) throws {
    try self.init(port: MosquittoBroker.freePort(), users: users)
  }

  /// A loopback TCP port nothing listens on now, below the kernel's range for outgoing
  /// connections: a broker stopped and started again finds its port free, where a port the
  /// kernel picked could meanwhile be the local end of another test's connection.
  public static func freePort() -> Int {
    let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
      .split(whereSeparator: \.isWhitespace).compactMap { Int($0) } ?? []
    let outgoing = range.first ?? 32768
    for _ in 0..<(outgoing > 11_000 ? 200 : 0) {
      let port = nextPort.withLock { next -> Int in
        next = next + 1 < outgoing ? next + 1 : 10_000
        return next
      }
      if let (descriptor, _) = LoopbackListener.open(port: UInt16(port)) {
        close(descriptor)
        return port
      }
    }
    guard let (descriptor, port) = LoopbackListener.open() else { return 0 }
    close(descriptor)
    return Int(port)
  }

  /// The last port `freePort` gave, from a random start so that suites running at once differ.
  static let nextPort = Mutex(Int.random(in: 10_000..<30_000))

  /// A broker on `port`; `users` (name to password) turns anonymous access off; `extra`
  /// lines go at the end of its configuration (a bridge's).
  public init(port: Int, users: [String: String] = [:], extra: String = "") throws {
    self.port = port
    folder = NSTemporaryDirectory() + "marquee-mqtt-\(port)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var config = "listener \(port) 127.0.0.1\npersistence false\n"
    if users.isEmpty {
      config += "allow_anonymous true\n"
    } else {
      let passwords = folder + "/passwords"
      _ = FileManager.default.createFile(atPath: passwords, contents: Data())
      for (user, password) in users {
        _ = try ChildProcess.run("/usr/bin/mosquitto_passwd", ["-b", passwords, user, password], timeout: 30)
      }
      config += "allow_anonymous false\npassword_file \(passwords)\n"
    }
    config += extra
    try config.write(toFile: folder + "/mosquitto.conf", atomically: false, encoding: .utf8)
    self.users = users
    try start()
  }

  let users: [String: String]

  /// The mosquitto_pub and mosquitto_sub arguments naming this broker (and its first user).
  public var clientArguments: [String] {
    var arguments = ["-h", "127.0.0.1", "-p", "\(port)"]
    if let (user, password) = users.first { arguments += ["-u", user, "-P", password] }
    return arguments
  }

  /// Starts the broker and waits (bounded, 15 s) until it accepts a publish. A broker that
  /// exits at once (its port not free yet, just after a stop on a loaded machine) is
  /// started again, up to three times.
  public func start() throws {
    var exits: [String] = []
    for _ in 0..<3 {
      let child = try ChildProcess("/usr/sbin/mosquitto", ["-c", folder + "/mosquitto.conf"])
      process = child
      let deadline = SystemClock.monotonicSeconds() + 15
      while SystemClock.monotonicSeconds() < deadline {
        if publish("probe", "x") { return }
        if child.ends(within: 0.1) { break }
      }
      let result = child.wait(timeout: 5)
      exits.append("status \(result.status): \(result.stderr.suffix(300))")
      usleep(500_000)
    }
    process = nil
    throw BrokerError(description: "mosquitto did not start on port \(port): \(exits.joined(separator: "; "))")
  }

  /// Stops the broker (SIGTERM), waiting for it.
  public func stop() {
    process?.send(SIGTERM)
    _ = process?.wait(timeout: 10)
    process = nil
  }

  /// Publishes with mosquitto_pub; whether it worked.
  @discardableResult
  public func publish(_ topic: String, _ message: String, retain: Bool = false) -> Bool {
    let arguments = clientArguments + ["-t", topic, "-m", message] + (retain ? ["-r"] : [])
    return (try? ChildProcess.run("/usr/bin/mosquitto_pub", arguments, timeout: 10).status) == 0
  }

  /// The first `count` messages on `topic` (retained ones included) within `timeout`
  /// seconds, as "topic payload" lines, read with mosquitto_sub.
  public func receive(_ topic: String, count: Int = 1, timeout: Int = 5) -> [String] {
    let arguments = clientArguments + ["-t", topic, "-C", "\(count)", "-W", "\(timeout)", "-v"]
    let result = try? ChildProcess.run("/usr/bin/mosquitto_sub", arguments, timeout: Double(timeout + 5))
    return (result?.stdout ?? "").split(separator: "\n").map(String.init)
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(atPath: folder)
  }

  struct BrokerError: Error, CustomStringConvertible {
    var description: String
  }
}

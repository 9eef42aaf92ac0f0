import Foundation
import Platform
import Synchronization
import TestSupport
import Testing

/// `marquee serve` under a service manager: a test plays systemd with a datagram socket of
/// its own (`NOTIFY_SOCKET`, `WATCHDOG_USEC`) and reads what the sign says, and when.
@Suite(.offThePool) struct SystemdTests {
  /// systemd's notification socket, as a test holds it: every datagram with when it came.
  final class FakeSystemd: @unchecked Sendable {
    let folder = NSTemporaryDirectory() + "marquee-systemd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    var path: String { folder + "/notify" }
    let descriptor: Int32
    /// What the listening thread shares with the test; the thread holds this, never the fake
    /// itself, so the fake's `deinit` runs (and removes its folder) when the test drops it.
    final class Log: Sendable {
      let heard = Mutex<[(at: Double, message: String)]>([])
      let stopped = Atomic<Bool>(false)
    }
    let log = Log()

    /// `reading: false` binds the socket and never reads it (a manager that hangs).
    init(reading: Bool = true) throws {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      let bytes = Array((folder + "/notify").utf8)
      withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in bytes.enumerated() { raw[index] = byte } }
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
      }
      guard bound == 0 else { throw CLIError("cannot bind the notify socket") }
      guard reading else { return }
      Thread.detachNewThread { [log, descriptor] in
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !log.stopped.load(ordering: .acquiring) {
          var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
          guard poll(&poller, 1, 100) > 0 else { continue }
          let count = recv(descriptor, &buffer, buffer.count, 0)
          guard count > 0 else { continue }
          let message = String(decoding: buffer[0..<count], as: UTF8.self)
          log.heard.withLock { $0.append((SystemClock.monotonicSeconds(), message)) }
        }
      }
    }

    deinit {
      log.stopped.store(true, ordering: .releasing)
      usleep(150_000)
      close(descriptor)
      try? FileManager.default.removeItem(atPath: folder)
    }

    var messages: [String] { log.heard.withLock { $0.map(\.message) } }
    /// When each message starting with `prefix` came.
    func times(of prefix: String) -> [Double] { log.heard.withLock { $0.filter { $0.message.hasPrefix(prefix) }.map(\.at) } }

    /// Whether pings come (two, within 20 s) and then stop: a second and a half with none,
    /// within 30 s, for a watchdog of 1 s.
    /// `between` runs once the pings have begun (to make the loop stick).
    func pingsBeginThenStop(between: () -> Void = {}) -> Bool {
      guard eventually(within: 20, { times(of: "WATCHDOG=1").count >= 2 }) else { return false }
      between()
      return eventually(within: 30) {
          guard let last = times(of: "WATCHDOG=1").last else { return false }
          return SystemClock.monotonicSeconds() - last > 1.5
        }
    }

    func environment(watchdogSeconds: Double) -> [String: String] {
      ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": String(Int(watchdogSeconds * 1_000_000))]
    }
  }

  @Test func readyAfterTheFirstFramePingsWhileShowingReloadingAndStopping() throws {
    let systemd = try FakeSystemd()
    let config = systemd.folder + "/sign.json"
    try #"{"messages": ["Ready"], "width": 32}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let child = try BinaryRunner.start(
      ["serve", "--listen", "127.0.0.1:0", "--config", config, "--output", "ascii", "--mode", "scroll", "--speed", "20"],
      environment: systemd.environment(watchdogSeconds: 2))
    // READY=1 only once a frame is out.
    #expect(eventually(within: 20) { systemd.messages.contains { $0.hasPrefix("READY=1") } })
    // (The frame's bytes may still be in the pipe when READY=1 arrives: waited for, bounded.)
    #expect(eventually(within: 10) { child.outputSoFar.count > 0 }, "READY=1 and no frame")
    #expect(systemd.messages.first == "READY=1", "\(systemd.messages)")
    #expect(systemd.messages.dropFirst().first?.hasPrefix("STATUS=lit; main: config") == true, "\(systemd.messages)")
    // Pings every second (half of 2 s) while the frames go out, with both cores kept busy
    // by two loops of the shell's.
    let load = try (0..<2).map { _ in try TestSupport.ChildProcess("/bin/sh", ["-c", "while :; do :; done"]) }
    defer { for loop in load { loop.send(SIGKILL); _ = loop.wait(timeout: 10) } }
    let before = systemd.times(of: "WATCHDOG=1").count
    #expect(eventually(within: 20) { systemd.times(of: "WATCHDOG=1").count >= before + 5 })
    let pings = systemd.times(of: "WATCHDOG=1").suffix(6)
    let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
    // Under the watchdog's 2 s: systemd restarts the sign only past it.
    #expect(gaps.allSatisfy { $0 < 2.0 }, "gaps \(gaps)")
    // A reload: RELOADING=1 with the moment, then READY=1.
    child.send(SIGHUP)
    #expect(eventually(within: 20) {
      let messages = systemd.messages
      guard let reloading = messages.lastIndex(where: { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") }) else { return false }
      return messages[(reloading + 1)...].contains { $0.hasPrefix("READY=1") }
    }, "\(systemd.messages)")
    child.send(SIGTERM)
    #expect(child.wait(timeout: 20).status == 128 + SIGTERM)
    #expect(eventually(within: 5) { systemd.messages.last == "STOPPING=1" }, "\(systemd.messages.suffix(3))")
  }

  @Test func aFrameLoopStuckInItsDisplayStopsThePings() throws {
    let systemd = try FakeSystemd()
    // The frames go into a pipe nobody reads: once it is full, writing a frame blocks.
    let child = try TestSupport.ChildProcess(
      "/bin/sh", ["-c", "'\(BinaryRunner.path)' serve --listen 127.0.0.1:0 --output ascii --width 64 --mode scroll --speed 40 Stuck | sleep 60"],
      environment: systemd.environment(watchdogSeconds: 1))
    defer {
      child.sendToCommands(SIGKILL)
      _ = child.wait(timeout: 20)
    }
    #expect(systemd.pingsBeginThenStop(), "\(systemd.messages)")
    #expect(!systemd.messages.contains("STOPPING=1"))
  }

  /// Finding 6 of the third attack: a program named with a NUL, or 5,000 characters long,
  /// went into READY=1's datagram as its STATUS, which systemd drops (NUL, or over its size):
  /// a `Type=notify` unit never became ready. READY=1 now goes alone, and STATUS is one
  /// short line of visible characters.
  @Test(arguments: ["a NUL and escapes", "5,000 characters"])
  func aProgramsNameCannotKeepSystemdFromReady(kind: String) throws {
    let name = kind == "5,000 characters" ? String(repeating: "长", count: 5_000) : "a\\u0000b\\u001b]0;title\\u0007"
    let systemd = try FakeSystemd()
    let config = systemd.folder + "/sign.json"
    try #"{"messages": ["Ready"], "width": 32, "programs": [{"name": "\#(name)", "default": true, "messages": ["P"]}]}"#
      .write(toFile: config, atomically: true, encoding: .utf8)
    let child = try BinaryRunner.start(["serve", "--listen", "127.0.0.1:0", "--config", config, "--output", "ascii"], environment: systemd.environment(watchdogSeconds: 2))
    #expect(eventually(within: 20) { systemd.messages.contains("READY=1") }, "\(systemd.messages.map { $0.prefix(80) })")
    #expect(eventually(within: 20) { systemd.messages.contains { $0.hasPrefix("STATUS=program ") } })
    for status in systemd.messages where status.hasPrefix("STATUS=") {
      #expect(status.utf8.count <= "STATUS=".utf8.count + 200, "\(status.utf8.count) bytes")
      #expect(!status.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(status.debugDescription)")
    }
    child.send(SIGTERM)
    #expect(child.wait(timeout: 20).status == 128 + SIGTERM)
  }

  /// Finding 7: a notification socket nobody reads (its queue full) blocked `sendto` on the
  /// server and shutdown paths: SIGTERM never completed and, after SIGHUP, `GET /api/state`
  /// timed out. The sign never waits on it now.
  @Test func anUnreadNotifySocketNeverBlocksTheSign() throws {
    let systemd = try FakeSystemd(reading: false)
    // The socket's queue filled before the sign starts, as a manager that stopped reading.
    let filler = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    defer { close(filler) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(systemd.path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in bytes.enumerated() { raw[index] = byte } }
    var queued = 0
    let payload = [UInt8](repeating: 0x41, count: 1024)
    while queued < 100_000 {
      let sent = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(filler, payload, payload.count, 0, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
      }
      guard sent > 0 else { break }
      queued += 1
    }
    #expect(errno == EAGAIN, "the queue did not fill (\(queued) datagrams)")
    let config = systemd.folder + "/sign.json"
    try #"{"messages": ["Ready"], "width": 32}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let sign = try ServedSign(["--config", config, "--output", "ascii"], environment: systemd.environment(watchdogSeconds: 1))
    for _ in 0..<3 {
      sign.child.send(SIGHUP)
      #expect(sign.client.request("GET", "/api/state")?.status == 200)
    }
    #expect(sign.stop().status == 128 + SIGTERM)
  }

  @Test func aSignRestingInItsOffHoursKeepsPinging() throws {
    let systemd = try FakeSystemd()
    let config = systemd.folder + "/sign.json"
    try #"{"messages": ["Night"], "width": 32, "off": [{"times": ["00:00-24:00"]}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let child = try BinaryRunner.start(["serve", "--listen", "127.0.0.1:0", "--config", config, "--output", "ascii"], environment: systemd.environment(watchdogSeconds: 1))
    #expect(eventually(within: 20) { systemd.messages.contains("READY=1") && systemd.messages.contains { $0.hasPrefix("STATUS=") && $0.contains("dark: off hours") } }, "\(systemd.messages)")
    // Asleep, the frame loop rests: the pings go on.
    let before = systemd.times(of: "WATCHDOG=1").count
    #expect(eventually(within: 20) { systemd.times(of: "WATCHDOG=1").count >= before + 4 })
    child.send(SIGTERM)
    #expect(child.wait(timeout: 20).status == 128 + SIGTERM)
  }

  /// The HUB12 scanning thread stuck in the kernel (the fake kernel never returns from a
  /// setting of the lines): the frame loop goes on, but the pings stop.
  @Test func aScanStuckInTheKernelStopsThePings() throws {
    let systemd = try FakeSystemd()
    var environment = HUB12KernelTests.environment.merging(systemd.environment(watchdogSeconds: 1)) { $1 }
    environment["MARQUEE_FAKE_GPIO_HANG_AFTER"] = "20000"
    let child = try BinaryRunner.start(
      ["serve", "--listen", "127.0.0.1:0", "--board", "hub12-p10-32x16", "--fps", "20", "Scan"], environment: environment)
    defer {
      child.send(SIGKILL)
      _ = child.wait(timeout: 20)
    }
    #expect(systemd.pingsBeginThenStop(), "\(systemd.messages) \(child.errorSoFar)")
  }

  /// The HUB75 refresh thread stuck (the fake kernel never wakes it from a sleep once the
  /// test asks): the frame loop goes on, but the pings stop.
  @Test func aHUB75RefreshStuckStopsThePings() throws {
    let systemd = try FakeSystemd()
    let pi = PiFixtures.FakePi(tree: try PiFixtures.pi4Tree(), registers: try PiFixtures.registerFile(length: 4096))
    defer { pi.remove() }
    let trigger = systemd.folder + "/hang"
    var environment = HUB75BinaryTests.environment(registers: pi.registers, tree: pi.tree).merging(systemd.environment(watchdogSeconds: 1)) { $1 }
    environment["MARQUEE_FAKE_SLEEP_HANG"] = "marquee-hub75:" + trigger
    let child = try BinaryRunner.start(["serve", "--listen", "127.0.0.1:0", "--board", "hub75-p4-64x32", "--fps", "20", "RGB"], environment: environment)
    defer {
      child.send(SIGKILL)
      _ = child.wait(timeout: 20)
    }
    #expect(systemd.pingsBeginThenStop { _ = FileManager.default.createFile(atPath: trigger, contents: nil) }, "\(systemd.messages) \(child.errorSoFar)")
  }
}

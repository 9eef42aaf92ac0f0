import Foundation
import Platform

/// Runs another program and measures it: wall time from start to exit and its CPU time.
struct ChildRun {
  var status: Int32
  var wallNs: Int64
  var cpuNs: Int64
  var output: String
}

enum ChildProcess {
  /// Spawns `arguments[0]` with `arguments`, standard output captured (stdin from /dev/null,
  /// or with `openInput` a pipe held open and silent until the child exits, or `inputFile`),
  /// and waits for it.
  static func run(_ arguments: [String], environment: [String: String] = [:], openInput: Bool = false, inputFile: String? = nil) -> ChildRun? {
    guard let captured = Descriptor.pipe() else { return nil }
    let fds = [captured.read, captured.write]
    var input: [Int32] = [-1, -1]
    if openInput {
      guard let ends = Descriptor.pipe() else { return nil }
      input = [ends.read, ends.write]
    }
    defer { for fd in input where fd >= 0 { Descriptor.close(fd) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    if openInput {
      posix_spawn_file_actions_adddup2(&actions, input[0], 0)
      posix_spawn_file_actions_addclose(&actions, input[1])
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, inputFile ?? "/dev/null", OpenFlag.readOnly, 0)
    }
    let merged = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let start = Measure.monotonic()
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else {
      Descriptor.close(fds[0])
      Descriptor.close(fds[1])
      return nil
    }
    Descriptor.close(fds[1])
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Descriptor.read(fds[0], into: $0) }
      if count <= 0 { break }
      if output.count < 1 << 20 { output += chunk[0..<count] }
    }
    Descriptor.close(fds[0])
    var status: Int32 = 0
    var usage = rusage()
    _ = retryingOnInterrupt { wait4(pid, &status, 0, &usage) }
    let end = Measure.monotonic()
    let cpu = Measure.nanoseconds(usage.ru_utime) + Measure.nanoseconds(usage.ru_stime)
    return ChildRun(
      status: (status >> 8) & 0xFF, wallNs: end - start, cpuNs: cpu,
      output: String(decoding: output, as: UTF8.self))
  }

  /// Starts `arguments[0]` in the background, its output to /dev/null; its process ID, or
  /// nil if it could not start. The caller stops it (``stop(_:)``).
  static func start(_ arguments: [String]) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? OpenFlag.readOnly : OpenFlag.writeOnly, 0) }
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return nil }
    return pid
  }

  /// Stops a process ``start(_:)`` started, and waits for it.
  static func stop(_ pid: pid_t) {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    _ = retryingOnInterrupt { waitpid(pid, &status, 0) }
  }

  /// A TCP port on loopback that nothing listens on now (the kernel's choice).
  static func freePort() -> UInt16? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    defer { Descriptor.close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    return bound ? UInt16(bigEndian: address.sin_port) : nil
  }

  /// The path of a program found in `PATH` or in /usr/sbin (where Debian puts mosquitto).
  static func find(_ name: String) -> String? {
    let path = (Environment.value("PATH") ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
  }

  /// Starts `arguments[0]` (output to /dev/null), lets it run for `seconds`, and returns
  /// its peak resident memory in KiB, read from /proc while it runs (`VmHWM`), and the CPU
  /// time it used, then stops it with SIGTERM. `nil` if it ended before.
  ///
  /// Not from the exit status's rusage: a child spawned from this process counts this
  /// process's own peak as its starting point, and the benchmark has grown by then.
  static func peakResident(_ arguments: [String], runFor seconds: Double) -> (kib: Int, cpuNs: Int64)? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", OpenFlag.readOnly, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", OpenFlag.writeOnly, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    let deadline = Measure.monotonic() + Int64(seconds * 1e9)
    while Measure.monotonic() < deadline {
      if waitpid(pid, &status, WNOHANG) == pid { return nil }
      SignClock.kernelSleep(0.01)
    }
    let peak = highWaterMark(of: pid)
    kill(pid, SIGTERM)
    var usage = rusage()
    _ = retryingOnInterrupt { wait4(pid, &status, 0, &usage) }
    return peak.map { ($0, Measure.nanoseconds(usage.ru_utime) + Measure.nanoseconds(usage.ru_stime)) }
  }

  /// `VmHWM` of a running process, in KiB.
  static func highWaterMark(of pid: pid_t) -> Int? {
    guard let file = fopen("/proc/\(pid)/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
      let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if text.hasPrefix("VmHWM:") { return Int(text.dropFirst(6).filter(\.isNumber)) }
    }
    return nil
  }

  /// The path of this executable's folder (where `marquee` is built beside it).
  static var ownFolder: String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return "." }
    let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
  }
}

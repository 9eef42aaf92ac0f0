import Glibc

/// Runs another program and measures it: wall time from start to exit, its CPU time and its
/// peak resident memory.
struct ChildRun {
  var status: Int32
  var wallNs: Int64
  var cpuNs: Int64
  var maxRSSKiB: Int
  var output: String
}

enum ChildProcess {
  /// Spawns `arguments[0]` with `arguments`, standard output captured (stdin from /dev/null),
  /// and waits for it.
  ///
  /// The child's peak memory, as the kernel counts it, starts from this process's own peak
  /// (the child shares its memory until it execs), so memory measurements keep this
  /// process small: `keepOutput` false reads and drops the output.
  static func run(_ arguments: [String], environment: [String: String] = [:], keepOutput: Bool = true) -> ChildRun? {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    var environ: [String] = []
    var index = 0
    while let entry = Glibc.environ[index] {
      let text = String(cString: entry)
      if !environment.keys.contains(where: { text.hasPrefix($0 + "=") }) { environ.append(text) }
      index += 1
    }
    environ += environment.map { "\($0.key)=\($0.value)" }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environ.map { strdup($0) } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let start = Measure.monotonic()
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else {
      close(fds[0])
      close(fds[1])
      return nil
    }
    close(fds[1])
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(fds[0], &chunk, chunk.count)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      if keepOutput && output.count < 1 << 20 { output += chunk[0..<count] }
    }
    close(fds[0])
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let end = Measure.monotonic()
    let cpu = Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000_000
      + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1_000
    return ChildRun(
      status: (status >> 8) & 0xFF, wallNs: end - start, cpuNs: cpu, maxRSSKiB: usage.ru_maxrss,
      output: String(decoding: output, as: UTF8.self))
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

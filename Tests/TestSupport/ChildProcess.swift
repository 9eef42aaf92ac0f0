import Foundation
import Platform

/// What a finished (or stopped) child process did.
public struct ChildResult: Sendable {
  /// The exit status, or the signal number when `signalled`.
  public var status: Int32
  /// Standard output as bytes, for tools whose output is binary.
  public var stdoutData: Data
  public var stderr: String
  /// Whether the process was ended by a signal rather than exiting.
  public var signalled: Bool
  /// Whether it outlived its time limit and was killed.
  public var timedOut: Bool
  /// Standard output as text.
  public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
}

/// A child process for tests, every wait on it bounded.
///
/// Standard output and error go to temporary files, not pipes, so a grandchild that
/// daemonises with them open (a tmux server, a broker) can never keep a reader waiting for
/// an end of file. The child leads its own process group, so a time-out kills the whole
/// pipeline it started. No descriptor of the test process leaks into it.
public final class ChildProcess: @unchecked Sendable {
  /// The child's process id (and process group id).
  public let pid: pid_t
  private let outPath: String, errPath: String
  private var inputFD: Int32
  private var finished: ChildResult?

  /// Starts `executable` with `arguments`; `environment` entries are added to this process's.
  /// With `input` false the child reads from /dev/null; otherwise write with `write(_:)`.
  public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], input: Bool = false) throws {
    _ = Self.ignoreBrokenPipes
    outPath = try Self.temporaryFile()
    errPath = try Self.temporaryFile()
    let outFD = open(outPath, O_WRONLY | O_CLOEXEC), errFD = open(errPath, O_WRONLY | O_CLOEXEC)
    defer { close(outFD); close(errFD) }
    var inRead: Int32 = -1
    inputFD = -1
    if input {
      guard let ends = closeOnExecPipe() else { throw ChildError("pipe: error \(errno)") }
      (inRead, inputFD) = ends
    } else {
      inRead = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }
    defer { close(inRead) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, inRead, 0)
    posix_spawn_file_actions_adddup2(&actions, outFD, 1)
    posix_spawn_file_actions_adddup2(&actions, errFD, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    posix_spawnattr_setpgroup(&attributes, 0)
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    // A test runner may ignore or catch these; the child starts as a shell would start it.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)

    var merged = ProcessInfo.processInfo.environment
    merged.merge(environment) { $1 }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var child: pid_t = 0
    let error = descriptorLock.withLock { posix_spawn(&child, executable, &actions, &attributes, argv, envp) }
    guard error == 0 else {
      if inputFD >= 0 { close(inputFD) }
      throw ChildError("cannot start \(executable): error \(error)")
    }
    pid = child
  }

  deinit {
    if finished == nil { _ = wait(timeout: 0) }
    if inputFD >= 0 { close(inputFD) }
    unlink(outPath)
    unlink(errPath)
  }

  /// Runs a command to its end (at most `timeout` seconds), feeding it `input`.
  public static func run(
    _ executable: String, _ arguments: [String], input: Data? = nil,
    environment: [String: String] = [:], timeout: Double = 120
  ) throws -> ChildResult {
    let child = try ChildProcess(executable, arguments, environment: environment, input: input != nil)
    if let input {
      child.write(input)
      child.closeInput()
    }
    return child.wait(timeout: timeout)
  }

  /// Whether `command` is a program on the PATH (what `/usr/bin/env` would run).
  public static func commandExists(_ command: String) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(command)") }
  }

  /// Runs `command` with /bin/sh to its end (at most `timeout` seconds).
  public static func shell(_ command: String, timeout: Double = 120) throws -> ChildResult {
    try run("/bin/sh", ["-c", command], timeout: timeout)
  }

  /// Writes to the child's standard input; a child that stopped reading is not an error.
  public func write(_ data: Data) {
    guard inputFD >= 0 else { return }
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Descriptor.write(inputFD, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return }
        offset += written
      }
    }
  }

  /// Closes the child's standard input, so it reads an end of file.
  public func closeInput() {
    if inputFD >= 0 { close(inputFD) }
    inputFD = -1
  }

  /// Sends `signal` to the child alone.
  public func send(_ signal: Int32) { kill(pid, signal) }

  /// Sends `signal` to the commands a shell child runs (its children), so the shell goes
  /// on to report their status; to the child itself if it has none (a shell that exec'd
  /// its last command is that command).
  public func sendToCommands(_ signal: Int32) {
    let list = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
    let children = list.split(separator: " ").compactMap { pid_t($0) }
    if children.isEmpty { kill(pid, signal) }
    for child in children { kill(child, signal) }
  }

  /// Whether the child ends within `seconds` (it is left running if not).
  public func ends(within seconds: Double) -> Bool {
    if finished != nil { return true }
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      var info = siginfo_t()
      // WNOWAIT: look without reaping, so wait(timeout:) still collects the status.
      if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid { return true }
      usleep(5_000)
    }
    return false
  }

  /// What the child has written to its standard error so far.
  public var errorSoFar: String {
    String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data(), as: UTF8.self)
  }

  /// What the child has written to its standard output so far.
  public var outputSoFar: Data { (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data() }

  /// Waits (polling, at most `timeout` seconds) until `condition` holds of the output so far.
  @discardableResult
  public func waitForOutput(timeout: Double = 30, _ condition: (Data) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition(outputSoFar) { return true }
      usleep(10_000)
    }
    return condition(outputSoFar)
  }

  /// Waits for the child to end; past `timeout` seconds its whole process group is killed.
  public func wait(timeout: Double = 120) -> ChildResult {
    if let finished { return finished }
    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    var timedOut = false
    while true {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid { break }
      if reaped < 0 && errno != EINTR {
        status = -1  // someone else reaped it: report no status rather than a success
        break
      }
      if Date() >= deadline {
        timedOut = true
        kill(-pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        break
      }
      usleep(2_000)
    }
    closeInput()
    let signal = status == -1 ? 0 : status & 0x7F
    let result = ChildResult(
      status: status == -1 ? -1 : signal == 0 ? (status >> 8) & 0xFF : signal,
      stdoutData: outputSoFar,
      stderr: String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data(), as: UTF8.self),
      signalled: signal != 0, timedOut: timedOut)
    finished = result
    return result
  }

  /// Writing to a child that stopped reading must be an error to ignore, not a signal
  /// that ends the test run.
  private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

  private static func temporaryFile() throws -> String {
    var template = Array((NSTemporaryDirectory() + "/marquee-child-XXXXXX").utf8CString)
    let fd = descriptorLock.withLock { () -> Int32 in
      let fd = mkstemp(&template)
      if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      return fd
    }
    guard fd >= 0 else { throw ChildError("mkstemp: error \(errno)") }
    close(fd)
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// Held while a descriptor exists without its close-on-exec flag and while a child is
/// spawned, so no child inherits a descriptor it should not (the C library's module does not
/// offer pipe2 or mkostemp, which set the flag atomically).
private let descriptorLock = NSLock()

/// A pipe whose two ends are closed in every child process: (read end, write end).
public func closeOnExecPipe() -> (Int32, Int32)? {
  descriptorLock.withLock {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
  }
}

/// A child process that could not be started.
public struct ChildError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

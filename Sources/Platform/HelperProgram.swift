#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import CPlatform

/// A helper program run to its end with bounds: what it writes is read up to a limit, and it
/// is killed (with everything it started) when it writes more or outlives its deadline.
///
/// The sign runs one for each `https://` fetch (`marquee-https`), so what the helper links
/// (Foundation, libcurl) is never loaded into the sign, and a helper that hangs or floods
/// costs the sign nothing but the wait it chose.
public enum HelperProgram {
  /// How a run ended.
  public enum Ending: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal it did not catch ended it (the signal's number).
    case signalled(Int32)
    /// It was still running at the deadline, and was killed.
    case outlivedDeadline
    /// It wrote more than the limit to its standard output, and was killed.
    case wroteTooMuch
  }

  /// What a run wrote and how it ended.
  public struct Outcome: Sendable {
    public var ending: Ending
    /// Standard output, at most the limit given.
    public var output: [UInt8]
    /// Standard error, its first few kilobytes.
    public var errors: [UInt8]

    /// Standard error as text, its last line ending trimmed.
    public var errorText: String {
      var text = String(decoding: errors, as: UTF8.self)
      while text.last?.isNewline == true { text.removeLast() }
      return text
    }
  }

  /// The most of standard error kept: the helper's reason fits in far less.
  public static let errorLimit = 4096

  /// Runs `path` with `arguments` until it ends or the monotonic clock reaches `deadline`
  /// (``SystemClock/monotonicSeconds()``), keeping at most `outputLimit` bytes of its output.
  ///
  /// - Throws: ``SystemError`` when it cannot be started (no such file, not executable).
  public static func run(_ path: String, _ arguments: [String], outputLimit: Int, deadline: Double) throws(SystemError) -> Outcome {
    guard let output = Descriptor.pipe() else { throw SystemError.last("pipe") }
    guard let errors = Descriptor.pipe() else {
      Descriptor.close(output.read)
      Descriptor.close(output.write)
      throw SystemError.last("pipe")
    }
    defer {
      Descriptor.close(output.read)
      Descriptor.close(errors.read)
    }
    var pid: Int32 = 0
    let failure = withArgumentVector([path] + arguments) { marquee_spawn(path, $0, output.write, errors.write, &pid) }
    Descriptor.close(output.write)
    Descriptor.close(errors.write)
    guard failure == 0 else { throw SystemError(code: failure, operation: "start", path: path) }

    var outcome = Outcome(ending: .exited(0), output: [], errors: [])
    var open: [(descriptor: Int32, isOutput: Bool)] = [(output.read, true), (errors.read, false)]
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while !open.isEmpty {
      let left = deadline - SystemClock.monotonicSeconds()
      guard left > 0 else { return stopped(pid, outcome, .outlivedDeadline) }
      var entries = open.map { WaitEntry($0.descriptor, read: true) }
      let ready = Descriptor.wait(&entries, milliseconds: Int32(min(left * 1000 + 1, 60_000)))
      guard ready > 0 else { continue }
      for (index, entry) in entries.enumerated().reversed() where entry.isReady {
        let count = chunk.withUnsafeMutableBytes { Descriptor.read(open[index].descriptor, into: $0) }
        guard count > 0 else {
          open.remove(at: index)
          continue
        }
        if open[index].isOutput {
          guard outcome.output.count + count <= outputLimit else { return stopped(pid, outcome, .wroteTooMuch) }
          outcome.output += chunk[0..<count]
        } else if outcome.errors.count < errorLimit {
          outcome.errors += chunk[0..<min(count, errorLimit - outcome.errors.count)]
        }
      }
    }
    // Both ends closed: it is ending; a helper that closed them and lingers meets the deadline.
    while true {
      if let ending = reaped(pid, blocking: false) {
        outcome.ending = ending
        return outcome
      }
      guard SystemClock.monotonicSeconds() < deadline else { return stopped(pid, outcome, .outlivedDeadline) }
      SystemClock.sleep(until: SystemClock.monotonicNanoseconds() + 2_000_000)
    }
  }

  /// Kills the helper's process group, waits for it, and says why it was stopped.
  private static func stopped(_ pid: Int32, _ outcome: Outcome, _ ending: Ending) -> Outcome {
    _ = kill(-pid, SIGKILL)
    _ = reaped(pid, blocking: true)
    var stopped = outcome
    stopped.ending = ending
    return stopped
  }

  /// The helper's end when it has ended (waiting for it when `blocking`), else nil.
  private static func reaped(_ pid: Int32, blocking: Bool) -> Ending? {
    var status: Int32 = 0
    let result = retryingOnInterrupt { waitpid(pid, &status, blocking ? 0 : WNOHANG) }
    guard result == pid else { return result < 0 ? .exited(-1) : nil }
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
  }

  /// Calls `body` with `strings` as a NULL-terminated C argument vector.
  private static func withArgumentVector<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
    let vector = strings.map { strdup($0) } + [nil]
    defer { vector.forEach { free($0) } }
    return vector.withUnsafeBufferPointer { body($0.baseAddress!) }
  }
}

/// The calls that give one process a private view of the file system: what `marquee-https`
/// uses to trust a source's own certificate authority without changing the system's.
public enum PrivateMounts {
  /// Moves this process (which must have one thread) into a mount namespace of its own, in
  /// a user namespace of its own when it is not root.
  public static func enter() throws(SystemError) {
    guard marquee_enter_private_mounts() == 0 else { throw SystemError.last("enter a private mount namespace") }
  }

  /// Binds the file `source` over `target`, for this process alone (after ``enter()``).
  public static func bind(_ source: String, over target: String) throws(SystemError) {
    guard marquee_bind_mount(source, target) == 0 else { throw SystemError.last("bind \(source) over", path: target) }
  }
}

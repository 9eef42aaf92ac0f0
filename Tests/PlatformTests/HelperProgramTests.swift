import Foundation
import Platform
import Testing

/// A helper program run by the sign: its output and error read to the end or to a limit,
/// its status or signal, nothing of the sign's descriptors inherited, and a helper that
/// outlives its deadline or floods its output killed with all it started, in time.
@Suite struct HelperProgramTests {
  static let shell = "/bin/sh"

  @Test func outputErrorsAndStatusAreRead() throws {
    let run = try HelperProgram.run(Self.shell, ["-c", "printf 'one\\ntwo'; echo 'went wrong' >&2; exit 3"], outputLimit: 100, deadline: SystemClock.monotonicSeconds() + 10)
    #expect(run.ending == .exited(3))
    #expect(run.output == Array("one\ntwo".utf8) && run.errorText == "went wrong")
    let killed = try HelperProgram.run(Self.shell, ["-c", "kill -9 $$"], outputLimit: 100, deadline: SystemClock.monotonicSeconds() + 10)
    #expect(killed.ending == .signalled(9))
  }

  @Test func onlyTheThreeStandardDescriptorsAreInherited() throws {
    // A descriptor of this process that is not closed on exec.
    let kept = open("/dev/null", O_RDONLY)
    defer { close(kept) }
    let run = try HelperProgram.run("/bin/ls", ["/proc/self/fd"], outputLimit: 1000, deadline: SystemClock.monotonicSeconds() + 10)
    #expect(run.ending == .exited(0))
    // ls's own listing descriptor is the fourth.
    #expect(String(decoding: run.output, as: UTF8.self).split(separator: "\n").count <= 4, "\(String(decoding: run.output, as: UTF8.self))")
  }

  @Test func aHelperPastItsDeadlineOrLimitIsKilledWithWhatItStarted() throws {
    var started = SystemClock.monotonicSeconds()
    let hanging = try HelperProgram.run(Self.shell, ["-c", "sleep 30 & echo $! >&2; sleep 30"], outputLimit: 100, deadline: started + 0.5)
    #expect(hanging.ending == .outlivedDeadline)
    #expect(SystemClock.monotonicSeconds() - started < 5)
    // The grandchild went with it: its process group was killed.
    let grandchild = try #require(Int32(hanging.errorText))
    #expect(eventuallyGone(grandchild), "the helper's own child outlived it")

    started = SystemClock.monotonicSeconds()
    let flooding = try HelperProgram.run("/usr/bin/yes", [], outputLimit: 10_000, deadline: started + 30)
    #expect(flooding.ending == .wroteTooMuch && flooding.output.count <= 10_000)
    #expect(SystemClock.monotonicSeconds() - started < 10)
  }

  @Test func aMissingProgramIsAnErrorNamingIt() {
    do {
      _ = try HelperProgram.run("/nonexistent/helper", [], outputLimit: 10, deadline: SystemClock.monotonicSeconds() + 5)
      Issue.record("a missing program started")
    } catch {
      #expect(error.code == ENOENT && error.description.contains("/nonexistent/helper"), "\(error)")
    }
  }

  /// Whether process `pid` is gone (or a zombie nobody waits for) within five seconds.
  func eventuallyGone(_ pid: Int32) -> Bool {
    for _ in 0..<250 {
      let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
      if state == nil || state == "Z" { return true }
      usleep(20_000)
    }
    return false
  }
}

import Platform
import Synchronization
import Testing

/// The scanning loops' thread: real-time when allowed, joinable, and kept to the CPU the
/// kernel isolates.
@Suite struct RealTimeThreadTests {
  @Test func theIsolatedCPUListReadsAsTheKernelWritesIt() {
    #expect(RealTimeThread.isolatedCPUs("") == [])
    #expect(RealTimeThread.isolatedCPUs("\n") == [])
    #expect(RealTimeThread.isolatedCPUs("3\n") == [3])
    #expect(RealTimeThread.isolatedCPUs("2-3\n") == [2, 3])
    #expect(RealTimeThread.isolatedCPUs("1,3-4\n") == [1, 3, 4])
    #expect(RealTimeThread.isolatedCPUs("4-2,x\n") == [])
  }

  final class Seen: Sendable {
    let ran = Atomic<Bool>(false), pinned = Atomic<Bool>(false)
  }

  @Test func theThreadRunsAndJoinsAndCanBeKeptToACPU() throws {
    let seen = Seen()
    // A CPU this process may run on (a container's cpuset need not hold CPU 0).
    let status = String(decoding: try FileBytes.read("/proc/self/status", limit: 65_536), as: UTF8.self)
    let allowed = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }.map { String($0.dropFirst(18)) } ?? "0"
    let cpu = try #require(RealTimeThread.isolatedCPUs(allowed).first)
    let started = try RealTimeThread.start(priority: 10) {
      seen.pinned.store(RealTimeThread.pinCallingThread(to: cpu), ordering: .relaxed)
      seen.ran.store(true, ordering: .relaxed)
    }
    started.thread.join()
    let (ran, pinned) = (seen.ran.load(ordering: .relaxed), seen.pinned.load(ordering: .relaxed))
    #expect(ran)
    #expect(pinned, "CPU \(cpu) is allowed")
    #expect(!RealTimeThread.pinCallingThread(to: -1))
  }
}

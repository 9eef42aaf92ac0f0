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
    let started = try RealTimeThread.start(priority: 10) {
      seen.pinned.store(RealTimeThread.pinCallingThread(to: 0), ordering: .relaxed)
      seen.ran.store(true, ordering: .relaxed)
    }
    pthread_join(started.thread, nil)
    let (ran, pinned) = (seen.ran.load(ordering: .relaxed), seen.pinned.load(ordering: .relaxed))
    #expect(ran)
    #expect(pinned, "CPU 0 exists everywhere")
    #expect(!RealTimeThread.pinCallingThread(to: -1))
  }
}

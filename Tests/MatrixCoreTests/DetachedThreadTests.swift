import Platform
import MatrixCore
import Synchronization
import TestSupport
import Testing

/// Loops that run as long as the sign does each get a thread: many at once all run, however
/// few the cores (on Dispatch's global queue the later ones waited for a worker).
@Suite(.offThePool) struct DetachedThreadTests {
  @Test func manyBlockingLoopsAllRunAtOnce() {
    let count = 24
    let started = Atomic<Int>(0)
    let release = Atomic<Bool>(false)
    let finished = Atomic<Int>(0)
    for _ in 0..<count {
      #expect(DetachedThread.start {
        started.add(1, ordering: .relaxed)
        // Each holds its thread until every one has started.
        while !release.load(ordering: .acquiring) { SignClock.kernelSleep(0.001) }
        finished.add(1, ordering: .relaxed)
      })
    }
    var waited = 0
    while started.load(ordering: .relaxed) < count && waited < 10_000 {
      SignClock.kernelSleep(0.001)
      waited += 1
    }
    #expect(started.load(ordering: .relaxed) == count, "only \(started.load(ordering: .relaxed)) of \(count) loops started")
    release.store(true, ordering: .releasing)
    waited = 0
    while finished.load(ordering: .relaxed) < count && waited < 10_000 {
      SignClock.kernelSleep(0.001)
      waited += 1
    }
    #expect(finished.load(ordering: .relaxed) == count)
  }
}

import Foundation
import Synchronization
import Testing

/// Runs each test of a suite on a thread of its own instead of one of Swift's cooperative
/// threads (one a core): a test that drives the binary mostly waits (for a child, a socket,
/// a condition), and waiting on a cooperative thread holds a core's share of the pool, so
/// on two cores two tests at a time ran. At most ``width`` such tests run at once
/// (`MARQUEE_TEST_WIDTH`, 8 by default), besides one of each serialized suite and those with a time limit, so the
/// processes they start do not crowd the cores out of the bounds the tests wait with.
/// Apply it to a suite: `@Suite(.offThePool)`.
public struct OffThePool: SuiteTrait, TestTrait, TestScoping {
  public var isRecursive: Bool { true }

  /// How many tests run off the pool at once.
  public static let width = ProcessInfo.processInfo.environment["MARQUEE_TEST_WIDTH"].flatMap(Int.init).map { max(1, $0) } ?? 8

  /// The suite's scope too (a recursive trait's default gives only its test cases one), so
  /// that it can tell its tests whether it is serialized.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> OffThePool? {
    test.isSuite || testCase != nil ? self : nil
  }

  public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
    guard testCase != nil else {
      // A suite's traits reach its tests' scopes only through the suite's own: `.serialized`
      // on a suite is not among its tests' traits, so the suite says it here.
      let serialized = test.isSuite && test.traits.contains { $0 is ParallelizationTrait }
      return try await OffThePool.$inSerializedSuite.withValue(serialized || OffThePool.inSerializedSuite) { try await function() }
    }
    // A serialized suite runs one test at a time already: its tests take no slot, or the
    // suite would queue behind every other test once per test and finish last. Nor does a
    // test with a time limit: the wait for a slot would count against it.
    let takesSlot = !OffThePool.inSerializedSuite
      && !test.traits.contains { $0 is ParallelizationTrait || $0 is TimeLimitTrait }
    // The slot is waited for on the test's own thread too: a waiter that a finished test
    // wakes then goes on at once, without waiting for one of the cooperative threads (which
    // tests that block can hold).
    try await withTaskExecutorPreference(ThreadPerJob.shared) {
      if takesSlot { await OffThePool.slots.acquire() }
      defer { if takesSlot { OffThePool.slots.release() } }
      try await function()
    }
  }

  static let slots = Slots(OffThePool.width)

  /// Whether the test runs in a suite marked `.serialized`.
  @TaskLocal static var inSerializedSuite = false

  /// A counting semaphore whose waiters suspend instead of blocking a thread.
  final class Slots: Sendable {
    let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    init(_ count: Int) { state = Mutex((count, [])) }

    func acquire() async {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let granted = state.withLock { state -> Bool in
          guard state.free > 0 else {
            state.waiting.append(continuation)
            return false
          }
          state.free -= 1
          return true
        }
        if granted { continuation.resume() }
      }
    }

    func release() {
      let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
        guard !state.waiting.isEmpty else {
          state.free += 1
          return nil
        }
        return state.waiting.removeFirst()
      }
      next?.resume()
    }
  }
}

extension Trait where Self == OffThePool {
  /// Each test of the suite on a thread of its own (``OffThePool``).
  public static var offThePool: OffThePool { OffThePool() }
}

/// A task executor that runs each job on a new thread: a job that blocks holds only its own.
final class ThreadPerJob: TaskExecutor {
  static let shared = ThreadPerJob()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    Thread.detachNewThread { job.runSynchronously(on: executor) }
  }
}

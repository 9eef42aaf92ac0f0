import Dispatch
import Synchronization

/// A count of the changes to what a sign shows, that threads can wait on instead of
/// polling: the session's commands, the feed's updates (a stale zone, a placeholder's new
/// value), the schedule's moves. The MQTT state topic and systemd's status wait here.
/// Waiting and signalling allocate nothing once a waiter is made, so a sign that publishes
/// its state still allocates nothing per frame.
public final class ChangeSignal: Sendable {
  /// One thread's place in the queue of waiters: made once, used for every wait.
  public final class Waiter: Sendable {
    let semaphore = DispatchSemaphore(value: 0)
    public init() {}
  }

  struct State {
    var count = 0
    /// Who waits for the count to move.
    var waiters: [Waiter] = []
  }

  let state: Mutex<State>

  public init() {
    var initial = State()
    initial.waiters.reserveCapacity(8)
    state = Mutex(initial)
  }

  /// How many changes there have been.
  public var count: Int { state.withLock { $0.count } }

  /// Counts a change and wakes every waiter.
  public func signal() {
    state.withLock { state in
      state.count += 1
      for waiter in state.waiters { waiter.semaphore.signal() }
      state.waiters.removeAll(keepingCapacity: true)
    }
  }

  /// Waits until the count is no longer `seen`, or `timeout` seconds pass, and returns the
  /// count then (a wake may come early: look again).
  public func wait(after seen: Int, timeout: Double, as waiter: Waiter) -> Int {
    let moved = state.withLock { state -> Int? in
      guard state.count == seen else { return state.count }
      state.waiters.append(waiter)
      return nil
    }
    if let moved { return moved }
    if waiter.semaphore.wait(timeout: .now() + .nanoseconds(Int(saturating: max(0, timeout) * 1e9))) == .timedOut {
      state.withLock { state in state.waiters.removeAll { $0 === waiter } }
    }
    return count
  }
}

import Platform
import Synchronization

/// What the frame loop is doing, for a watchdog: resting (waiting for the next frame's
/// time, asleep in an off period, nothing to draw) or working on a frame since when. A loop
/// stuck in a frame (a display blocked in a system call, a lock never released) stays
/// "working since" an old moment; one that rests is fine however long it rests.
public final class PlayerHeartbeat: Sendable {
  /// When the frame being made began (monotonic nanoseconds), or 0 while resting.
  let workingSince = Atomic<Int64>(0)
  /// Frames shown.
  let shown = Atomic<Int>(0)

  public init() {}

  /// A frame's work begins.
  public func working(at now: Int64) { workingSince.store(max(1, now), ordering: .releasing) }

  /// A frame went to the display.
  public func frameShown() {
    shown.add(1, ordering: .releasing)
    workingSince.store(0, ordering: .releasing)
  }

  /// The loop waits (for the next frame's time, a change, or the end of an off period).
  public func resting() { workingSince.store(0, ordering: .releasing) }

  /// Frames shown so far.
  public var framesShown: Int { shown.load(ordering: .acquiring) }

  /// Whether the loop is resting, or has worked on its frame for less than `limit`
  /// nanoseconds at `now`.
  public func isAlive(at now: Int64, limit: Int64) -> Bool {
    let since = workingSince.load(ordering: .acquiring)
    return since == 0 || now - since < limit
  }
}

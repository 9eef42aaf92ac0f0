import Synchronization
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a loop that must not stop is doing, for a watchdog: resting (waiting for its next
/// turn, asleep in an off period, nothing to do) or working since when. A loop stuck in its
/// work (a display blocked in a system call, a lock never released) stays "working since"
/// an old moment; one that rests is fine however long it rests. The frame loop has one, and
/// a display with a thread of its own (HUB12's scanning) adds its own with ``watch(_:)``.
public final class Heartbeat: Sendable {
  /// When the frame being made began (monotonic nanoseconds), or 0 while resting.
  let workingSince = Atomic<Int64>(0)
  /// Frames shown.
  let shown = Atomic<Int>(0)
  /// Other loops the watchdog looks at with this one.
  let others = Mutex<[Heartbeat]>([])
  /// The loop has ended.
  let over = Atomic<Bool>(false)

  public init() {}

  /// A turn's work begins.
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

  /// Looks at `other` too: ``isAlive(at:limit:)`` holds only while both are alive, or
  /// until `other` ends (those that ended are let go here).
  public func watch(_ other: Heartbeat) {
    others.withLock { list in
      list.removeAll { $0.hasEnded }
      list.append(other)
    }
  }

  /// The loop ended for good (a display shut down): never again stuck.
  public func ended() {
    workingSince.store(0, ordering: .releasing)
    over.store(true, ordering: .releasing)
  }

  /// Whether ``ended()`` was called.
  public var hasEnded: Bool { over.load(ordering: .acquiring) }

  /// Whether the loop (and each one it watches) is resting, or has worked on its turn for
  /// less than `limit` nanoseconds at `now`.
  public func isAlive(at now: Int64, limit: Int64) -> Bool {
    let since = workingSince.load(ordering: .acquiring)
    guard since == 0 || now - since < limit else { return false }
    return others.withLock { $0 }.allSatisfy { $0.isAlive(at: now, limit: limit) }
  }
}

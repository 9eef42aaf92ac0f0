/// A notification: content that interrupts one zone or the whole sign for a time or a
/// number of passes, after which the zone (or sign) goes on from where it was.
public struct Notification: Sendable, Equatable {
  /// How long it shows.
  public enum Length: Sendable, Equatable {
    case seconds(Double)
    /// Passes through its messages (a scroll across, or a round of the cycle).
    case passes(Int)
  }

  /// The longest a notification shows, in seconds (a day): the most `duration` takes, and
  /// the most its passes may last.
  public static let longest = 86_400.0

  /// Its number, given by the queue (for dismissing it).
  public internal(set) var id = 0
  /// The zone it interrupts; nil: the whole sign.
  public var zone: String?
  public var content: ZoneContent
  public var length: Length
  /// A higher priority interrupts a lower one; among equals, the first come shows first.
  public var priority: Int
  /// How it comes in over what the zone shows, and how it leaves (nil: a cut).
  public var entering: Transition?
  public var leaving: Transition?

  public init(
    zone: String? = nil, content: ZoneContent, length: Length = .seconds(5), priority: Int = 0,
    entering: Transition? = nil, leaving: Transition? = nil
  ) {
    self.zone = zone
    self.content = content
    self.length = length
    self.priority = priority
    self.entering = entering
    self.leaving = leaving
  }

  public static func == (a: Notification, b: Notification) -> Bool {
    a.id == b.id && a.zone == b.zone && a.content == b.content && a.length == b.length && a.priority == b.priority
      && a.entering == b.entering && a.leaving == b.leaving
  }
}

/// When each notification shows: a pure function of when they came, their priorities and
/// lengths, and the dismissals, kept as the queue's state so that what shows at time `t`
/// needs nothing else.
///
/// Notifications for the same target (a zone, or the whole sign) queue: the highest
/// priority shows first, then the earliest. One that comes with a higher priority than the
/// one showing interrupts it; the interrupted one shows again, whole, after. A dismissal
/// ends one at once, or takes it out of the queue.
public struct NotificationQueue: Sendable, Equatable {
  /// One shown stretch: notification `id` from `start` to `end` (sign time).
  public struct Showing: Sendable, Equatable {
    public var id: Int
    public var target: String?
    public var start: Double
    public var end: Double
  }

  struct Waiting: Sendable, Equatable {
    var notification: Notification
    var arrival: Double
    /// Its length in seconds.
    var seconds: Double
  }

  /// Waiting and showing notifications, in the order they came.
  var waiting: [Waiting] = []
  /// What shows for each target now, and since when.
  var current: [Showing] = []
  /// Stretches that ended (kept until the sign has folded them away).
  var past: [Showing] = []
  var nextID = 1

  /// The most notifications waiting at once.
  public static let capacity = 64

  public init() {}

  /// Whether any notification is waiting or showing.
  public var isEmpty: Bool { waiting.isEmpty }

  /// The notifications waiting or showing, in the order they came.
  public var notifications: [Notification] { waiting.map(\.notification) }

  /// Adds a notification at sign time `t` lasting `seconds`; returns its ID, or nil when
  /// the queue is full.
  public mutating func add(_ notification: Notification, seconds: Double, at t: Double) -> Int? {
    guard waiting.count < NotificationQueue.capacity else { return nil }
    advance(to: t)
    var given = notification
    given.id = nextID
    nextID += 1
    waiting.append(Waiting(notification: given, arrival: t, seconds: max(0.05, seconds)))
    // It interrupts a lower priority showing for its target.
    if let index = current.firstIndex(where: { $0.target == given.zone }),
      let showing = waiting.first(where: { $0.notification.id == current[index].id }),
      showing.notification.priority < given.priority
    {
      cut(index, at: t)
    }
    start(at: t)
    return given.id
  }

  /// Dismisses notification `id` (nil: every one) at sign time `t`; whether one was.
  @discardableResult
  public mutating func dismiss(_ id: Int?, at t: Double) -> Bool {
    advance(to: t)
    let gone = waiting.filter { id == nil || $0.notification.id == id }.map(\.notification.id)
    guard !gone.isEmpty else { return false }
    for index in current.indices.reversed() where gone.contains(current[index].id) { cut(index, at: t) }
    waiting.removeAll { gone.contains($0.notification.id) }
    start(at: t)
    return true
  }

  /// Every stretch from the past kept, the ones showing, and what is to come if nothing
  /// more arrives, in time order.
  public var plan: [Showing] {
    var copy = self
    // Run on to the end of all that waits.
    while let next = copy.current.map(\.end).min() { copy.advance(to: next) }
    return copy.past.sorted { $0.start < $1.start }
  }

  /// The notification of ID `id`, waiting or showing.
  public func notification(_ id: Int) -> Notification? { waiting.first { $0.notification.id == id }?.notification }

  /// Forgets stretches that ended before `t` (the sign folded them into its zones' time).
  public mutating func forget(before t: Double) {
    past.removeAll { $0.end <= t }
  }

  // MARK: Running

  /// Runs the queue up to `t`: notifications that end before it end, and the next take over.
  mutating func advance(to t: Double) {
    while let index = current.indices.min(by: { current[$0].end < current[$1].end }), current[index].end <= t {
      let finished = current.remove(at: index)
      past.append(finished)
      waiting.removeAll { $0.notification.id == finished.id }
      start(at: finished.end)
    }
  }

  /// Ends what shows in `current[index]` at `t`, keeping it waiting.
  mutating func cut(_ index: Int, at t: Double) {
    let showing = current.remove(at: index)
    if t > showing.start { past.append(Showing(id: showing.id, target: showing.target, start: showing.start, end: t)) }
  }

  /// Starts the first in line for every target that shows nothing.
  mutating func start(at t: Double) {
    var targets: [String?] = []
    for entry in waiting where !targets.contains(entry.notification.zone) { targets.append(entry.notification.zone) }
    for target in targets where !current.contains(where: { $0.target == target }) {
      // The highest priority, then the first come.
      var best: Waiting?
      for entry in waiting where entry.notification.zone == target && entry.arrival <= t {
        if best == nil || entry.notification.priority > best!.notification.priority { best = entry }
      }
      if let best { current.append(Showing(id: best.notification.id, target: target, start: t, end: t + best.seconds)) }
    }
  }
}

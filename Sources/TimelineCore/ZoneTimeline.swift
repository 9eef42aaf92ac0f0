import TotalConversion
import MatrixCore

/// A message starting or ending to be visible in a zone.
public struct MessageEvent: Sendable, Equatable {
  /// Whether the message came into view or left it.
  public enum Kind: String, Sendable { case started, ended }

  /// When, in the zone's time (seconds).
  public var time: Double
  /// Started or ended.
  public var kind: Kind
  /// The message's index in the zone's current list.
  public var message: Int

  /// Creates an event.
  public init(time: Double, kind: Kind, message: Int) {
    self.time = time
    self.kind = kind
    self.message = message
  }
}

/// A timeline that can fill a zone: it knows its messages, where they are, and when they
/// come and go. Its conformers are ``Timeline``s too; the protocol restates the timeline's
/// requirements instead of refining it, because an existential of a class-bound protocol
/// that refines one that is not is beyond Embedded Swift, and zones hold their timelines
/// as existentials.
public protocol ZoneTimeline: AnyObject, Sendable {
  /// The width of the frames, in pixels (``Timeline/width``).
  var width: Int { get }
  /// The height of the frames, in pixels (``Timeline/height``).
  var height: Int { get }
  /// Draws the frame at time `t` (``Timeline/render(at:into:workspace:)``).
  func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace)
  /// The first instant after `t` at which the frame may differ (``Timeline/nextChange(after:)``).
  func nextChange(after t: Double) -> Double?
  /// The frame at time `t`, in new buffers (``Timeline/frame(at:)``).
  func frame(at t: Double) -> Frame
  /// The number of messages.
  var messageCount: Int { get }
  /// The message under (`x`, `y`) of the zone at time `t`, or `nil` (a gap, a blank area).
  func message(atColumn x: Int, row y: Int, time t: Double) -> Int?
  /// The messages that start or end showing in the interval (`from`, `to`], in time order.
  /// Messages visible at time 0 start at 0.
  func messageEvents(from t0: Double, to t1: Double) -> [MessageEvent]
  /// The next instant at or after `t` where new content can take over without a jump: the
  /// end of a message's dwell, or the gap after a message reaching the sign's right edge.
  func nextBoundary(after t: Double) -> Double
  /// Whether the content moves sideways (new content should follow it in as a scroll).
  var scrollDirection: ScrollDirection? { get }
  /// The scroll speed in pixels per second, if it scrolls.
  var scrollSpeed: Double { get }
  /// Seconds of one full loop (a pass of the ribbon, a round of the cycle), after which the
  /// zone shows what it showed at 0; `nil` when nothing moves.
  var loopDuration: Double? { get }
}

extension RibbonTimeline: ZoneTimeline {
  public var messageCount: Int { segments.count }

  public func message(atColumn x: Int, row y: Int, time t: Double) -> Int? {
    guard y >= 0, y < height else { return nil }
    return message(atColumn: x, time: t)
  }

  public var scrollDirection: ScrollDirection? { scrolls && settings.speed > 0 ? settings.direction : nil }
  public var scrollSpeed: Double { scrolls ? settings.speed : 0 }
  public var loopDuration: Double? { scrollDirection == nil ? nil : Double(ribbon.width) / settings.speed }

  /// Whole pixels moved by time `t` (not wrapped): 64 bits, so a sign that runs for years
  /// where `Int` is 32 bits (a 32-bit Pi OS, a microcontroller) counts on.
  func travelled(_ t: Double) -> Int64 {
    guard scrolls, settings.speed > 0, t > 0 else { return 0 }
    return Int64(saturating: (settings.speed * t + 1e-9).rounded(.down))
  }

  public func messageEvents(from t0: Double, to t1: Double) -> [MessageEvent] {
    var events: [MessageEvent] = []
    if t0 < 0, t1 >= 0 {
      for index in segments.indices where visible(index, atTravel: 0) {
        events.append(MessageEvent(time: 0, kind: .started, message: index))
      }
    }
    guard scrolls, settings.speed > 0, t1 > max(0, t0) else { return events }
    let period = Int64(ribbon.width)
    let low = travelled(max(0, t0)), high = travelled(t1)
    guard high > low else { return events }
    for (index, segment) in segments.enumerated() {
      // Travel values at which the message's first column enters and its last column leaves.
      let (lower, upper, width, origin) = (Int64(segment.lowerBound), Int64(segment.upperBound), Int64(self.width), Int64(self.origin))
      let enter: Int64, leave: Int64
      switch settings.direction {
      case .left, .auto:
        enter = lower - width + 1 - origin
        leave = upper - origin
      case .right:
        enter = origin + period - upper + 1
        leave = origin + width - lower
      }
      for (residue, kind) in [(enter, MessageEvent.Kind.started), (leave, .ended)] {
        let r = ((residue % period) + period) % period
        // The smallest p > low with p ≡ r (mod period).
        var p = low + 1 + ((r - (low + 1)) % period + period) % period
        while p <= high {
          events.append(MessageEvent(time: Double(p) / settings.speed, kind: kind, message: index))
          p += period
        }
      }
    }
    return events.sorted { ($0.time, $0.kind == .ended ? 0 : 1) < ($1.time, $1.kind == .ended ? 0 : 1) }
  }

  /// Whether message `index` is in view when the ribbon has moved `travel` pixels.
  func visible(_ index: Int, atTravel travel: Int64) -> Bool {
    guard scrolls else { return true }
    let period = ribbon.width
    let wrapped = Int(travel % Int64(period))
    let offset = settings.direction == .right ? ((origin - wrapped) % period + period) % period : (origin + wrapped) % period
    let segment = segments[index]
    for x in 0..<width where segment.contains((offset + x) % period) { return true }
    return false
  }

  public func nextBoundary(after t: Double) -> Double {
    guard scrolls, settings.speed > 0 else { return t }
    let period = ribbon.width
    let now = travelled(t)
    var best = Int64.max
    for segment in segments {
      // Left: the right edge has just passed the gap after the message.
      // Right: the left edge has just passed the gap before it (on its left).
      let residue: Int
      switch settings.direction {
      case .left, .auto:
        // The next message to the right (round the ribbon's end for the rightmost).
        var next = Int.max, first = Int.max
        for other in segments {
          first = min(first, other.lowerBound)
          if other.lowerBound >= segment.upperBound { next = min(next, other.lowerBound) }
        }
        if next == Int.max { next = period + first }
        residue = next - width - origin
      case .right:
        residue = origin + period - (segment.lowerBound - settings.gap)
      }
      let r = Int64(((residue % period) + period) % period)
      let p = now + ((r - now) % Int64(period) + Int64(period)) % Int64(period)
      best = min(best, p)
    }
    return max(t, Double(best) / settings.speed)
  }
}

extension CycleTimeline: ZoneTimeline {
  public var messageCount: Int { cards.count }
  public var scrollDirection: ScrollDirection? { nil }
  public var scrollSpeed: Double { 0 }
  public var loopDuration: Double? { period.isFinite ? period : nil }

  public func message(atColumn x: Int, row y: Int, time t: Double) -> Int? {
    guard x >= 0, y >= 0, x < width, y < height else { return nil }
    switch phase(at: t) {
    case .showing(let index, _): return index
    case .transition(let from, let to, let progress): return progress < 0.5 ? from : to
    }
  }

  public func messageEvents(from t0: Double, to t1: Double) -> [MessageEvent] {
    var events: [MessageEvent] = []
    if t0 < 0, t1 >= 0 { events.append(MessageEvent(time: 0, kind: .started, message: 0)) }
    guard period.isFinite, t1 > max(0, t0) else { return events }
    let duration = max(0, settings.transition.duration)
    let firstLap = Int(saturating: (max(0, t0) / period).rounded(.down))
    let lastLap = Int(saturating: (t1 / period).rounded(.down))
    for lap in firstLap...lastLap {
      let base = Double(lap) * period
      for (index, card) in cards.enumerated() {
        let exitStart = base + turnStarts[index] + CycleTimeline.holdLength(card, settings)
        let next = (index + 1) % cards.count
        // The next message starts to appear as the exit begins; this one is gone when it ends.
        let pair = [
          MessageEvent(time: exitStart + duration, kind: .ended, message: index),
          MessageEvent(time: exitStart, kind: .started, message: next),
        ]
        for event in pair where event.time > t0 && event.time <= t1 { events.append(event) }
      }
    }
    return events.sorted { ($0.time, $0.kind == .ended ? 0 : 1) < ($1.time, $1.kind == .ended ? 0 : 1) }
  }

  public func nextBoundary(after t: Double) -> Double {
    guard period.isFinite else { return t }
    let (turn, local) = locate(t)
    let start = t - local
    let hold = CycleTimeline.holdLength(cards[turn], settings)
    if local <= hold { return start + hold }
    // In a transition: the message coming in gets its dwell first.
    let next = (turn + 1) % cards.count
    let nextStart = start + hold + max(0, settings.transition.duration)
    return nextStart + CycleTimeline.holdLength(cards[next], settings)
  }
}

/// A zone's timeline held as a ``Timeline`` (for a player or a recorder): a zone keeps its
/// timeline as `any ZoneTimeline`, which is not itself a ``Timeline``.
public struct ZoneTimelineView: Timeline {
  /// The zone's timeline.
  public let zone: any ZoneTimeline

  public init(_ zone: any ZoneTimeline) { self.zone = zone }

  public var width: Int { zone.width }
  public var height: Int { zone.height }

  public func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace) {
    zone.render(at: t, into: &frame, workspace: &workspace)
  }

  public func nextChange(after t: Double) -> Double? { zone.nextChange(after: t) }
}

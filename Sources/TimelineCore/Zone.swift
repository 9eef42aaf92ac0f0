import MatrixCore

/// A rectangle of the sign with its own content, which can be replaced and paused while the
/// sign runs.
///
/// A zone keeps the history of its content as segments on its own clock (which stops while
/// the zone is paused), so the frame at any sign time stays a pure function of that history.
public struct Zone: Sendable {
  /// The zone's name and rectangle on the sign.
  public let place: ZonePlace
  /// The zone's name (for layout files, feeds and events).
  public var name: String { place.name }
  /// The zone's rectangle on the sign, in pixels.
  public var x: Int { place.x }
  public var y: Int { place.y }
  public var width: Int { place.width }
  public var height: Int { place.height }

  /// One content and when it took over, in zone time.
  struct Segment: Sendable {
    var start: Double
    var leadIn: LeadIn
    var content: ZoneContent
    var timeline: any ZoneTimeline
    /// The timeline's first frame, which the lead-in ends on.
    var firstFrame: Framebuffer

    /// Time within the timeline, for zone time `t` (negative during the lead-in).
    func local(_ t: Double) -> Double { t - start - leadIn.duration }
  }

  var segments: [Segment]
  /// Paused intervals in sign time; the last may be open (`end == nil`).
  var pauses: [(start: Double, end: Double?)] = []
  /// Stretches of sign time a notification covers the zone, in time order: its own content
  /// waits under it, as in a pause, and goes on from where it was.
  package var covers: [(start: Double, end: Double)] = []
  /// The total length of paused and covered intervals folded away (all before ``foldedUntil``).
  var foldedPause = 0.0
  /// Sign time before which history has been folded away.
  var foldedUntil = 0.0

  /// Creates a zone showing `content` from time 0.
  public init(name: String, x: Int, y: Int, width: Int, height: Int, content: ZoneContent) throws(MarqueeError) {
    try self.init(place: ZonePlace(name: name, x: x, y: y, width: width, height: height), content: content)
  }

  /// Creates a zone at `place` showing `content` from time 0.
  public init(place: ZonePlace, content: ZoneContent) throws(MarqueeError) {
    self.place = place
    let (width, height) = (place.width, place.height)
    let timeline = try content.makeTimeline(width: width, height: height)
    segments = [Segment(start: 0, leadIn: .cut, content: content, timeline: timeline, firstFrame: timeline.frame(at: 0).pixels)]
  }

  /// The content showing now (the newest).
  public var content: ZoneContent { segments[segments.count - 1].content }

  /// Seconds of one loop of the newest content, `nil` when it does not move.
  public var loopDuration: Double? { segments[segments.count - 1].timeline.loopDuration }

  /// Whether a notification covers the zone at sign time `t`.
  func isCovered(at t: Double) -> Bool {
    covers.contains { $0.start <= t && t < $0.end }
  }

  /// Whether the zone is paused at the end of its history.
  public var isPaused: Bool { pauses.last.map { $0.end == nil } ?? false }

  /// Calls `body` with each stretch the zone's clock stands still (the union of its pauses
  /// and covers, in time order; `end` nil: it stands from `start` on) until `body` says stop.
  /// Allocates nothing: a frame asks this.
  func forEachStill(_ body: (_ start: Double, _ end: Double?) -> Bool) {
    var p = 0, c = 0
    var run: (start: Double, end: Double?)?
    while p < pauses.count || c < covers.count {
      let next: (start: Double, end: Double?)
      if c >= covers.count || (p < pauses.count && pauses[p].start <= covers[c].start) {
        next = (pauses[p].start, pauses[p].end)
        p += 1
      } else {
        next = (covers[c].start, covers[c].end)
        c += 1
      }
      if let current = run {
        if let end = current.end, next.start > end {
          if !body(current.start, current.end) { return }
          run = next
        } else if let end = current.end, let nextEnd = next.end {
          run = (current.start, max(end, nextEnd))
        } else {
          run = (current.start, nil)
        }
      } else {
        run = next
      }
    }
    if let run { _ = body(run.start, run.end) }
  }

  /// The zone's own time at sign time `t`: sign time minus the time spent paused or covered.
  public func zoneTime(_ t: Double) -> Double {
    var still = t >= foldedUntil ? foldedPause : 0
    forEachStill { start, end in
      guard start < t else { return false }
      still += min(t, end ?? t) - start
      return true
    }
    return t - still
  }

  /// Sign time at which zone time reaches `z`, given the pauses and covers so far (`nil` if
  /// it never does because the zone stays paused).
  func signTime(forZoneTime z: Double) -> Double? {
    var t: Double? = z + foldedPause
    forEachStill { start, end in
      guard let current = t, start < current else { return false }
      guard let end else {
        t = nil
        return false
      }
      t = current + end - start
      return true
    }
    return t
  }

  /// Drops history that rendering from sign time `now` on can no longer reach: segments
  /// replaced before `now`, and pauses and covers that ended before it. Memory stays flat
  /// however many updates, pauses and notifications a long run has.
  package mutating func compact(now: Double) {
    let z = zoneTime(now)
    if let current = segments.lastIndex(where: { $0.start <= z }), current > 0 {
      segments.removeFirst(current)
    }
    var folded = 0.0, until = foldedUntil
    forEachStill { start, end in
      guard let end, end <= now else { return false }
      folded += end - start
      until = end
      return true
    }
    guard until > foldedUntil || folded > 0 else { return }
    foldedPause += folded
    foldedUntil = until
    pauses.removeAll { pause in pause.end.map { $0 <= until } ?? false }
    covers.removeAll { $0.end <= until }
  }

  /// The segment in force at zone time `z`.
  func segment(at z: Double) -> Segment {
    segments[segmentIndex(at: z)]
  }

  /// The index of the segment in force at zone time `z` (no segment is copied: a frame
  /// looks this up every time).
  func segmentIndex(at z: Double) -> Int {
    var chosen = 0
    for index in segments.indices where segments[index].start <= z { chosen = index }
    return chosen
  }

  /// Draws the zone at sign time `t` into a zone-sized frame.
  package func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace) {
    let z = zoneTime(t)
    let index = segmentIndex(at: z)
    let local = segments[index].local(z)
    if local < 0 {
      segments[index].leadIn.render(
        at: local + segments[index].leadIn.duration, target: segments[index].firstFrame, into: &frame,
        workspace: &workspace)
    } else {
      segments[index].timeline.render(at: local, into: &frame, workspace: &workspace)
    }
  }

  /// The next sign time after `t` at which the zone may change, or `nil`.
  package func nextChange(after t: Double) -> Double? {
    if isPaused, let pause = pauses.last, pause.start <= t { return nil }
    let z = zoneTime(t)
    let segment = segment(at: z)
    let local = segment.local(z)
    var next: Double?
    if local < 0 {
      next = z + 1e-6  // a bridge moves every frame
    } else if let change = segment.timeline.nextChange(after: local) {
      next = segment.start + segment.leadIn.duration + change
    }
    // A later segment may start sooner.
    if let upcoming = segments.first(where: { $0.start > z }) { next = min(next ?? upcoming.start, upcoming.start) }
    return next.flatMap { signTime(forZoneTime: $0) }.map { max($0, t + 1e-9) }
  }

  /// The message under zone pixel (`x`, `y`) at sign time `t`, or `nil`.
  public func message(atColumn x: Int, row y: Int, time t: Double) -> Int? {
    let z = zoneTime(t)
    let segment = segment(at: z)
    let local = segment.local(z)
    guard local >= 0 else { return nil }
    return segment.timeline.message(atColumn: x, row: y, time: local)
  }

  /// Message events in sign time (`from`, `to`].
  public func events(from t0: Double, to t1: Double) -> [MessageEvent] {
    let z0 = t0 < 0 ? t0 : zoneTime(t0), z1 = zoneTime(t1)
    guard z1 > z0 || (t0 < 0 && t1 >= 0) else { return [] }
    var events: [MessageEvent] = []
    for (index, segment) in segments.enumerated() {
      let begins = segment.start + segment.leadIn.duration
      let ends = index + 1 < segments.count ? segments[index + 1].start : Double.infinity
      // Messages of a replaced content end where the next content takes over.
      let from = max(z0, segment.start), to = min(z1, ends)
      guard to > from || (index == 0 && t0 < 0) else { continue }
      let lower = index == 0 && t0 < 0 ? -1 : from - begins
      for event in segment.timeline.messageEvents(from: lower, to: to - begins) {
        let time = event.time + begins
        guard time <= ends else { continue }
        events.append(MessageEvent(time: signTime(forZoneTime: time) ?? t1, kind: event.kind, message: event.message))
      }
      if ends > z0, ends <= z1 {
        // Close whatever was still showing when the content was replaced.
        for message in segment.timeline.messageEvents(from: -1, to: ends - begins).openMessages() {
          events.append(MessageEvent(time: signTime(forZoneTime: ends) ?? t1, kind: .ended, message: message))
        }
      }
    }
    return events.sorted { ($0.time, $0.kind == .ended ? 0 : 1) < ($1.time, $1.kind == .ended ? 0 : 1) }
  }
}

extension [MessageEvent] {
  /// The messages started and not yet ended at the end of this event list.
  func openMessages() -> [Int] {
    var open = Set<Int>()
    for event in self {
      if event.kind == .started { open.insert(event.message) } else { open.remove(event.message) }
    }
    return open.sorted()
  }
}

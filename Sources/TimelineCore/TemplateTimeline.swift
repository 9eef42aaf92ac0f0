// The operating system's part of the templates: left out of an Embedded Swift build.
#if !hasFeature(Embedded)
import MatrixCore
import Synchronization

/// A zone whose messages contain time placeholders (`{time:%H:%M}`): the text is filled in
/// for each instant, so a clock needs no feed.
///
/// `t = 0` is Unix time ``epoch``; the frame at `t` is the frame of the content with the
/// text as it reads at `epoch + t`, so it stays a pure function of `t`. Timelines for the
/// texts met are kept (the last few), so a frame costs no layout while the text stands.
public final class TemplateTimeline: Timeline, ZoneTimeline, Sendable {
  public let width: Int
  public let height: Int
  /// The Unix time of `t = 0`.
  public let epoch: Double
  let templates: [TextTemplate]
  let content: ZoneContent
  let cache = Mutex<[(texts: [String], timeline: any ZoneTimeline)]>([])
  /// The timeline of the text standing now and the interval it stands in: a frame inside it
  /// formats nothing (a clock's text changes once a minute, its frames come 40 a second).
  let standing = Mutex<(from: Double, until: Double, timeline: any ZoneTimeline)?>(nil)

  /// Creates the zone timeline; `content.messages` are templates.
  public init(content: ZoneContent, width: Int, height: Int, epoch: Double) throws(MarqueeError) {
    self.width = width
    self.height = height
    self.epoch = epoch
    self.content = content
    templates = content.messages.map(TextTemplate.init)
    _ = try timeline(at: 0)  // fail now, not while drawing, if the text cannot be laid out
  }

  /// The messages as they read at `t`.
  public func texts(at t: Double) -> [String] {
    templates.map { $0.expand(at: epoch + t) }
  }

  func timeline(at t: Double) throws(MarqueeError) -> any ZoneTimeline {
    if let hit = standing.withLock({ standing -> (any ZoneTimeline)? in
      guard let standing, t >= standing.from, t < standing.until else { return nil }
      return standing.timeline
    }) {
      return hit
    }
    let texts = texts(at: t)
    let made: any ZoneTimeline
    if let found = cache.withLock({ entries in entries.first { $0.texts == texts }?.timeline }) {
      made = found
    } else {
      var expanded = content
      expanded.messages = texts
      made = try expanded.makeTimeline(width: width, height: height)
      cache.withLock { entries in
        entries.append((texts, made))
        if entries.count > 4 { entries.removeFirst() }
      }
    }
    let until = textChange(after: t) ?? .infinity
    standing.withLock { $0 = (t, until, made) }
    return made
  }

  /// The next instant after `t` at which any message's text changes.
  func textChange(after t: Double) -> Double? {
    var soonest: Double?
    for template in templates {
      if let change = template.nextChange(after: epoch + t), change - epoch < soonest ?? .infinity { soonest = change - epoch }
    }
    return soonest
  }

  /// The timeline for `t`; a text that cannot be laid out keeps the previous one.
  func current(_ t: Double) -> (any ZoneTimeline)? {
    (try? timeline(at: t)) ?? cache.withLock { $0.last?.timeline }
  }

  public func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace) {
    guard let timeline = current(t) else {
      frame.pixels.clear()
      return
    }
    timeline.render(at: t, into: &frame, workspace: &workspace)
  }

  public func nextChange(after t: Double) -> Double? {
    let textChange = textChange(after: t)
    let inner = current(t)?.nextChange(after: t)
    switch (textChange, inner) {
    case (let a?, let b?): return min(a, b)
    case (let a?, nil): return a
    case (nil, let b): return b
    }
  }

  public var messageCount: Int { templates.count }
  public var scrollDirection: ScrollDirection? { current(0)?.scrollDirection }
  public var scrollSpeed: Double { current(0)?.scrollSpeed ?? 0 }
  /// The loop of the text as first filled in (a clock's text changes, its loop does not).
  public var loopDuration: Double? { current(0)?.loopDuration }

  public func message(atColumn x: Int, row y: Int, time t: Double) -> Int? {
    current(t)?.message(atColumn: x, row: y, time: t)
  }

  public func messageEvents(from t0: Double, to t1: Double) -> [MessageEvent] {
    current(t1)?.messageEvents(from: t0, to: t1) ?? []
  }

  public func nextBoundary(after t: Double) -> Double {
    current(t)?.nextBoundary(after: t) ?? t
  }
}
#endif

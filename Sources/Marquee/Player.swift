import Platform
import MatrixCore

/// The run loop: turns wall time into frame times and hands frames to a display.
///
/// Frame `i` is rendered for time `t = i / fps` exactly and shown at the absolute deadline
/// `start + i / fps`, so render time never slows the scroll. When the display does not need
/// every frame and nothing moves (still text), the player sleeps until the next change, and
/// while the display is asleep (an off period) until it is woken; when
/// it falls behind by more than a frame, it skips to the frame that is due rather than
/// playing late frames. One frame buffer is reused throughout: the loop allocates nothing
/// per frame.
public struct Player {
  /// Frames per second.
  public let fps: Double
  /// Stop after this many frame periods (`nil`: run until stopped).
  public let frameLimit: Int?
  /// Whether to wait for each frame's deadline (`false`: render as fast as possible).
  public let paced: Bool

  /// Creates a player.
  ///
  /// - Throws: ``MarqueeError/invalidValue(parameter:reason:)`` for a frame rate that is not
  ///   a positive finite number, or a negative frame limit.
  public init(fps: Double, frameLimit: Int? = nil, paced: Bool = true) throws(MarqueeError) {
    guard fps > 0 && fps.isFinite else {
      throw .invalidValue(parameter: "fps", reason: "\(fps) is not a positive number of frames per second")
    }
    if let frameLimit, frameLimit < 0 {
      throw .invalidValue(parameter: "frameLimit", reason: "\(frameLimit) is negative")
    }
    self.fps = fps
    self.frameLimit = frameLimit
    self.paced = paced
  }

  /// What a run did.
  public struct Statistics: Sendable, Equatable {
    /// Frames rendered.
    public var rendered = 0
    /// Frames handed to the display as changed.
    public var changed = 0
    /// Frames skipped because the player fell behind.
    public var dropped = 0
  }

  /// The deadline of frame `index`, in clock nanoseconds from `start`.
  func deadline(of index: Int, start: Int64) -> Int64 {
    start.addingSaturating(Int64(saturating: (Double(index) * 1e9 / fps).rounded()))
  }

  /// The index of the frame due at clock time `time`.
  func frameIndex(at time: Int64, start: Int64) -> Int {
    Int(saturating: (Double(time &- start) * fps / 1e9).rounded(.down))
  }

  /// Plays `timeline` on `display` until the frame limit or until `stop` is set; with
  /// `heartbeat`, says when each frame's work begins and ends (for a watchdog).
  ///
  /// - Throws: whatever the display throws; the display is not shut down here (the caller
  ///   owns it and shuts it down on every path).
  @discardableResult
  public func run<D: Display>(
    _ timeline: some Timeline, on display: inout D, clock: some PlayerClock, stop: StopFlag, heartbeat: Heartbeat? = nil
  ) throws -> Statistics {
    var statistics = Statistics()
    var frame = Frame(width: timeline.width, height: timeline.height)
    var previous = Frame(width: timeline.width, height: timeline.height)
    var hasPrevious = false
    var workspace = FrameWorkspace()
    let start = clock.now()
    var index = 0
    let limit = frameLimit ?? Int.max
    while index < limit, !stop.isSet {
      let t = Double(index) / fps
      heartbeat?.working(at: clock.now())
      timeline.render(at: t, into: &frame, workspace: &workspace)
      let changed = !hasPrevious || frame != previous
      try display.show(frame, changed: changed)
      heartbeat?.frameShown()
      statistics.rendered += 1
      if changed {
        previous.pixels.assign(frame.pixels)
        previous.brightness = frame.brightness
        hasPrevious = true
        statistics.changed += 1
      }
      var next = index + 1
      guard paced else {
        index = next
        continue
      }
      if display.isAsleep {
        // An off period: nothing to draw until woken (the period ends, content comes) or
        // until the frame limit's time.
        let wakes = stop.wakeCount
        let end = limit == Int.max ? Int64.max : deadline(of: limit, start: start)
        while !stop.isSet && stop.wakeCount == wakes && clock.now() < end {
          clock.rest(until: min(end, clock.now() + 1_000_000_000), stop: stop)
        }
        if stop.isSet { break }
        index = max(next, min(limit, frameIndex(at: clock.now(), start: start)))
        continue
      }
      if !display.wantsEveryFrame {
        // Sleep through frames that would show the same pixels.
        if let change = timeline.nextChange(after: t) {
          let due = Int(saturating: (change * fps - 1e-9).rounded(.up))
          next = max(next, min(due, limit))
        } else {
          next = limit
        }
        if next == Int.max {
          // Nothing will change unless new content arrives: sleep until woken or stopped.
          let wakes = stop.wakeCount
          while !stop.isSet && stop.wakeCount == wakes {
            clock.sleep(until: clock.now() + 1_000_000_000, stop: stop)
          }
          if stop.isSet { break }
          index = max(index + 1, frameIndex(at: clock.now(), start: start))
          continue
        }
      }
      // Behind by more than a frame (a slow display, a stopped process continued): skip to
      // the frame due now instead of playing the late ones in a burst. Every display: one
      // that wants every frame wants every frame that is on time.
      let now = clock.now()
      if now > deadline(of: next + 1, start: start) {
        let due = min(frameIndex(at: now, start: start), limit)
        statistics.dropped += max(0, due - next)
        next = max(next, due)
      }
      // After the last frame, still wait out its period: N frames last N / fps seconds.
      let wakes = stop.wakeCount
      clock.sleep(until: deadline(of: min(next, limit), start: start), stop: stop)
      if stop.wakeCount != wakes {
        // Woken early (new content): draw the frame due now.
        next = min(next, max(index + 1, frameIndex(at: clock.now(), start: start)))
      }
      index = next
    }
    return statistics
  }
}

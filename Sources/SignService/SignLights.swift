import Marquee
import Platform
import MatrixCore
import Synchronization

/// What the sign's LEDs show and how: the latest frame the sign showed, the brightness
/// level asked, whether they are dark (turned off, off hours) and until when they are woken,
/// and the frame loop's lateness and heartbeat; shared between the frame loop and the
/// session's front ends. Each side copies under the lock into storage of its own, so
/// the frame loop never waits on the network and never allocates.
package final class SignLights: Sendable {
  /// What the frame loop showing these frames is doing (a watchdog reads it).
  package let heartbeat = Heartbeat()

  struct State {
    var pixels: Framebuffer
    var brightness = 1.0
    /// Bumped by every changed frame.
    var generation: UInt64 = 0
    /// The brightness step asked over HTTP or by the schedule (0...15; 15 is the board's
    /// full brightness).
    var level = 15
    /// An off period of the schedule.
    var scheduledOff = false
    /// Turned off by a person (`POST /api/power`), until turned on.
    var poweredOff = false
    /// Turned on by a person during the schedule's off period, until that period ends.
    var wokenInOffPeriod = false
    /// Until when (monotonic nanoseconds) a notification lights the sign in an off period.
    var wokenUntil: Int64 = 0
    /// Whether the sign shows nothing at monotonic time `now`.
    func off(at now: Int64) -> Bool { poweredOff || (scheduledOff && !wokenInOffPeriod && now >= wokenUntil) }
    /// Gaps between successive frames, in nanoseconds, the last ``intervalCapacity``.
    var intervals: [Int64]
    var intervalCount = 0
    var lastShow: Int64 = 0
  }

  static let intervalCapacity = 4096
  let state: Mutex<State>
  /// The frame period the player aims for, in nanoseconds.
  let period: Int64

  /// The clock wakes and frame gaps are measured on.
  let clock: SignClock

  package init(width: Int, height: Int, fps: Double, clock: SignClock = .system) {
    self.clock = clock
    state = Mutex(State(
      pixels: Framebuffer(width: width, height: height),
      intervals: [Int64](repeating: 0, count: SignLights.intervalCapacity)))
    period = Int64(saturating: 1e9 / fps)
  }

  /// Copies the latest frame into `pixels` (the sign's size); returns its generation and
  /// brightness. `shown` (the default) is what the LEDs show: dark while the sign is off;
  /// else the frame the sign composed, lit or not.
  package func read(into pixels: inout Framebuffer, shown: Bool = true) -> (generation: UInt64, brightness: Double, off: Bool) {
    let now = monotonic()
    return state.withLock { state in
      let off = state.off(at: now)
      if shown && off {
        pixels.clear()
      } else {
        pixels.assign(state.pixels)
      }
      return (state.generation, state.brightness, off)
    }
  }

  /// Why the sign is dark now, if it is: turned off by a person, or an off period of the
  /// schedule.
  package var darkness: Darkness? {
    let now = monotonic()
    return state.withLock { state in
      guard state.off(at: now) else { return nil }
      return state.poweredOff ? .turnedOff : .offPeriod
    }
  }

  /// Why a sign is dark.
  package enum Darkness: Sendable, Equatable {
    case turnedOff, offPeriod
  }

  /// The brightness step asked over HTTP or by the schedule.
  package var level: Int {
    get { state.withLock { $0.level } }
    set { state.withLock { $0.level = newValue } }
  }

  /// Whether the sign is dark: an off period of the schedule (unless a person woke it), or
  /// turned off by a person.
  package var off: Bool {
    let now = monotonic()
    return state.withLock { $0.off(at: now) }
  }

  /// Lights the sign for `seconds` even in an off period (a notification that wakes it).
  package func wake(forSeconds seconds: Double) {
    let until = monotonic().addingSaturating(max(0, seconds).saturatingNanoseconds)
    state.withLock { $0.wokenUntil = max($0.wokenUntil, until) }
  }

  func monotonic() -> Int64 {
    clock.monotonicNanoseconds
  }

  /// Whether the schedule says the sign is off now; a new period ends a person's waking.
  package var scheduledOff: Bool {
    get { state.withLock { $0.scheduledOff } }
    set {
      state.withLock { state in
        if state.scheduledOff != newValue { state.wokenInOffPeriod = false }
        state.scheduledOff = newValue
      }
    }
  }

  /// Whether a person turned the sign off (until they turn it on).
  package var poweredOff: Bool { state.withLock { $0.poweredOff } }

  /// A person turns the sign on or off: off until turned on; on wakes it from an off
  /// period of the schedule until that period ends.
  package func setPower(on: Bool) {
    state.withLock { state in
      state.poweredOff = !on
      state.wokenInOffPeriod = on && state.scheduledOff
    }
  }

  /// Forgets what a person did to the power (a reload of the config): on unless the
  /// schedule says off, and not woken from an off period.
  package func forgetPower() {
    state.withLock { state in
      state.poweredOff = false
      state.wokenInOffPeriod = false
    }
  }

  /// How late frames came, from the gaps between them: the gap beyond one period, in
  /// microseconds, at the median, the 99th percentile and the worst, over the last frames.
  package func lateness() -> (frames: Int, p50: Double, p99: Double, max: Double) {
    let (gaps, count) = state.withLock { state in (Array(state.intervals.prefix(min(state.intervalCount, SignLights.intervalCapacity))), state.intervalCount) }
    let late = gaps.map { max(0, $0 - period) }.sorted()
    guard !late.isEmpty else { return (count, 0, 0, 0) }
    func at(_ p: Double) -> Double { Double(late[min(late.count - 1, Int(Double(late.count) * p))]) / 1000 }
    return (count, at(0.5), at(0.99), Double(late.last!) / 1000)
  }

  /// Called by the frame loop for every frame shown; the level and off state to show it
  /// with, and the monotonic time in nanoseconds.
  func record(_ frame: Frame, changed: Bool) -> (level: Int, off: Bool, time: Int64) {
    let time = monotonic()
    return state.withLock { state in
      if state.lastShow > 0 {
        state.intervals[state.intervalCount % SignLights.intervalCapacity] = time - state.lastShow
        state.intervalCount += 1
      }
      state.lastShow = time
      if changed {
        state.pixels.assign(frame.pixels)
        state.brightness = frame.brightness
        state.generation &+= 1
      }
      return (state.level, state.off(at: time), time)
    }
  }
}

/// A display that shares every frame with the server, applies the brightness asked over
/// HTTP or by the schedule (a new level fades in over ``fade`` seconds instead of jumping),
/// puts the display to sleep in off periods, and passes the frame on.
package struct TappedDisplay<Inner: Display>: Display {
  var inner: Inner
  let lights: SignLights
  /// The level faded towards, where the fade started, and when (monotonic nanoseconds).
  var target = 15
  var fadeFrom = 15.0
  var fadeStart: Int64 = 0
  /// The level the last frame was shown at.
  var shownLevel = 15.0
  var shownOff = false
  var fading = false
  /// What an off period shows a display that wants every frame, made once.
  let dark: Frame
  /// Seconds a brightness change takes.
  static var fade: Double { 2 }

  package init(inner: Inner, lights: SignLights) {
    self.inner = inner
    self.lights = lights
    dark = Frame(width: inner.width, height: inner.height)
  }

  package var width: Int { inner.width }
  package var height: Int { inner.height }
  /// Every frame while a fade runs, so it is smooth even on a still sign.
  package var wantsEveryFrame: Bool { inner.wantsEveryFrame || fading }

  package mutating func show(_ frame: Frame, changed: Bool) throws {
    let (level, off, now) = lights.record(frame, changed: changed)
    let toggled = off != shownOff
    shownOff = off
    if off {
      if inner.wantsEveryFrame {
        // A frame stream or a recorder gets its dark frames.
        try inner.show(dark, changed: toggled)
      } else if toggled {
        // The chips go to sleep once, and the player rests until woken.
        try inner.sleep()
      }
      return
    }
    if level != target {
      // The first level is taken at once; later ones fade from where the sign is.
      fadeFrom = fadeStart == 0 ? Double(level) : shownLevel
      target = level
      fadeStart = now
    }
    let progress = fadeStart == 0 ? 1 : min(1, Double(now - fadeStart) / (TappedDisplay.fade * 1e9))
    let effective = fadeFrom + (Double(target) - fadeFrom) * progress
    if fadeStart == 0 { fadeStart = now }
    fading = progress < 1 && fadeFrom != Double(target)
    // A new level changes what the display shows even when the pixels did not change.
    let relit = effective != shownLevel || toggled
    shownLevel = effective
    if effective >= 15 {
      try inner.show(frame, changed: changed || relit)
    } else {
      var dimmed = frame
      dimmed.brightness = frame.brightness * (effective + 1) / 16
      try inner.show(dimmed, changed: changed || relit)
    }
  }

  package mutating func shutdown() throws {
    try inner.shutdown()
  }

  package mutating func sleep() throws {
    try inner.sleep()
  }

  /// Asleep through an off period (a display that wants every frame is sent dark ones).
  package var isAsleep: Bool { shownOff && !inner.wantsEveryFrame }
}

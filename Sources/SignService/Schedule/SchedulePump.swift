import Platform
import MatrixCore
import Marquee
import SimpleJSON
import Synchronization

/// Plays a schedule on a running sign: at each change it says, and whenever the wall clock
/// jumps (NTP setting a Pi's clock at boot), it switches the zones to the program due, sets
/// the brightness and darkens the sign for off periods.
///
/// The schedule is a pure function of the wall clock; this is the one place that reads
/// it. It looks at least every second, comparing the wall clock with the monotonic one,
/// so a jump is seen within a second or two, and the kernel's own notice (a timerfd with
/// `TFD_TIMER_CANCEL_ON_SET`) wakes it at once; scrolling and effects never see a jump
/// (they run on the monotonic clock). Until the clock looks set (``KernelClock``), the
/// schedule's ``SignSchedule/holdUntilClockSet`` program plays. Nothing here runs per frame.
public final class SchedulePump: Sendable {
  struct State {
    var current: ScheduleState?
    /// The wall and monotonic clocks when last looked at.
    var wall = 0.0, monotonic = 0.0
    /// Seconds of a pass of each `.passes` program's content.
    var passSeconds: [String: Double] = [:]
    /// Whether the clock has looked set once (a held program is let go for good).
    var clockSeenSet = false
    /// The kernel's notices that the clock was set.
    var kernelNotices = 0
    /// A program a person chose, and the wall time until which it plays.
    var chosen: (name: String, until: Double)?
    /// The first wall time at which a layer over the program ends (a person's change made
    /// while another program was chosen may end before the schedule changes): the zones
    /// play again then.
    var layersEnd: Double?
  }

  let plan: Mutex<SignSchedule>
  let feed: Feed
  let lights: SignLights
  let stop: StopFlag
  /// The wall and monotonic clocks, and whether the wall clock looks set: the system's,
  /// or a test's.
  let clock: SignClock
  /// Where it says that the wall clock moved, or that a program cannot play.
  let reports: SignReports
  let state = Mutex(State())
  /// The layers above the program, by zone, at a wall time: what plays over the program's
  /// content, in order (the session's: a feed's content and a person's change that still
  /// holds, the newer on top). Each is a zone's document, whether it replaces the zone's
  /// options (a person's change is kept whole) or is merged over what is below, and until
  /// when it holds.
  package typealias Overlay = @Sendable (_ zone: String, _ wall: Double) -> [(document: [(key: String, value: JSONValue)], replacing: Bool, until: Double?)]
  let overlay = Mutex<Overlay?>(nil)
  /// A jump of the wall clock against the monotonic one larger than this is a clock set.
  static let jump = 2.0

  package init(
    schedule: SignSchedule, feed: Feed, lights: SignLights, stop: StopFlag, clock: SignClock? = nil, reports: SignReports? = nil
  ) {
    self.clock = clock ?? feed.clock
    self.reports = reports ?? feed.reports
    plan = Mutex(schedule)
    self.feed = feed
    self.lights = lights
    self.stop = stop
    // Notifications from feed lines that ask to wake the sign light it through this tap.
    feed.tap.withLock { $0 = lights }
  }

  /// The schedule played.
  public var schedule: SignSchedule { plan.withLock { $0 } }

  /// A layer over the program that ends at wall time `end` was set: the zones play again
  /// then, without it.
  package func layerEnds(at end: Double) {
    state.withLock { $0.layersEnd = min($0.layersEnd ?? end, end) }
    stop.wake()
  }

  /// The next moment the pump must look: the schedule's next change, or the end of a
  /// layer over the program, whichever comes first.
  func nextDue(_ state: State) -> Double {
    min(state.current?.nextChange ?? .infinity, state.layersEnd ?? .infinity)
  }

  /// Plays `programs` from now on (a change over the API), at once.
  public func replace(programs: [Program]) {
    plan.withLock { $0.programs = programs }
    state.withLock { $0.passSeconds = [:] }
    // The program playing may keep its name and change its content: play it again.
    apply(at: clock.wall(), replaying: true)
  }

  /// Plays `program` now, until the schedule's next change (a person's choice: the page, a
  /// Home Assistant select), or until `until` (Unix time: a choice kept in the state file,
  /// taken up again after a restart); nil goes back to what the schedule says.
  ///
  /// - Throws: ``JSONFieldError`` for a name the schedule has no program of.
  public func choose(program name: String?, until: Double? = nil) throws(JSONFieldError) {
    let wall = clock.wall()
    if let name {
      var end = until ?? 0
      if until == nil { end = try choiceEnd(of: name, at: wall) }
      state.withLock { $0.chosen = (name, end) }
    } else {
      state.withLock { $0.chosen = nil }
    }
    apply(at: wall)
  }

  /// Until when `name`, chosen at wall time `wall`, would play: the schedule's next change.
  ///
  /// - Throws: ``JSONFieldError`` for a name the schedule has no program of.
  public func choiceEnd(of name: String, at wall: Double) throws(JSONFieldError) -> Double {
    guard schedule.programs.contains(where: { $0.name == name }) else {
      let names = schedule.programs.map(\.name)
      throw JSONFieldError(field: "name", reason: "no program named '\(name)'" + (names.isEmpty ? "" : " (programs: \(names.joined(separator: ", ")))"))
    }
    return schedule.state(at: wall) { self.seconds(of: $0) }.nextChange ?? .infinity
  }

  /// The program a person chose and until when it plays, if one still plays.
  public var choice: (name: String, until: Double)? {
    let wall = clock.wall()
    return state.withLock { state in state.chosen.flatMap { wall < $0.until ? $0 : nil } }
  }

  /// When what plays at wall time `wall` stops playing: the end of a chosen program's
  /// stretch, or the first later change at which the schedule plays another program (or
  /// none). Nil on a sign without programs: nothing takes a zone's content away.
  public func stretchEnd(at wall: Double) -> Double? {
    guard !schedule.programs.isEmpty else { return nil }
    if let current, current.holding { return current.nextChange }
    if let chosen = state.withLock({ $0.chosen }), wall < chosen.until { return chosen.until }
    return firstChange(after: wall) { $0.program != $1.program }
  }

  /// When an off period in force at wall time `wall` ends (nil when none is).
  public func offEnd(at wall: Double) -> Double? {
    guard schedule.state(at: wall, length: { self.seconds(of: $0) }).off else { return nil }
    return firstChange(after: wall) { $0.off != $1.off }
  }

  /// The first of the schedule's changes after `wall` at which `differs` says the state is
  /// another than at `wall` (looked at over a few hundred changes at most: weeks ahead).
  func firstChange(after wall: Double, _ differs: (ScheduleState, ScheduleState) -> Bool) -> Double? {
    let plan = schedule
    let length: (Program) -> Double = { self.seconds(of: $0) }
    let start = plan.state(at: wall, length: length)
    var at = start.nextChange
    for _ in 0..<512 {
      guard let time = at, time > wall, time.isFinite else { return at }
      let next = plan.state(at: time, length: length)
      if differs(start, next) { return time }
      guard let later = next.nextChange, later > time else { return time }
      at = later
    }
    return at
  }

  /// How many times the kernel said the wall clock was set (`TFD_TIMER_CANCEL_ON_SET`).
  public var kernelNotices: Int { state.withLock { $0.kernelNotices } }

  /// Plays a whole new schedule from now on (the config reloaded), at once.
  public func replace(schedule: SignSchedule) {
    plan.withLock { $0 = schedule }
    state.withLock { $0.passSeconds = [:] }
    apply(at: clock.wall(), replaying: true)
  }

  /// Plays the brightness schedule and the off periods of `other` from now on (a change
  /// over the API), at once; the programs stay.
  public func replaceBrightnessAndOff(with other: SignSchedule) {
    plan.withLock {
      $0.location = other.location
      $0.brightness = other.brightness
      $0.brightnessSource = other.brightnessSource
      $0.off = other.off
      $0.offSource = other.offSource
    }
    apply(at: clock.wall())
  }

  /// What the schedule says now (nil before the first look).
  public var current: ScheduleState? { state.withLock { $0.current } }

  /// Looks at the schedule at wall time `wall` and applies what changed; returns the state.
  @discardableResult
  public func apply(at wall: Double, replaying: Bool = false) -> ScheduleState {
    let plan = schedule
    var next = plan.state(at: wall) { self.seconds(of: $0) }
    if let held = plan.holdUntilClockSet, plan.programs.contains(where: { $0.name == held }), !state.withLock({ $0.clockSeenSet }) {
      if clock.wallIsSet() {
        state.withLock { $0.clockSeenSet = true }
      } else {
        // Until the clock looks set, the held program plays on, lit; looked at every second.
        next = ScheduleState(program: held, due: [], brightness: nil, off: false, nextChange: wall + 1, holding: true)
      }
    }
    if !next.holding, let chosen = state.withLock({ $0.chosen }) {
      if wall < chosen.until, plan.programs.contains(where: { $0.name == chosen.name }) {
        next.program = chosen.name
        next.chosen = true
      } else {
        state.withLock { $0.chosen = nil }
      }
    }
    let (previous, layersEnded) = state.withLock { ($0.current, $0.layersEnd.map { wall >= $0 } ?? false) }
    // At the first look a program plays only if one is due (or the default); a sign
    // without programs keeps what it was built with. A layer over the program that ended
    // plays the program again, without it.
    if replaying || layersEnded || (previous == nil ? next.program != nil : previous?.program != next.program) { play(next.program, at: wall) }
    if let level = next.brightness, previous?.brightness != level { lights.level = level }
    if previous?.off != next.off { lights.scheduledOff = next.off }
    // What the schedule says is published once the sign does it (a reader of `current`
    // never sees a state the sign has not taken up).
    state.withLock { state in
      state.current = next
      state.wall = wall
      state.monotonic = clock.monotonic()
    }
    stop.wake()
    if previous != next { feed.changes.signal() }
    return next
  }

  /// Starts looking on a thread of its own, after a first look now (before the first frame).
  public func start() {
    apply(at: clock.wall())
    DetachedThread.start { [self] in
      // The kernel's notice of a clock set, where it has one; the comparison below sees a
      // jump without it.
      let notice = ClockSetNotice()
      while !stop.isSet {
        // Sleep until the next change, a second at most (one wake-up a second: the sign may
        // be in an off period, using next to no CPU), or until the kernel says the clock
        // was set.
        let due = state.withLock { nextDue($0) }
        let milliseconds = Int32(saturating: max(1, min(1000, ((due - clock.wall()) * 1000).rounded(.up))))
        var noticed = false
        if let notice { noticed = notice.wait(milliseconds: milliseconds) } else { clock.sleep(Double(milliseconds) / 1000) }
        if stop.isSet { return }
        look(noticed: noticed)
      }
    }
  }

  /// One look at the clocks (the pump's thread looks at least every second): a jump of the
  /// wall clock against the monotonic one (or the kernel's notice of one, `noticed`) moves
  /// the texts that show the time and plays what the schedule says at the new time; a
  /// change that is due is applied.
  public func look(noticed: Bool = false) {
    if noticed { state.withLock { $0.kernelNotices += 1 } }
    let (due, wall, monotonic) = state.withLock { (nextDue($0), $0.wall, $0.monotonic) }
    let now = clock.wall()
    let expected = wall + (clock.monotonic() - monotonic)
    if abs(now - expected) > SchedulePump.jump || (noticed && abs(now - expected) > 0.001) {
      reports.notice("The wall clock moved by \(Int(saturating: (now - expected).rounded())) s; the schedule is looked at again")
      // Texts that show the time follow the clock; scrolling does not jump with it.
      feed.shiftClock(by: now - expected)
      apply(at: now)
    } else if now >= due {
      apply(at: now)
    } else {
      state.withLock { state in
        state.wall = now
        state.monotonic = clock.monotonic()
      }
    }
  }

  /// Switches every zone to `program`'s content; zones it does not name, and every zone when
  /// no program plays, go back to what the sign started with. The layers above the program
  /// (``overlay``) stay on top: a change to the program never takes back what a person
  /// published, nor what MQTT's content topics say. Each zone's layers are committed
  /// together, so no frame shows the program between them.
  func play(_ name: String?, at wall: Double) {
    let program = schedule.programs.first { $0.name == name }
    let above = overlay.withLock { $0 }
    var updates: [Feed.Update] = []
    var layersEnd: Double?
    for zone in feed.zoneNames {
      let base: Feed.Update
      do {
        if let document = program?.zones.first(where: { ($0.zone ?? feed.firstZone) == zone })?.document,
          case .object(let members) = document
        {
          let fields = try JSONFields(.object([("zone", .string(zone)), ("immediately", .bool(true))] + members), path: "programs.\(program!.name)")
          var update = try feed.prepare(fields, replacing: true)
          update.isBase = true
          base = update
        } else {
          base = try feed.restart(zone)
        }
      } catch {
        reports.warning("program '\(name ?? "")', zone '\(zone)': \(error); the zone keeps what it shows")
        continue
      }
      updates.append(base)
      var below = base.options
      for layer in above?(zone, wall) ?? [] {
        if let until = layer.until, until.isFinite { layersEnd = min(layersEnd ?? until, until) }
        do {
          let fields = try JSONFields(.object([("zone", .string(zone)), ("immediately", .bool(true))] + layer.document), path: "zones.\(zone)")
          let update = try feed.prepare(fields, replacing: layer.replacing, keeping: layer.replacing, over: layer.replacing ? nil : below)
          below = update.options
          updates.append(update)
        } catch {
          reports.warning("zone '\(zone)': what was set over the program no longer applies to it: \(error)")
        }
      }
    }
    state.withLock { $0.layersEnd = layersEnd }
    feed.commit(updates)
  }

  /// A program's turn in seconds: its duration, or its passes through the messages of its
  /// first zone.
  func seconds(of program: Program) -> Double {
    switch program.length {
    case .seconds(let seconds): return seconds
    case .passes(let passes):
      if let known = state.withLock({ $0.passSeconds[program.name] }) { return Double(passes) * known }
      var pass = 30.0
      if let part = program.zones.first, case .object(let members) = part.document,
        let fields = try? JSONFields(.object([("zone", .string(part.zone ?? feed.firstZone))] + members)),
        let update = try? feed.prepare(fields, replacing: true), let content = update.content,
        let size = feed.places[update.zone], let timeline = try? content.makeTimeline(width: size.width, height: size.height),
        let loop = timeline.loopDuration, loop > 0
      {
        pass = loop
      }
      state.withLock { $0.passSeconds[program.name] = pass }
      return Double(passes) * pass
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Dispatch
import Marquee
import SimpleJSON
import Synchronization

/// Plays a schedule on a running sign: at each change it says, and whenever the wall clock
/// jumps (NTP setting a Pi's clock at boot), it switches the zones to the program due, sets
/// the brightness and darkens the sign for off periods.
///
/// The schedule is a pure function of the wall clock; this is the one place that reads
/// it. It looks at least every second, comparing the wall clock with the monotonic one,
/// so a jump is seen within a second or two; scrolling and effects never see it (they run
/// on the monotonic clock). Nothing here runs per frame.
public final class SchedulePump: Sendable {
  struct State {
    var current: ScheduleState?
    /// The wall and monotonic clocks when last looked at.
    var wall = 0.0, monotonic = 0.0
    /// Seconds of a pass of each `.passes` program's content.
    var passSeconds: [String: Double] = [:]
  }

  let plan: Mutex<SignSchedule>
  let feed: Feed
  let frames: FrameTap
  let stop: StopFlag
  /// The wall clock (Unix time): the C library's, or a test's.
  let wallClock: @Sendable () -> Double
  let state = Mutex(State())
  /// A jump of the wall clock against the monotonic one larger than this is a clock set.
  static let jump = 2.0

  package init(
    schedule: SignSchedule, feed: Feed, frames: FrameTap, stop: StopFlag, wallClock: @escaping @Sendable () -> Double = LocalTime.now
  ) {
    plan = Mutex(schedule)
    self.feed = feed
    self.frames = frames
    self.stop = stop
    self.wallClock = wallClock
  }

  /// The schedule played.
  public var schedule: SignSchedule { plan.withLock { $0 } }

  /// Plays `programs` from now on (a change over the API), at once.
  public func replace(programs: [Program]) {
    plan.withLock { $0.programs = programs }
    state.withLock { $0.passSeconds = [:] }
    // The program playing may keep its name and change its content: play it again.
    apply(at: wallClock(), replaying: true)
  }

  /// What the schedule says now (nil before the first look).
  public var current: ScheduleState? { state.withLock { $0.current } }

  /// Looks at the schedule at wall time `wall` and applies what changed; returns the state.
  @discardableResult
  public func apply(at wall: Double, replaying: Bool = false) -> ScheduleState {
    let next = schedule.state(at: wall) { self.seconds(of: $0) }
    let previous = state.withLock { state in
      defer {
        state.current = next
        state.wall = wall
        state.monotonic = SchedulePump.monotonic()
      }
      return state.current
    }
    // At the first look a program plays only if one is due (or the default); a sign
    // without programs keeps what it was built with.
    if replaying || (previous == nil ? next.program != nil : previous?.program != next.program) { play(next.program) }
    if let level = next.brightness, previous?.brightness != level { frames.level = level }
    if previous?.off != next.off { frames.off = next.off }
    stop.wake()
    return next
  }

  /// Starts looking on a thread of its own, after a first look now (before the first frame).
  public func start() {
    apply(at: wallClock())
    DispatchQueue.global().async { [self] in
      while !stop.isSet {
        // Sleep until the next change, a second at most, a twentieth at a time.
        let (due, wall, monotonic) = state.withLock { ($0.current?.nextChange ?? .infinity, $0.wall, $0.monotonic) }
        let slices = Int(max(1, min(20, ((due - wallClock()) * 20).rounded(.up))))
        for _ in 0..<slices where !stop.isSet { usleep(50_000) }
        if stop.isSet { return }
        let now = wallClock()
        let expected = wall + (SchedulePump.monotonic() - monotonic)
        if abs(now - expected) > SchedulePump.jump {
          printError("The wall clock moved by \(Int((now - expected).rounded())) s; the schedule is looked at again")
          // Texts that show the time follow the clock; scrolling does not jump with it.
          feed.shiftClock(by: now - expected)
          apply(at: now)
        } else if now >= due {
          apply(at: now)
        } else {
          state.withLock { state in
            state.wall = now
            state.monotonic = SchedulePump.monotonic()
          }
        }
      }
    }
  }

  /// Switches every zone to `program`'s content; zones it does not name, and every zone when
  /// no program plays, go back to what the sign started with.
  func play(_ name: String?) {
    let program = schedule.programs.first { $0.name == name }
    var updates: [Feed.Update] = []
    for zone in feed.zoneNames {
      do {
        if let document = program?.zones.first(where: { ($0.zone.isEmpty ? feed.firstZone : $0.zone) == zone })?.document,
          case .object(let members) = document
        {
          let fields = try JSONFields(.object([("zone", .string(zone)), ("immediately", .bool(true))] + members), path: "programs.\(program!.name)")
          updates.append(try feed.prepare(fields, replacing: true))
        } else {
          updates.append(try feed.restart(zone))
        }
      } catch {
        printError("Warning: program '\(name ?? "")', zone '\(zone)': \(error); the zone keeps what it shows")
      }
    }
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
      if let (zone, document) = program.zones.first, case .object(let members) = document,
        let fields = try? JSONFields(.object([("zone", .string(zone.isEmpty ? feed.firstZone : zone))] + members)),
        let update = try? feed.prepare(fields, replacing: true), let content = update.content,
        let size = feed.sizes[update.zone], let timeline = try? content.makeTimeline(width: size.width, height: size.height),
        let loop = timeline.loopDuration, loop > 0
      {
        pass = loop
      }
      state.withLock { $0.passSeconds[program.name] = pass }
      return Double(passes) * pass
    }
  }

  package static func monotonic() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}

import Platform
import BitmapFonts
import Dispatch
import Marquee
import MatrixCore
import SimpleJSON
import Synchronization

/// A running sign: its zones and their feed, the schedule pump, notifications, live
/// values, the lights (what the LEDs show and how) and the state file, behind typed commands.
///
/// Every front end (the HTTP routes and the page, MQTT, the command line, an embedder) is
/// an adapter over one session: it turns what it reads into a ``SignCommand``, hands it to
/// ``perform(_:from:)`` and shows the ``SignAnswer`` or ``SignRefusal``. A command is checked
/// whole before anything changes, kept in the state file before it is answered (a
/// person's change), and applied at the next frame. Commands run one at a time, in the
/// order they came, on the session's own queue (they may read font files and write the
/// state file); reads (``state()``, ``scheduleView()``) are answered from what the frame loop
/// and the feed share under their locks.
public final class SignSession: Sendable {
  /// What the session itself changed: pauses, a version the event streams watch, and what
  /// a person changed, as the state file keeps it.
  struct Record {
    var paused: [String: Bool]
    /// Bumped by every change of content, pause, brightness, power or schedule.
    var version = 0
    var saved = SignState()
    /// The content a live source (MQTT's content topics, its groups merged) last gave each
    /// zone, accepted: the layer between the program and a person's change, never kept.
    var live: [String: [(key: String, value: JSONValue)]] = [:]
    /// Zones whose live content (MQTT's) came after a person's change: there the live layer
    /// is on top (the newer of the two shows); elsewhere a person's change is.
    var liveOnTop: Set<String> = []
  }

  /// What was said when the state file found at the start could not be used and was set
  /// aside (nil: it was fine, or there was none).
  public let stateSetAside: String?
  /// The last time a change could not be kept in the state file, and why (nil: never).
  let saveFailure = Mutex<String?>(nil)
  /// Whether a preview is being drawn (one at a time).
  let previewing = Atomic<Bool>(false)
  /// The options the sign runs with (completed by ``SignPlan``).
  public let options: RunOptions
  package let controller: SignController
  package let feed: Feed
  package let lights: SignLights
  package let pump: SchedulePump
  /// The live data sources' pump (a config's `"sources"`).
  package let sources: SourcePump
  package let zones: [ZonePlace]
  public var width: Int { options.width }
  public var height: Int { options.height }
  public var fps: Double { options.fps }
  let stop: StopFlag
  /// The state file (`--state`), if any.
  public let statePath: String?
  public let clock: SignClock
  public let reports: SignReports
  /// Reads the config again (SIGHUP): the options a restart would run with.
  let reloadOptions: (@Sendable () throws -> RunOptions)?
  /// Whether the sign has a config to read again (``SignCommand/reload``).
  public var canReload: Bool { reloadOptions != nil }
  /// The brightness step the sign started with (what a reload goes back to).
  let startLevel: Int
  let record: Mutex<Record>
  let queue = DispatchQueue(label: "marquee.session.commands")
  /// Where slow reads are worked out (a timetable), so that neither a front end's thread
  /// nor the commands wait for them.
  let readQueue = DispatchQueue(label: "marquee.session.reads")
  /// The last timetable worked out, and for what.
  let timetableCache = Mutex<(key: TimetableKey, value: JSONValue)?>(nil)

  /// What the player draws: the sign, with the feed's updates applied before each frame.
  public var timeline: FedSign { FedSign(controller: controller, feed: feed) }

  /// Builds the sign `options` describe, takes up what its state file kept (what still
  /// holds: a change made during a program's stretch only within that stretch), and
  /// looks at its schedule once, all before the first frame. Nothing runs on a thread of
  /// its own until ``start()``.
  ///
  /// - Throws: ``UsageError`` or ``SignFailure`` as ``SignPlan/build(_:stop:now:fontAccess:saved:clock:reports:)``
  ///   does, and ``SignFailure`` for a state file that exists but cannot be read.
  public init(
    _ options: RunOptions, stop: StopFlag, clock: SignClock = .system, reports: SignReports = .inMemory(),
    fontAccess: FontCache.Access = .offered(folders: [], started: []), reload: (@Sendable () throws -> RunOptions)? = nil
  ) throws {
    statePath = options.statePath
    if let statePath { try StateFile.checkFolder(of: statePath) }
    SignSession.removeLeftovers(state: statePath, icons: options.iconsPath, reports: reports)
    let read = try statePath.map { try StateFile.read($0, reports: reports, now: clock.wall()) }
    let saved = read?.state
    stateSetAside = read?.setAside
    var options = options
    if let written = saved?.sources {
      // Sources set over the API replace the config's, as they did before the restart.
      do {
        options.sources = try SignSession.networkSources(written)
      } catch {
        reports.warning("\(statePath ?? "state"): the sources set over the API cannot be read (\(error)); the config's are fetched")
      }
    }
    let now = clock.wall()
    let built = try SignPlan.build(
      options, stop: stop, fontAccess: fontAccess, saved: saved?.zones(holdingAt: now).map { (zone: $0.name, document: $0.document) } ?? [], clock: clock, reports: reports)
    self.options = built.options
    controller = built.controller
    feed = built.feed
    self.stop = stop
    self.clock = clock
    self.reports = reports
    reloadOptions = reload
    lights = SignLights(width: built.options.width, height: built.options.height, fps: built.options.fps, clock: clock)
    startLevel = lights.level
    zones = controller.sign.zones.map(\.place)
    record = Mutex(Record(paused: Dictionary(uniqueKeysWithValues: zones.map { ($0.name, false) })))
    pump = SchedulePump(
      schedule: SignSession.schedule(built.options, saved: saved, zones: zones.map(\.name), reports: reports, path: statePath),
      feed: feed, lights: lights, stop: stop, clock: clock, reports: reports)
    let lights = lights
    sources = SourcePump(sources: built.options.sources, feed: feed, clock: clock, stop: stop, reports: reports, isDark: { lights.off })
    // What the state file kept is the person's layer from the first look on: a program the
    // schedule plays at once plays beneath it, as it does later.
    let restored = saved.map { kept($0, at: now) }
    if let restored { record.withLock { $0.saved = restored } }
    pump.overlay.withLock { $0 = { [weak self] zone, wall in self?.layers(above: zone, at: wall) ?? [] } }
    if let chosen = restored?.chosen { try? pump.choose(program: chosen.name, until: chosen.until) }
    pump.apply(at: now)
    if let restored { restoreSettings(restored) }
  }

  /// The layers above the program in `zone` at wall time `wall`, in order: the live
  /// sources' content (merged over what is below) and a person's change that still holds
  /// (whole, as the state file keeps it), the newer of the two on top.
  func layers(above zone: String, at wall: Double) -> [(document: [(key: String, value: JSONValue)], replacing: Bool, until: Double?)] {
    record.withLock { record in
      var layers: [(document: [(key: String, value: JSONValue)], replacing: Bool, until: Double?)] = []
      let until = record.saved.zonesUntil[zone]
      if let person = record.saved.zones.first(where: { $0.name == zone }), wall < until ?? .infinity, case .object(let members) = person.document {
        layers.append((members, true, until))
      }
      // The newer of a person's change and the live content is on top.
      if let live = record.live[zone] { layers.insert((live, false, nil), at: record.liveOnTop.contains(zone) ? layers.count : 0) }
      return layers
    }
  }

  /// Removes the new files durable writes cut short left beside the state file and in the
  /// icon folder (a SIGKILL during a write: 20 kills left 1.39 MB), and says how many.
  static func removeLeftovers(state: String?, icons: String?, reports: SignReports) {
    var removed = 0
    if let state {
      let name = state.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? state
      removed += DurableFile.removeLeftovers(in: DurableFile.folder(of: state)) { $0 == name }
    }
    if let icons {
      removed += DurableFile.removeLeftovers(in: icons) { file in
        PictureFile.extensions.contains { file.hasSuffix("." + $0) && Icon.isValidName(String(file.dropLast($0.count + 1))) }
      }
    }
    if removed > 0 { reports.notice("removed \(removed) unfinished file\(removed == 1 ? "" : "s") that a stop during a write left") }
  }

  /// The config's schedule, with the programs, brightness schedule and off periods the
  /// state file kept over it (each that no longer checks is reported, and the config's plays).
  static func schedule(_ options: RunOptions, saved: SignState?, zones: [String], reports: SignReports, path: String?) -> SignSchedule {
    var schedule = options.schedule ?? SignSchedule()
    if case .array(let list)? = saved?.programs {
      do {
        schedule.programs = try ScheduleFile.programs(list, zones: zones)
      } catch {
        reports.warning("\(path ?? "state"): \(error); the config's programs play")
      }
    }
    if let written = saved?.schedule {
      do {
        var restored = schedule
        try ScheduleFile.readNightAndOff(try JSONFields(written, path: "schedule"), into: &restored)
        schedule = restored
      } catch {
        reports.warning("\(path ?? "state"): \(error); the config's brightness schedule and off periods play")
      }
    }
    return schedule
  }

  /// Starts the session's own threads: the schedule pump (and, through the feed, the
  /// lifetime watcher when live content has a lifetime).
  public func start() {
    pump.start()
    sources.start()
  }

  /// Performs `command` on the session's queue and waits for its answer. Not to be called
  /// from that queue (``submit(_:from:then:)`` is the way from a callback).
  public func perform(_ command: SignCommand, from source: CommandSource = .person) -> Result<SignAnswer, SignRefusal> {
    queue.sync { run(command, from: source) }
  }

  /// Performs `command` on the session's queue, in the order commands came, and hands the
  /// answer to `then` there.
  public func submit(_ command: SignCommand, from source: CommandSource = .person, then: @escaping @Sendable (Result<SignAnswer, SignRefusal>) -> Void = { _ in }) {
    queue.async { [self] in then(run(command, from: source)) }
  }

  /// Runs other work that reads files (listing fonts) on the session's queue, so no front
  /// end's thread waits on a file.
  public func onQueue(_ work: @escaping @Sendable () -> Void) {
    queue.async(execute: work)
  }

  /// Runs a slow read (a timetable) on the session's read queue: one at a time, beside the
  /// commands, never on a front end's thread.
  public func onReadQueue(_ work: @escaping @Sendable () -> Void) {
    readQueue.async(execute: work)
  }

  /// Performs `command` now, from work already on the session's queue (``onQueue(_:)``):
  /// a front end that drains commands of its own (MQTT's inbox) in one job.
  public func performOnQueue(_ command: SignCommand, from source: CommandSource) -> Result<SignAnswer, SignRefusal> {
    dispatchPrecondition(condition: .onQueue(queue))
    return run(command, from: source)
  }

  func run(_ command: SignCommand, from source: CommandSource) -> Result<SignAnswer, SignRefusal> {
    do {
      try SignSession.check(command, from: source)
      return .success(try apply(command, from: source))
    } catch {
      return .failure(SignRefusal(from: error))
    }
  }

  /// The rules that hold for what `source` sends whatever the route it takes: a source that
  /// may read only some MQTT topics names no other in any placeholder of any document the
  /// command carries (content, a notification, a program and its zones).
  ///
  /// - Throws: ``JSONFieldError`` at the string that names a topic it may not read.
  static func check(_ command: SignCommand, from source: CommandSource) throws(JSONFieldError) {
    guard let filters = source.valueFilters else { return }
    for (path, document) in command.documents { try LiveValues.checkTopics(in: document, allowed: filters, path: path) }
  }

  /// Records a change in the state file before it is made: with `--state`, a command is
  /// answered only once its change is on the disk; one that cannot be saved changes
  /// nothing and is refused saying why. A change that leaves the state as it is writes
  /// nothing.
  func save(_ change: (inout SignState) -> Void) throws(SignRefusal) {
    let current = record.withLock { $0.saved }
    var next = current
    change(&next)
    // Nothing changed, nothing to write (an SD card wears with each write): the command
    // is answered as kept, for it is.
    if next == current { return }
    if let statePath {
      do {
        try StateFile.save(next, to: statePath)
      } catch let error as StateFile.TooLarge {
        throw SignRefusal(.tooLarge, "the change was not made: \(error)")
      } catch {
        saveFailure.withLock { $0 = "\(error)" }
        throw SignRefusal(.notSaved, "the change was not made: \(error)")
      }
      saveFailure.withLock { $0 = nil }
    }
    record.withLock { $0.saved = next }
  }

  /// Counts a change (event streams and MQTT's state topic send the new state) after
  /// `body` made it, and wakes the frame loop.
  func changed(_ body: (inout Record) -> Void = { _ in }) {
    record.withLock { record in
      body(&record)
      record.version += 1
    }
    stop.wake()
    feed.changes.signal()
  }

  /// The signal of every change to what the sign shows or says (commands, the feed's
  /// updates, the schedule's moves): front ends that publish the state wait on it.
  public var changes: ChangeSignal { feed.changes }

  /// A number that moves with every change the session makes (the feed's updates have
  /// their own, ``Feed/updateCount``).
  public var version: Int { record.withLock { $0.version } }

  /// What the state file holds now.
  public var kept: SignState { record.withLock { $0.saved } }

  /// What the state file kept that still holds at `now`, for the zones the sign has (a zone
  /// it no longer has is dropped, with a warning): a zone's content and until when, pauses,
  /// the brightness, the power, the programs, the schedule and a chosen program.
  func kept(_ saved: SignState, at now: Double) -> SignState {
    var kept = SignState()
    let holding = saved.zones(holdingAt: now)
    for (zone, document) in saved.zones {
      guard zones.contains(where: { $0.name == zone }) else {
        reports.warning("\(statePath ?? "state"): no zone named '\(zone)' now; its saved content is dropped")
        continue
      }
      guard holding.contains(where: { $0.name == zone }), case .object = document else { continue }
      kept.set(zone: zone, document, until: saved.zonesUntil[zone])
    }
    for (zone, pausing) in saved.paused where zones.contains(where: { $0.name == zone }) { kept.paused[zone] = pausing }
    kept.brightness = saved.brightness
    kept.poweredOff = saved.poweredOff
    // Programs and the schedule were taken up when the pump was made; the next save keeps them.
    kept.programs = saved.programs
    kept.schedule = saved.schedule
    kept.sources = saved.sources
    if let chosen = saved.chosen, now < chosen.until { kept.chosen = chosen }
    return kept
  }

  /// Takes up the pauses, the brightness and the power the state file kept, before the
  /// first frame (its content plays as the person's layer: ``layers(above:at:)``).
  func restoreSettings(_ kept: SignState) {
    feed.commit(kept.paused.compactMap { zone, pausing in try? pauseUpdate(zone, pausing) })
    if let level = kept.brightness { lights.level = level }
    if kept.poweredOff { lights.setPower(on: false) }
    record.withLock { record in for (zone, pausing) in kept.paused { record.paused[zone] = pausing } }
  }

  /// The update that pauses or resumes `zone`.
  func pauseUpdate(_ zone: String, _ pausing: Bool) throws -> Feed.Update {
    try feed.prepare(try JSONFields(.object([("zone", .string(zone)), ("pause", .bool(pausing))])))
  }
}

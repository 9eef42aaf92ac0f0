import Marquee
import MatrixCore
import SimpleJSON

/// What a front end reads: the sign's state, its schedule, its notifications.
extension SignSession {
  /// The sign's state as one value (what `GET /api/state` shows and MQTT's state topic
  /// publishes): size, brightness, whether it is lit and if not why and until when, the
  /// program, and each zone's place, content and options, and the text its messages show
  /// now (placeholders filled in).
  public func state() -> JSONValue {
    let options = feed.currentOptions
    let (paused, saved) = record.withLock { ($0.paused, $0.saved) }
    let stale = feed.staleZones
    let now = clock.wall()
    func showing(_ messages: [String]) -> JSONValue {
      .array(messages.flatMap(feed.values.expand).map { .string(TextTemplate($0).expand(at: now)) })
    }
    return .object([
      ("width", .number(Double(width))), ("height", .number(Double(height))), ("fps", .number(fps)),
      ("brightness", .number(Double(lights.level))), ("paused", .bool(paused.values.allSatisfy { $0 })),
      ("on", .bool(!lights.off)), ("dark", dark(at: now)), ("program", pump.current?.program.map { .string($0) } ?? .null),
      ("zones", .array(zones.map { zone in
        let zoneOptions: ZoneOptions = options[zone.name] ?? ZoneOptions()
        var members: [(key: String, value: JSONValue)] = [
          ("name", .string(zone.name)), ("x", .number(Double(zone.x))), ("y", .number(Double(zone.y))),
          ("width", .number(Double(zone.width))), ("height", .number(Double(zone.height))),
          ("paused", .bool(paused[zone.name] ?? false)), ("stale", .bool(stale.contains(zone.name))),
          ("showing", showing(zoneOptions.messages)),
        ]
        if let until = saved.zonesUntil[zone.name], now < until { members.append(("keptUntil", SignSession.moment(until))) }
        members.append(("why", whyValue(zone: zone.name, at: now)))
        return .object(members + SignSession.describe(zoneOptions))
      })),
    ] + (sources.isEmpty ? [] : [("sources", sources.stateValue())]))
  }

  /// Why the LEDs are dark and until when, or null while they are lit:
  /// `{"reason": "off hours", "until": {"at": …, "local": "2026-12-03 07:00"}}`, or
  /// `{"reason": "turned off", "until": null}` (until a person turns it on).
  func dark(at now: Double) -> JSONValue {
    guard let reason = darkReason else { return .null }
    let until = lights.darkness == .offPeriod ? pump.offEnd(at: now).map(SignSession.moment) ?? .null : .null
    return .object([("reason", .string(reason)), ("until", until)])
  }

  /// A moment as the API shows it: Unix time and local time.
  public static func moment(_ time: Double) -> JSONValue {
    let (date, minute) = LocalTime.date(at: time)
    return .object([("at", .number(time.rounded())), ("local", .string("\(date) \(TimeWindow.text(minute))"))])
  }

  /// Whether the sign has a schedule: programs, a brightness schedule or off periods.
  public var hasSchedule: Bool { pump.schedule != SignSchedule() }

  /// Which program plays now and why, the brightness and off state in force, what changes
  /// next, and the programs with their schedules (what `GET /api/schedule` shows); nil
  /// for a sign without a schedule.
  public func scheduleView() -> JSONValue? {
    guard let now = pump.current, hasSchedule else { return nil }
    let reason =
      if now.holding { "the wall clock is not set yet: the program is held until it is (untilClockSet)" }
      else if now.chosen { "it was chosen over the API, until the schedule's next change" }
      else if now.program == nil { "no program is due and there is no default" }
      else if now.due.isEmpty { "no program is due: the default plays" }
      else if now.takingTurns.count > 1 { "\(now.takingTurns.count) programs of the same priority are due: they take turns" }
      else if !now.outranked.isEmpty { "it is due now, and outranks \(now.outranked.joined(separator: ", ")) (priority)" }
      else { "it is due now" }
    // Each program's schedule as it was written, and whether it plays.
    let programs: [JSONValue] = pump.schedule.programs.map { program in
      var members: [(key: String, value: JSONValue)] = [("name", .string(program.name))]
      if case .object(let written) = program.source {
        members += written.filter { ["days", "times", "dates"].contains($0.key) }
      }
      return .object(
        members + [
          ("default", .bool(program.isDefault)), ("priority", .number(Double(program.priority))), ("playing", .bool(program.name == now.program)),
        ])
    }
    var members: [(key: String, value: JSONValue)] = [
      ("program", now.program.map { .string($0) } ?? .null), ("reason", .string(reason)),
      ("due", .array(now.due.map { .string($0) })), ("outranked", .array(now.outranked.map { .string($0) })), ("off", .bool(now.off)),
      ("brightness", now.brightness.map { .number(Double($0)) } ?? .null),
    ]
    if let next = now.nextChange { members.append(("next", SignSession.moment(next))) }
    members.append(("programs", .array(programs)))
    members.append(("schedule", ScheduleFile.nightAndOff(pump.schedule)))
    return .object(members)
  }

  /// The week ahead (``Timetable``) from today (the sign's local date) for `days` days, as
  /// the schedule playing now (the state file's changes included) computes it; nil
  /// without a schedule. Worked out once per version of the sign and day (asked again, it
  /// is the same value), and bounded: a schedule that changes too often for `days` is
  /// refused at `days`. Slow work: front ends call it off their own threads
  /// (``onReadQueue(_:)``).
  ///
  /// - Throws: ``SignRefusal`` at `days` past ``Timetable/workLimit``.
  public func timetable(days: Int) throws(SignRefusal) -> JSONValue? {
    guard hasSchedule else { return nil }
    let today = LocalTime.date(at: clock.wall()).date
    let key = TimetableKey(version: version, today: today, days: days)
    if let cached = timetableCache.withLock({ $0 }), cached.key == key { return cached.value }
    let value: JSONValue
    do {
      value = try timetable(pump.schedule, from: today, days: days)
    } catch {
      throw SignRefusal(field: "days", error.description)
    }
    timetableCache.withLock { $0 = (key, value) }
    return value
  }

  /// What a timetable was worked out for.
  struct TimetableKey: Equatable {
    var version: Int
    var today: LocalDate
    var days: Int
  }

  func timetable(_ schedule: SignSchedule, from today: LocalDate, days: Int) throws(Timetable.TooBusy) -> JSONValue {
    let entries: [JSONValue] = try Timetable.entries(schedule, from: today, days: days).map { entry in
      var members: [(key: String, value: JSONValue)] = [
        ("at", .number(entry.time.rounded())), ("day", .string("\(entry.day)")), ("weekday", .string(entry.day.weekday.rawValue)),
        ("time", .string(entry.clock)),
      ]
      switch entry.change {
      case .clocks(let forward, let from, let to):
        members.append(("clocks", .object([("forward", .bool(forward)), ("from", .string(from)), ("to", .string(to))])))
      case .sign(let on, let program, let brightness):
        if let on { members.append(("on", .bool(on))) }
        switch program {
        case .plays(let name)?: members.append(("program", .string(name)))
        case .byDefault(let name)?: members += [("program", .string(name)), ("default", .bool(true))]
        case .takeTurns(let names)?: members.append(("takeTurns", .array(names.map { .string($0) })))
        case nil: break
        }
        if let brightness { members.append(("brightness", .number(Double(brightness)))) }
      }
      return .object(members)
    }
    return .object([
      ("from", .string("\(today)")), ("days", .number(Double(days))),
      ("untilClockSet", schedule.holdUntilClockSet.map { .string($0) } ?? .null), ("entries", .array(entries)),
    ])
  }

  /// The notifications waiting and showing, in the order they came.
  public func notifications() -> JSONValue {
    let sign = controller.sign
    let now = controller.currentTime
    let plan = sign.notifications.plan
    // Those still to show or showing (one that ended is forgotten at the next change).
    let live = sign.notifications.notifications.filter { notification in plan.contains { $0.id == notification.id && $0.end > now } }
    return .array(live.map { notification in
      let showing = plan.contains { $0.id == notification.id && $0.start <= now && now < $0.end }
      let length: (String, JSONValue)
      switch notification.length {
      case .seconds(let seconds): length = ("duration", .number(seconds))
      case .passes(let passes): length = ("passes", .number(Double(passes)))
      }
      func effects(_ transition: Transition?) -> JSONValue { transition.map { .string($0.entry.map(\.name).joined(separator: "+")) } ?? .null }
      return .object([
        ("id", .number(Double(notification.id))), ("zone", notification.zone.map { .string($0) } ?? .null),
        ("messages", .array(notification.content.messages.map { .string($0) })), length,
        ("priority", .number(Double(notification.priority))), ("in", effects(notification.entering)),
        ("out", effects(notification.leaving)), ("showing", .bool(showing)),
      ])
    })
  }

  /// The frame loop's lateness and the zones gone stale (part of `GET /api/stats`).
  public func frameStats() -> [(key: String, value: JSONValue)] {
    let late = lights.lateness()
    return [
      ("frames", .number(Double(late.frames))), ("lateP50Microseconds", .number(late.p50)),
      ("lateP99Microseconds", .number(late.p99)), ("lateMaxMicroseconds", .number(late.max)),
      ("staleZones", .array(feed.staleZones.map { .string($0) })),
    ]
  }

  /// What an owner, or whoever they call for help, needs to see first: the sign's size and
  /// board, whether the wall clock is set, the state file's health, and the last reports.
  public func status() -> [(key: String, value: JSONValue)] {
    var members: [(key: String, value: JSONValue)] = [
      ("width", .number(Double(width))), ("height", .number(Double(height))),
      ("board", options.boardPath.map { .string($0) } ?? .null),
      ("clockSynchronized", .bool(clock.wallIsSet())),
    ]
    if let statePath {
      let failure = saveFailure.withLock { $0 }
      members.append(("stateFile", .object([
        ("path", .string(statePath)), ("healthy", .bool(stateSetAside == nil && failure == nil)),
        ("setAside", stateSetAside.map { .string($0) } ?? .null), ("lastFailure", failure.map { .string($0) } ?? .null),
      ])))
    } else {
      members.append(("stateFile", .null))
    }
    members.append(("reports", .array(reports.recent.suffix(10).map { report in
      .object([("level", .string(report.level == .warning ? "warning" : "notice")), ("text", .string(report.text))])
    })))
    return members
  }

  /// Copies what the LEDs show into `pixels` (dark while the sign is off), or with
  /// `composed` the frame the sign composed whether lit or not; its generation,
  /// brightness and whether the sign is off.
  public func frame(into pixels: inout Framebuffer, composed: Bool = false) -> (generation: UInt64, brightness: Double, off: Bool) {
    lights.read(into: &pixels, shown: !composed)
  }
}

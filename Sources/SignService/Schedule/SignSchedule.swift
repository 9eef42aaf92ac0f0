import SimpleJSON

/// A stretch of the day: `09:00-18:00`; one whose end is not after its start (`18:00-02:00`)
/// runs past midnight into the next day, and `00:00-24:00` is the whole day.
public struct TimeWindow: Sendable, Equatable, CustomStringConvertible {
  /// Minutes after midnight, 0...1439.
  public var start: Int
  /// Minutes after midnight, 1...1440; at or before `start`, the next day's.
  public var end: Int

  public init(start: Int, end: Int) {
    self.start = start
    self.end = end
  }

  /// Reads `HH:MM-HH:MM`.
  public init?(_ text: String) {
    let parts = text.split(separator: "-")
    guard parts.count == 2, let start = TimeWindow.minute(parts[0]), let end = TimeWindow.minute(parts[1], allowing24: true),
      start < 1440
    else { return nil }
    self.init(start: start, end: end)
  }

  /// `HH:MM` as minutes after midnight (`24:00` only if allowed).
  static func minute(_ text: Substring, allowing24: Bool = false) -> Int? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
      (0...59).contains(minute), (0...23).contains(hour) || (allowing24 && hour == 24 && minute == 0)
    else { return nil }
    return hour * 60 + minute
  }

  /// Whether it runs past midnight.
  public var crossesMidnight: Bool { end <= start }

  public var description: String { "\(TimeWindow.text(start))-\(TimeWindow.text(end))" }

  /// `HH:MM` of a minute of the day.
  package static func text(_ minute: Int) -> String {
    let h = minute / 60, m = minute % 60
    return (h < 10 ? "0\(h)" : "\(h)") + ":" + (m < 10 ? "0\(m)" : "\(m)")
  }

  /// The stretch of real time it covers when it starts on `date`.
  func interval(on date: LocalDate) -> Range<Double> {
    let from = LocalTime.instant(of: date, minute: start)
    let to = LocalTime.instant(of: crossesMidnight ? date.adding(days: 1) : date, minute: end)
    return from..<max(from, to)
  }
}

/// When something is in force: on some days of the week, in some windows of those days,
/// between two dates.
public struct Recurrence: Sendable, Equatable {
  /// The days it may start on; empty: every day.
  public var days: Set<Weekday>
  /// The windows; empty: the whole day.
  public var windows: [TimeWindow]
  /// The first and last dates it may start on, if limited.
  public var dates: ClosedRange<LocalDate>?

  public init(days: Set<Weekday> = [], windows: [TimeWindow] = [], dates: ClosedRange<LocalDate>? = nil) {
    self.days = days
    self.windows = windows
    self.dates = dates
  }

  /// Whether it may start on `date`.
  func starts(on date: LocalDate) -> Bool {
    (days.isEmpty || days.contains(date.weekday)) && (dates?.contains(date) ?? true)
  }

  /// The stretches of real time it covers that start on the days from `first` to `last`.
  func intervals(from first: LocalDate, through last: LocalDate) -> [Range<Double>] {
    var result: [Range<Double>] = []
    var date = first
    while date <= last {
      if starts(on: date) {
        for window in windows.isEmpty ? [TimeWindow(start: 0, end: 1440)] : windows {
          let interval = window.interval(on: date)
          if !interval.isEmpty { result.append(interval) }
        }
      }
      date = date.adding(days: 1)
    }
    return result
  }
}

/// One program of the sign (节目): what each zone shows, and when.
public struct Program: Sendable, Equatable {
  /// How long a program plays when others are due with it.
  public enum Length: Sendable, Equatable {
    case seconds(Double)
    /// Passes through its messages (one full ribbon, or one round of the cycle).
    case passes(Int)
  }

  /// One zone's content in a program.
  public struct Part: Sendable, Equatable {
    /// The zone, by its name; nil for the sign's first zone, whatever the layout calls it (a
    /// program's own messages and options), as a content document without `"zone"` means.
    public var zone: String?
    /// The content document (the keys of layout zones).
    public var document: JSONValue
    /// Where it was written (`programs[2]`, `programs[2].zones[1]`), for errors.
    public var path: String

    public init(zone: String?, document: JSONValue, path: String) {
      self.zone = zone
      self.document = document
      self.path = path
    }

    /// The same zone and content, wherever it was written.
    public static func == (a: Part, b: Part) -> Bool { a.zone == b.zone && a.document == b.document }
  }

  public var name: String
  /// Each zone's content.
  public var zones: [Part]
  /// When it is due; nil for a program that plays only as the default.
  public var when: Recurrence?
  /// How long its turn is when several are due.
  public var length: Length
  /// Whether it plays when no program is due.
  public var isDefault: Bool
  /// Which plays when programs overlap: only the due programs of the highest priority play
  /// (taking turns when several share it); the others wait until those end. 0 to 9, 0 by
  /// default, so programs without one take turns as they always did.
  public var priority = 0
  /// The program as it was written (config file or API), shown back by the API.
  public var source: JSONValue = .null

  public init(name: String, zones: [Part], when: Recurrence?, length: Length = .seconds(30), isDefault: Bool = false) {
    self.name = name
    self.zones = zones
    self.when = when
    self.length = length
    self.isDefault = isDefault
  }

  public static func == (a: Program, b: Program) -> Bool {
    a.name == b.name && a.when == b.when && a.length == b.length && a.isDefault == b.isDefault
      && a.zones == b.zones
  }
}

/// A brightness level from a time of day, or from sunrise or sunset with an offset.
public struct BrightnessPoint: Sendable, Equatable {
  public enum Moment: Sendable, Equatable {
    /// Minutes after midnight.
    case time(Int)
    case sunrise
    case sunset
  }

  public var at: Moment
  /// Minutes after (negative: before) the moment.
  public var offset: Int
  /// 0...15.
  public var level: Int

  public init(at: Moment, offset: Int = 0, level: Int) {
    self.at = at
    self.offset = offset
    self.level = level
  }

  /// When it takes effect on `date`, or nil (sunrise or sunset on a day without one).
  func instant(on date: LocalDate, location: Location?) -> Double? {
    switch at {
    case .time(let minute): return LocalTime.instant(of: date, minute: minute) + Double(offset) * 60
    // The sun's times to the minute: they are no more accurate than that.
    case .sunrise: return location.flatMap { SunTimes.sunrise(on: date, at: $0) }.map { ($0 / 60).rounded() * 60 + Double(offset) * 60 }
    case .sunset: return location.flatMap { SunTimes.sunset(on: date, at: $0) }.map { ($0 / 60).rounded() * 60 + Double(offset) * 60 }
    }
  }
}

/// What the schedule says at one instant.
public struct ScheduleState: Sendable, Equatable {
  /// The program playing: its turn among the programs due, or the default; nil when the
  /// sign has no programs.
  public var program: String?
  /// The programs due, in the order they were given (empty: the default plays).
  public var due: [String]
  /// The programs due that wait: a program of a higher priority is due with them.
  public var outranked: [String] = []
  /// The programs due that play, taking turns when there are several: those not outranked.
  public var takingTurns: [String] { due.filter { !outranked.contains($0) } }
  /// The brightness level (0...15) in force, nil without a brightness schedule.
  public var brightness: Int?
  /// Whether the sign is in an off period.
  public var off: Bool
  /// When any of this may next change: the state holds at least until then.
  public var nextChange: Double?
  /// Whether the program is held until the clock looks set (``SignSchedule/holdUntilClockSet``).
  public var holding = false
  /// Whether a person chose the program (``SchedulePump/choose(program:)``), until the next change.
  public var chosen = false
}

/// A sign's programs, brightness schedule and off periods. What plays, how bright and
/// whether the sign is on are a pure function of this and the time: ``state(at:length:)``.
public struct SignSchedule: Sendable, Equatable {
  public var programs: [Program]
  public var brightness: [BrightnessPoint]
  public var off: [Recurrence]
  public var location: Location?
  /// A program that plays, whatever the schedule says, until the wall clock looks set (a Pi
  /// booting without a real-time clock: its clock is wrong until NTP sets it), and only
  /// then. Config key `untilClockSet`.
  public var holdUntilClockSet: String?
  /// The brightness schedule and the off periods as written (config keys `brightness` and
  /// `off`), for showing and saving them.
  public var brightnessSource: [JSONValue] = []
  public var offSource: [JSONValue] = []

  public init(programs: [Program] = [], brightness: [BrightnessPoint] = [], off: [Recurrence] = [], location: Location? = nil) {
    self.programs = programs
    self.brightness = brightness
    self.off = off
    self.location = location
  }

  /// A program's turn in seconds when its content is not known: its `seconds`, or 30 s for
  /// `passes` (the sign, which knows how long a pass is, gives its own).
  public static func turnWithoutContent(_ program: Program) -> Double {
    if case .seconds(let seconds) = program.length { return seconds }
    return 30
  }

  /// How far around an instant the schedule looks, in days: back for what started before
  /// it (a window may start the day before and run past midnight), ahead for what comes.
  /// When nothing changes within the days ahead, the next change is reported as the end of
  /// that reach: the state holds at least until then, and is looked at again there.
  static let reachBack = 1, reachAhead = 2

  /// The state at Unix time `t`; `length` gives a program's turn in seconds (for
  /// `.passes`, the caller knows how long its content's pass is).
  public func state(at t: Double, length: (Program) -> Double = SignSchedule.turnWithoutContent) -> ScheduleState {
    let today = LocalTime.date(at: t).date
    return state(at: t, plan: SchedulePlan(self, from: today.adding(days: -SignSchedule.reachBack), through: today.adding(days: SignSchedule.reachAhead)), length: length)
  }

  /// The state at `t`, within the days `plan` covers.
  func state(at t: Double, plan: SchedulePlan, length: (Program) -> Double) -> ScheduleState {
    var due: [Program] = []
    for (program, intervals) in zip(programs, plan.programs) where SchedulePlan.contains(intervals, t) { due.append(program) }
    let off = plan.off.contains { SchedulePlan.contains($0, t) }
    let level = brightness.isEmpty ? nil : plan.level(at: t)
    var next = plan.boundary(after: t) ?? plan.end
    // The due programs of the highest priority play; several take turns in order, from the
    // last moment the set changed.
    let top = due.map(\.priority).max() ?? 0
    let turns = due.filter { $0.priority == top }
    var playing = turns.first ?? programs.first(where: { $0.isDefault && $0.name != holdUntilClockSet })
    if turns.count > 1 {
      let anchor = plan.boundary(atOrBefore: t) ?? t
      let lengths = turns.map { max(1, length($0)) }
      let round = lengths.reduce(0, +)
      var position = (t - anchor).truncatingRemainder(dividingBy: round)
      let roundStart = t - position
      var turnEnd = roundStart
      for (program, seconds) in zip(turns, lengths) {
        turnEnd += seconds
        if position < seconds {
          playing = program
          break
        }
        position -= seconds
      }
      next = min(next, turnEnd)
    }
    var state = ScheduleState(program: playing?.name, due: due.map(\.name), brightness: level, off: off, nextChange: next)
    state.outranked = due.filter { $0.priority != top }.map(\.name)
    return state
  }

  /// Each change of what the schedule says from `start` to `end`: the timeline
  /// `marquee schedule` prints.
  public func changes(from start: Double, to end: Double, length: (Program) -> Double = SignSchedule.turnWithoutContent) -> [(time: Double, state: ScheduleState)] {
    changes(from: start, to: end, length: length, looks: .max) ?? []
  }

  /// The same, looking at the schedule at most `looks` times: nil when that is not enough,
  /// known before the first look when the days hold more starts and ends than that.
  public func changes(from start: Double, to end: Double, length: (Program) -> Double, looks: Int) -> [(time: Double, state: ScheduleState)]? {
    let first = LocalTime.date(at: start).date.adding(days: -SignSchedule.reachBack)
    let plan = SchedulePlan(self, from: first, through: LocalTime.date(at: end).date.adding(days: SignSchedule.reachAhead))
    let inside = SchedulePlan.firstIndex(in: plan.boundaries.count) { plan.boundaries[$0] >= end }
      - SchedulePlan.firstIndex(in: plan.boundaries.count) { plan.boundaries[$0] >= start }
    if inside >= looks { return nil }
    var result: [(Double, ScheduleState)] = []
    var t = start
    var previous: ScheduleState?
    var looked = 0
    while t < end {
      guard looked < looks else { return nil }
      looked += 1
      let state = self.state(at: t, plan: plan, length: length)
      var shown = state
      shown.nextChange = nil
      if previous != shown { result.append((t, state)) }
      previous = shown
      guard let next = state.nextChange, next > t else { break }
      t = next
    }
    return result
  }
}

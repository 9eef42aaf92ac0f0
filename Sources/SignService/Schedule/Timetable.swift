/// The week ahead as a person checks it before going home (一周节目表): one entry per
/// change in local time, saying only what changes (the sign on or off, the program, the
/// brightness), and the nights the clocks change. `marquee schedule` prints it; `GET
/// /api/timetable` and the page show it.
public enum Timetable {
  /// One change.
  public struct Entry: Sendable, Equatable {
    /// When, as Unix time, and on which local day at which local time (`09:00`, or
    /// `09:00:30` for a change within a minute).
    public var time: Double
    public var day: LocalDate
    public var clock: String
    /// What changes.
    public var change: Change
  }

  /// What changes at an entry.
  public enum Change: Sendable, Equatable {
    /// The clocks change (daylight saving time): forward or back, from and to (`02:00`).
    case clocks(forward: Bool, from: String, to: String)
    /// The sign: `on` when it goes on or off (nil: unchanged), the program that starts
    /// (nil: unchanged), the brightness level (nil: unchanged).
    case sign(on: Bool?, program: ProgramChange?, brightness: Int?)
  }

  /// A program starting: one, the default (none due), or several due taking turns.
  public enum ProgramChange: Sendable, Equatable {
    case plays(String)
    case byDefault(String)
    case takeTurns([String])
  }

  /// The most work one timetable may take: looks at the schedule (each a look at every
  /// program, off period and brightness rule) times what each looks at. A schedule that
  /// changes more often than this allows in the days asked is refused (``TooBusy``), so a
  /// request can never hold the sign for seconds.
  public static let workLimit = 4_000_000

  /// A timetable that would take more than ``workLimit`` to work out.
  public struct TooBusy: Error, Sendable, Equatable, CustomStringConvertible {
    public var days: Int
    public var changes: Int
    public var description: String {
      "the schedule changes at least \(changes) times in \(days) day\(days == 1 ? "" : "s"), more than a timetable may list; ask for fewer days"
    }
  }

  /// The changes of `schedule` in `days` days from the start of `date`. Programs due
  /// together are named once (they take turns), so their turns cost nothing.
  ///
  /// - Throws: ``TooBusy`` past ``workLimit``.
  public static func entries(_ schedule: SignSchedule, from date: LocalDate, days: Int) throws(TooBusy) -> [Entry] {
    let start = LocalTime.instant(of: date, minute: 0), end = LocalTime.instant(of: date.adding(days: days), minute: 0)
    let cost = max(1, schedule.programs.count + schedule.off.count + schedule.brightness.count)
    let looks = max(1, workLimit / cost)
    let changes = schedule.changes(from: start, to: end, length: { _ in .infinity }, looks: looks)
    guard let changes else { throw TooBusy(days: days, changes: looks) }
    var events = changes.map { (time: $0.time, state: Optional($0.state), clocks: Change?.none) }
    for change in LocalTime.clockChanges(from: date, through: date.adding(days: days - 1)) {
      let clocks = Change.clocks(forward: change.after > change.before, from: TimeWindow.text(change.before + 1), to: TimeWindow.text(change.after))
      events.append((change.time, nil, clocks))
    }
    // A clock change first, then what happens at the same moment.
    events.sort { ($0.time, $0.clocks == nil ? 1 : 0) < ($1.time, $1.clocks == nil ? 1 : 0) }
    var entries: [Entry] = []
    var previous: ScheduleState?
    for (time, event, clocks) in events {
      if let clocks {
        // Said at the last minute of the old time: the minute that is skipped or repeated.
        let (day, minute) = LocalTime.date(at: time - 1)
        entries.append(Entry(time: time, day: day, clock: TimeWindow.text(minute + 1), change: clocks))
        continue
      }
      guard let state = event else { continue }
      var on: Bool?
      if previous?.off != state.off || previous == nil { on = !state.off }
      var program: ProgramChange?
      // Programs due together take turns: named once, not at every turn. One of a higher
      // priority plays alone: the ones it outranks are not named.
      let turns = state.takingTurns
      if previous?.due != state.due || (turns.count < 2 && previous?.program != state.program), let name = state.program {
        program = state.due.isEmpty ? .byDefault(name) : turns.count > 1 ? .takeTurns(turns) : .plays(name)
      }
      let brightness = previous?.brightness != state.brightness ? state.brightness : nil
      previous = state
      guard on != nil || program != nil || brightness != nil else { continue }
      let (day, minute) = LocalTime.date(at: time)
      let seconds = Int(time - LocalTime.instant(of: day, minute: minute))
      var clock = TimeWindow.text(minute)
      if seconds > 0 { clock += seconds < 10 ? ":0\(seconds)" : ":\(seconds)" }
      entries.append(Entry(time: time, day: day, clock: clock, change: .sign(on: on, program: program, brightness: brightness)))
    }
    return entries
  }
}

import SignService

/// `marquee schedule`: the timeline a person checks before going home, one line per change
/// in local time: which program plays (and which are due with it), the brightness, off
/// periods.
enum ScheduleListing {
  static func text(_ schedule: SignSchedule, from date: LocalDate, days: Int) -> String {
    let start = LocalTime.instant(of: date, minute: 0), end = LocalTime.instant(of: date.adding(days: days), minute: 0)
    var lines = ["Schedule from \(date) for \(days) day\(days == 1 ? "" : "s"), in local time:"]
    if let held = schedule.holdUntilClockSet {
      lines.append("Until the clock is set after a start: program \(held), lit (untilClockSet)")
    }
    var previous: ScheduleState?
    var events = schedule.changes(from: start, to: end).map { (time: $0.time, state: Optional($0.state), clocks: String?.none) }
    for change in LocalTime.clockChanges(from: date, through: date.adding(days: days - 1)) {
      let forward = change.after > change.before
      events.append((change.time, nil, "clocks go \(forward ? "forward" : "back") from \(TimeWindow.text(change.before + 1)) to \(TimeWindow.text(change.after))"))
    }
    // A clock change first, then what happens at the same moment.
    events.sort { ($0.time, $0.clocks == nil ? 1 : 0) < ($1.time, $1.clocks == nil ? 1 : 0) }
    for (time, event, clocks) in events {
      if let clocks {
        let (day, _) = LocalTime.date(at: time - 1)
        lines.append("\(day.weekday.rawValue.prefix(1).uppercased() + day.weekday.rawValue.dropFirst()) \(day) \(TimeWindow.text(LocalTime.date(at: time - 1).minute + 1))  \(clocks)")
        continue
      }
      guard let state = event else { continue }
      var parts: [String] = []
      if previous?.off != state.off || previous == nil { parts.append(state.off ? "off" : "on") }
      // Programs due together take turns: the listing names them once, not every turn.
      if previous?.due != state.due || (state.due.count < 2 && previous?.program != state.program), let program = state.program {
        var text = "program \(program)"
        if state.due.isEmpty { text += " (default)" } else if state.due.count > 1 { text = "programs \(state.due.joined(separator: ", ")) take turns" }
        parts.append(text)
      }
      if previous?.brightness != state.brightness, let level = state.brightness { parts.append("brightness \(level)") }
      previous = state
      guard !parts.isEmpty else { continue }
      let (day, minute) = LocalTime.date(at: time)
      let seconds = Int(time - LocalTime.instant(of: day, minute: minute))
      var clock = TimeWindow.text(minute)
      if seconds > 0 { clock += seconds < 10 ? ":0\(seconds)" : ":\(seconds)" }
      lines.append("\(day.weekday.rawValue.prefix(1).uppercased() + day.weekday.rawValue.dropFirst()) \(day) \(clock)  " + parts.joined(separator: ", "))
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

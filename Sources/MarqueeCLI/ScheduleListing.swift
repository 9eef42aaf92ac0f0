import SignService

/// `marquee schedule`: the timetable a person checks before going home, one line per
/// change in local time: which program plays (and which are due with it), the brightness,
/// off periods, the nights the clocks change.
enum ScheduleListing {
  ///
  /// - Throws: ``SignFailure`` for a schedule that changes too often to list in `days`.
  static func text(_ schedule: SignSchedule, from date: LocalDate, days: Int) throws(SignFailure) -> String {
    var lines = ["Schedule from \(date) for \(days) day\(days == 1 ? "" : "s"), in local time:"]
    if let held = schedule.holdUntilClockSet {
      lines.append("Until the clock is set after a start: program \(held), lit (untilClockSet)")
    }
    let entries: [Timetable.Entry]
    do {
      entries = try Timetable.entries(schedule, from: date, days: days)
    } catch {
      throw SignFailure("\(error) ('--days')")
    }
    for entry in entries {
      let weekday = entry.day.weekday.rawValue.prefix(1).uppercased() + entry.day.weekday.rawValue.dropFirst()
      var parts: [String] = []
      switch entry.change {
      case .clocks(let forward, let from, let to):
        parts.append("clocks go \(forward ? "forward" : "back") from \(from) to \(to)")
      case .sign(let on, let program, let brightness):
        if let on { parts.append(on ? "on" : "off") }
        switch program {
        case .plays(let name)?: parts.append("program \(name)")
        case .byDefault(let name)?: parts.append("program \(name) (default)")
        case .takeTurns(let names)?: parts.append("programs \(names.joined(separator: ", ")) take turns")
        case nil: break
        }
        if let brightness { parts.append("brightness \(brightness)") }
      }
      lines.append("\(weekday) \(entry.day) \(entry.clock)  " + parts.joined(separator: ", "))
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

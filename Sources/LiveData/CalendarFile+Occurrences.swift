extension CalendarFile {
  /// The occurrences of the events that overlap `from..<to` (UTC seconds), in order of
  /// start: named zones read by `zone` (a TZID that is not found is read as the sign's
  /// own), floating times and whole days in `local`, the sign's zone.
  public func occurrences(from: Double, to: Double, zone: (String) -> TimeZoneRules?, local: TimeZoneRules) -> [Occurrence] {
    func utc(_ moment: Moment) -> Double {
      switch moment {
      case .utc(let seconds): return Double(seconds)
      case .date(let year, let month, let day): return Double(local.utc(fromLocal: Int64(CivilDate.days(year: year, month: month, day: day)) * 86_400))
      case .local(let year, let month, let day, let seconds, let name):
        let rules = name.flatMap(zone) ?? local
        return Double(rules.utc(fromLocal: Int64(CivilDate.days(year: year, month: month, day: day)) * 86_400 + Int64(seconds)))
      }
    }
    // The instances overridden by an event of their own (RECURRENCE-ID), by UID.
    var overridden: [String: Set<Double>] = [:]
    for event in events { if let id = event.recurrenceID { overridden[event.uid, default: []].insert(utc(id)) } }
    var found: [Occurrence] = []
    for event in events {
      guard let start = event.start, !event.cancelled else { continue }
      let allDay: Bool
      if case .date = start { allDay = true } else { allDay = false }
      let length: Double = event.end.map { utc($0) - utc(start) } ?? event.duration.map(Double.init) ?? (allDay ? 86_400 : 0)
      let starts = event.recurrenceID == nil ? CalendarFile.starts(of: event, before: to, utc: utc) : [start]
      let skipped = Set(event.exceptions.map(utc)).union(event.recurrenceID == nil ? overridden[event.uid] ?? [] : [])
      for moment in starts {
        let begin = utc(moment)
        guard !skipped.contains(begin) else { continue }
        // A whole day lasts until the next local midnight, whatever its length.
        var end = begin + max(0, length)
        if allDay, case .date(let year, let month, let day) = moment {
          let days = max(1, Int((length / 86_400).rounded()))
          let next = CivilDate(year: year, month: month, day: day).adding(days: days)
          end = utc(.date(year: next.year, month: next.month, day: next.day))
        }
        let overlaps = begin < to && (end > from || (end == begin && begin >= from))
        if overlaps { found.append(Occurrence(summary: event.summary, start: begin, end: end, allDay: allDay)) }
      }
    }
    return found.sorted { ($0.start, $0.allDay ? 0 : 1, $0.summary) < ($1.start, $1.allDay ? 0 : 1, $1.summary) }
  }

  /// The starts of `event` in order, from its DTSTART while they begin before `limit`,
  /// within its COUNT and UNTIL.
  static func starts(of event: Event, before limit: Double, utc: (Moment) -> Double) -> [Moment] {
    guard let start = event.start else { return [] }
    guard let rule = event.rule else { return [start] }
    let base: CivilDate, seconds: Int
    func moment(_ date: CivilDate) -> Moment {
      switch start {
      case .date: return .date(year: date.year, month: date.month, day: date.day)
      case .local(_, _, _, let time, let zone): return .local(year: date.year, month: date.month, day: date.day, seconds: time, zone: zone)
      case .utc: return .utc(Int64(date.days) * 86_400 + Int64(seconds))
      }
    }
    switch start {
    case .date(let year, let month, let day): (base, seconds) = (CivilDate(year: year, month: month, day: day), 0)
    case .local(let year, let month, let day, let time, _): (base, seconds) = (CivilDate(year: year, month: month, day: day), time)
    case .utc(let time): (base, seconds) = (CivilDate(days: Int(time.dividedRoundingDown(86_400))), Int(time.modulo(86_400)))
    }
    let until = rule.until.map(utc)
    var result: [Moment] = []
    var emitted = 0
    var steps = 0
    func monthDays(_ year: Int, _ month: Int) -> [Int] {
      let length = CivilDate.daysInMonth(year: year, month: month)
      var days: [Int] = []
      if !rule.byMonthDay.isEmpty {
        days = rule.byMonthDay.compactMap { $0 > 0 ? ($0 <= length ? $0 : nil) : (length + 1 + $0 >= 1 ? length + 1 + $0 : nil) }
      } else if !rule.byDay.isEmpty {
        for (ordinal, weekday) in rule.byDay {
          let matching = (1...length).filter { CivilDate(year: year, month: month, day: $0).weekday == weekday }
          if ordinal == 0 { days += matching } else if ordinal > 0, ordinal <= matching.count { days.append(matching[ordinal - 1]) } else if ordinal < 0, -ordinal <= matching.count {
            days.append(matching[matching.count + ordinal])
          }
        }
      } else if base.day <= length {
        days = [base.day]
      }
      return Array(Set(days)).sorted()
    }
    period: for k in 0... {
      steps += 1
      guard steps <= maximumSteps else { break }
      var candidates: [CivilDate] = []
      switch rule.frequency {
      case "DAILY":
        let date = base.adding(days: k * rule.interval)
        let dayMatches = rule.byDay.isEmpty || rule.byDay.contains { $0.weekday == date.weekday }
        let monthDayMatches = rule.byMonthDay.isEmpty || rule.byMonthDay.contains(date.day)
        if dayMatches && monthDayMatches { candidates = [date] }
      case "WEEKLY":
        // Weeks start on Monday (WKST's default).
        let weekStart = base.adding(days: -((base.weekday + 6) % 7) + 7 * k * rule.interval)
        let weekdays = rule.byDay.isEmpty ? [base.weekday] : rule.byDay.map(\.weekday)
        candidates = Set(weekdays).map { weekStart.adding(days: ($0 + 6) % 7) }.sorted()
      case "MONTHLY":
        let index = base.year * 12 + base.month - 1 + k * rule.interval
        let (year, month) = (index.dividedRoundingDown(12), index.modulo(12) + 1)
        candidates = monthDays(year, month).map { CivilDate(year: year, month: month, day: $0) }
      default:
        let year = base.year + k * rule.interval
        let months = rule.byMonth.isEmpty ? [base.month] : rule.byMonth.sorted()
        for month in months where (1...12).contains(month) {
          if rule.byMonthDay.isEmpty && rule.byDay.isEmpty {
            if base.day <= CivilDate.daysInMonth(year: year, month: month) { candidates.append(CivilDate(year: year, month: month, day: base.day)) }
          } else {
            candidates += monthDays(year, month).map { CivilDate(year: year, month: month, day: $0) }
          }
        }
      }
      if rule.frequency != "YEARLY" && !rule.byMonth.isEmpty { candidates = candidates.filter { rule.byMonth.contains($0.month) } }
      for date in candidates where date >= base {
        let instance = moment(date)
        let begin = utc(instance)
        if let until, begin > until { break period }
        if let count = rule.count, emitted >= count { break period }
        if begin >= limit { break period }
        emitted += 1
        result.append(instance)
      }
      // A period past the limit ends the search even when it had no candidate.
      let periodStart: CivilDate
      switch rule.frequency {
      case "DAILY": periodStart = base.adding(days: k * rule.interval)
      case "WEEKLY": periodStart = base.adding(days: 7 * k * rule.interval - 7)
      case "MONTHLY": periodStart = CivilDate(year: base.year, month: 1, day: 1).adding(months: (base.month - 1) + k * rule.interval - 1) ?? base
      default: periodStart = CivilDate(year: base.year + k * rule.interval - 1, month: 1, day: 1)
      }
      if utc(moment(periodStart)) >= limit + 86_400 * 2 { break }
    }
    return result
  }
}

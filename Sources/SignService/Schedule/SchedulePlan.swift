/// What a schedule says over a stretch of days, worked out once: each program's and off
/// period's intervals, the brightness points, and every moment something starts or ends,
/// sorted. A look at an instant within the stretch is then a few searches, not a walk over
/// its days, so listing a month of a busy schedule costs the changes it has, not the
/// changes times the programs times the days.
struct SchedulePlan {
  /// Each program's intervals (parallel to the schedule's programs; none for a program
  /// held until the clock is set, or one without a recurrence), sorted by start.
  var programs: [[Range<Double>]]
  /// Each off period's intervals, sorted by start.
  var off: [[Range<Double>]]
  /// The brightness points, sorted by time.
  var points: [(at: Double, level: Int)]
  /// Every start and end, sorted, each once.
  var boundaries: [Double]
  /// The end of the stretch: a state holds at least until then.
  var end: Double

  /// The plan of `schedule` for the days `first` through `last`.
  init(_ schedule: SignSchedule, from first: LocalDate, through last: LocalDate) {
    var boundaries: [Double] = []
    programs = schedule.programs.map { program in
      guard program.name != schedule.holdUntilClockSet, let when = program.when else { return [] }
      let intervals = when.intervals(from: first, through: last).sorted { $0.lowerBound < $1.lowerBound }
      for interval in intervals { boundaries += [interval.lowerBound, interval.upperBound] }
      return intervals
    }
    off = schedule.off.map { period in
      let intervals = period.intervals(from: first, through: last).sorted { $0.lowerBound < $1.lowerBound }
      for interval in intervals { boundaries += [interval.lowerBound, interval.upperBound] }
      return intervals
    }
    var points: [(at: Double, level: Int)] = []
    if !schedule.brightness.isEmpty {
      var date = first
      while date <= last {
        for point in schedule.brightness { if let at = point.instant(on: date, location: schedule.location) { points.append((at, point.level)) } }
        date = date.adding(days: 1)
      }
      points.sort { $0.at < $1.at }
      boundaries += points.map(\.at)
    }
    self.points = points
    boundaries.sort()
    var unique: [Double] = []
    unique.reserveCapacity(boundaries.count)
    for boundary in boundaries where unique.last != boundary { unique.append(boundary) }
    self.boundaries = unique
    end = LocalTime.instant(of: last.adding(days: 1), minute: 0)
  }

  /// The first boundary after `t`, or nil.
  func boundary(after t: Double) -> Double? {
    let index = SchedulePlan.firstIndex(in: boundaries.count) { boundaries[$0] > t }
    return index < boundaries.count ? boundaries[index] : nil
  }

  /// The last boundary at or before `t`, or nil.
  func boundary(atOrBefore t: Double) -> Double? {
    let index = SchedulePlan.firstIndex(in: boundaries.count) { boundaries[$0] > t }
    return index > 0 ? boundaries[index - 1] : nil
  }

  /// The brightness level in force at `t`: the last point at or before it (before the first,
  /// the stretch's last, as the evening before sets the night).
  func level(at t: Double) -> Int? {
    let index = SchedulePlan.firstIndex(in: points.count) { points[$0].at > t }
    return index > 0 ? points[index - 1].level : points.last?.level
  }

  /// Whether one of `intervals` (sorted by start, none longer than two days) holds `t`.
  static func contains(_ intervals: [Range<Double>], _ t: Double) -> Bool {
    var index = firstIndex(in: intervals.count) { intervals[$0].lowerBound > t } - 1
    while index >= 0, intervals[index].lowerBound > t - 2 * 86_400 {
      if intervals[index].contains(t) { return true }
      index -= 1
    }
    return false
  }

  /// The first index in `0..<count` at which `isPast` holds (it holds for every later one),
  /// or `count`.
  static func firstIndex(in count: Int, _ isPast: (Int) -> Bool) -> Int {
    var low = 0, high = count
    while low < high {
      let middle = (low + high) / 2
      if isPast(middle) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}

/// The next departures at a stop: the static timetable's calls on the service days around
/// now, moved by the realtime feed's predictions (or its delays), canceled trips and
/// skipped stops left out, and trips the feed adds put in.
public enum DepartureBoard {
  /// A service day: its date (`YYYYMMDD`), weekday (0 Monday) and the Unix time its
  /// timetable's times count from (noon minus 12 hours, local time).
  public struct ServiceDay: Sendable, Equatable {
    public var date: Int
    public var weekday: Int
    public var start: Double
    public init(date: Int, weekday: Int, start: Double) { (self.date, self.weekday, self.start) = (date, weekday, start) }
  }

  /// One departure.
  public struct Departure: Sendable, Equatable {
    public var route: String
    public var headsign: String
    /// Unix time.
    public var time: Double
    /// Seconds late by the realtime feed (0 on time, nil when it says nothing).
    public var delay: Int?
  }

  /// The first `count` departures at or after `now` (30 s of grace for one leaving now).
  public static func departures(
    schedule: GTFSSchedule?, realtime: GTFSRealtimeFeed?, stop: String, now: Double, days: [ServiceDay], count: Int
  ) -> [Departure] {
    var byTrip: [String: [GTFSRealtimeFeed.TripUpdate]] = [:]
    for update in realtime?.tripUpdates ?? [] { if let id = update.tripID { byTrip[id, default: []].append(update) } }
    let stops = schedule?.stopIDs ?? [stop]
    var found: [Departure] = []
    var seen: Set<String> = []
    for day in days {
      for call in schedule?.calls ?? [] {
        guard let trip = schedule?.trip(call.tripID), schedule?.runs(trip.service, on: day.date, weekday: day.weekday) == true else { continue }
        let scheduled = day.start + Double(call.departure)
        let update = byTrip[call.tripID]?.first { $0.startDate.flatMap(Int.init) == nil || $0.startDate.flatMap(Int.init) == day.date }
        var time = scheduled
        var delay: Int?
        if let update {
          seen.insert(call.tripID)
          if update.canceled { continue }
          if let own = update.stopTimes.first(where: { $0.stopID.map(stops.contains) ?? ($0.stopSequence == call.stopSequence) }) {
            if own.skipped { continue }
            delay = own.departureDelay ?? own.arrivalDelay
            if let predicted = own.departure ?? own.arrival {
              time = Double(predicted)
              delay = delay ?? Int(time - scheduled)
            } else {
              time = scheduled + Double(delay ?? update.delay ?? 0)
            }
          } else {
            // No word for this stop: the delay of the last stop before it carries on.
            let before = update.stopTimes.filter { ($0.stopSequence ?? Int.max) <= call.stopSequence }.last
            delay = before?.departureDelay ?? before?.arrivalDelay ?? update.delay
            time = scheduled + Double(delay ?? 0)
          }
        }
        found.append(Departure(route: schedule?.routeName(trip.route) ?? trip.route, headsign: trip.headsign, time: time, delay: delay))
      }
    }
    // Trips the realtime feed adds (not in the timetable) that call here.
    for update in realtime?.tripUpdates ?? [] where !update.canceled && !(update.tripID.map(seen.contains) ?? false) {
      if let id = update.tripID, schedule?.trip(id) != nil { continue }
      guard let own = update.stopTimes.first(where: { $0.stopID.map(stops.contains) ?? false }), !own.skipped,
        let predicted = own.departure ?? own.arrival
      else { continue }
      let route = update.routeID.map { schedule?.routeName($0) ?? $0 } ?? ""
      found.append(Departure(route: route, headsign: "", time: Double(predicted), delay: own.departureDelay ?? own.arrivalDelay))
    }
    return Array(found.filter { $0.time >= now - 30 }.sorted { $0.time < $1.time }.prefix(count))
  }

  /// A departure written by `format`: `{route}`, `{headsign}`, `{minutes}` (whole minutes
  /// until it leaves, 0 at least), `{time}` (its local `HH:MM`, by `clock`), `{delay}`
  /// (whole minutes late, 0 without word); other text as written.
  public static func text(_ departure: Departure, format: String, now: Double, clock: (Double) -> String) -> String {
    let minutes = max(0, Int(((departure.time - now) / 60).rounded(.down)))
    var text = format
    for (name, value) in [
      ("{route}", departure.route), ("{headsign}", departure.headsign), ("{minutes}", String(minutes)),
      ("{time}", clock(departure.time)), ("{delay}", String(max(0, (departure.delay ?? 0) / 60))),
    ] {
      text = text.replacing(name, with: value)
    }
    return text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
  }
}

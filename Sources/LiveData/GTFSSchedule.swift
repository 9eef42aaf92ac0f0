/// The part of a static GTFS feed (its zip: stops, routes, trips, stop times, calendars) a
/// departure board at one stop needs: only the stop times at that stop (or at the platforms
/// whose parent it is) are kept, so a large agency's feed fits a small board's memory.
public struct GTFSSchedule: Sendable {
  /// A trip's scheduled call at the stop.
  public struct Call: Sendable, Equatable {
    public var tripID: String
    /// Seconds after the service day's noon minus 12 hours (past 24:00 for trips after midnight).
    public var departure: Int
    public var stopSequence: Int
    public var stopID: String
  }

  /// The stop and its platforms.
  public let stopIDs: Set<String>
  /// The stop's name, if the feed has it.
  public let stopName: String?
  public let calls: [Call]
  /// trip_id: (route_id, headsign, service_id).
  let trips: [String: (route: String, headsign: String, service: String)]
  /// route_id: the name a board shows (short name, else long name).
  let routes: [String: String]
  /// service_id: (weekdays Monday first, start YYYYMMDD, end YYYYMMDD).
  let calendars: [String: (days: [Bool], start: Int, end: Int)]
  /// service_id: date YYYYMMDD → added (true) or removed (false).
  let exceptions: [String: [Int: Bool]]

  /// The largest file of the zip read.
  public static let fileLimit = 256 << 20

  /// Reads the feed in `zip` for `stop`.
  ///
  /// - Throws: ``ZipArchive/Unreadable`` for an archive that cannot be read, ``LiveSource/Unreadable``
  ///   for a feed without stop times or without the stop.
  public init(zip: [UInt8], stop: String) throws {
    let archive = try ZipArchive(zip)
    func file(_ name: String, required: Bool = true) throws -> [UInt8] {
      guard let entry = archive.entry(name) else {
        if required { throw LiveSource.Unreadable("the GTFS feed has no \(name)") }
        return []
      }
      return try archive.content(of: entry, limit: GTFSSchedule.fileLimit)
    }
    var stopIDs: Set<String> = [stop]
    var stopName: String?
    CSVReader.rows(try file("stops.txt"), columns: ["stop_id", "stop_name", "parent_station"]) { row in
      if row[0] == stop { stopName = row[1] }
      if row[2] == stop { stopIDs.insert(row[0]) }
      return true
    }
    guard stopName != nil || stopIDs.count > 1 else { throw LiveSource.Unreadable("the GTFS feed has no stop \(stop) in stops.txt") }
    var calls: [Call] = []
    CSVReader.rows(try file("stop_times.txt"), columns: ["trip_id", "departure_time", "arrival_time", "stop_id", "stop_sequence"]) { row in
      guard stopIDs.contains(row[3]), let time = GTFSSchedule.seconds(row[1].isEmpty ? row[2] : row[1]) else { return true }
      calls.append(Call(tripID: row[0], departure: time, stopSequence: Int(row[4]) ?? 0, stopID: row[3]))
      return true
    }
    let wanted = Set(calls.map(\.tripID))
    var trips: [String: (String, String, String)] = [:]
    CSVReader.rows(try file("trips.txt"), columns: ["trip_id", "route_id", "trip_headsign", "service_id"]) { row in
      if wanted.contains(row[0]) { trips[row[0]] = (row[1], row[2], row[3]) }
      return true
    }
    var routes: [String: String] = [:]
    CSVReader.rows(try file("routes.txt"), columns: ["route_id", "route_short_name", "route_long_name"]) { row in
      routes[row[0]] = row[1].isEmpty ? (row[2].isEmpty ? row[0] : row[2]) : row[1]
      return true
    }
    var calendars: [String: ([Bool], Int, Int)] = [:]
    CSVReader.rows(
      try file("calendar.txt", required: false),
      columns: ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"]
    ) { row in
      calendars[row[0]] = (row[1...7].map { $0 == "1" }, Int(row[8]) ?? 0, Int(row[9]) ?? 99_999_999)
      return true
    }
    var exceptions: [String: [Int: Bool]] = [:]
    CSVReader.rows(try file("calendar_dates.txt", required: false), columns: ["service_id", "date", "exception_type"]) { row in
      if let date = Int(row[1]) { exceptions[row[0], default: [:]][date] = row[2] == "1" }
      return true
    }
    (self.stopIDs, self.stopName, self.calls, self.trips, self.routes, self.calendars, self.exceptions) =
      (stopIDs, stopName, calls.sorted { $0.departure < $1.departure }, trips, routes, calendars, exceptions)
  }

  /// `HH:MM:SS` (hours may pass 24) as seconds, or nil.
  static func seconds(_ text: String) -> Int? {
    let parts = text.split(separator: ":").map { Int($0.drop { $0 == " " }) }
    guard parts.count == 3, let hours = parts[0], let minutes = parts[1], let seconds = parts[2], hours >= 0, (0..<60).contains(minutes), (0..<61).contains(seconds)
    else { return nil }
    return hours * 3600 + minutes * 60 + seconds
  }

  /// Whether `service` runs on `date` (YYYYMMDD), whose weekday is `weekday` (0 Monday).
  func runs(_ service: String, on date: Int, weekday: Int) -> Bool {
    if let exception = exceptions[service]?[date] { return exception }
    guard let calendar = calendars[service] else { return false }
    return calendar.start <= date && date <= calendar.end && calendar.days[weekday]
  }

  /// The route's name and the headsign of `trip`, and its service.
  func trip(_ id: String) -> (route: String, headsign: String, service: String)? { trips[id] }

  /// A route's name as a board shows it.
  func routeName(_ id: String) -> String { routes[id] ?? id }
}

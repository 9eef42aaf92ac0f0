import Foundation
import LiveData
import SimpleJSON
import TestSupport
import Testing

/// GTFS as other people write it: realtime feeds made by Google's gtfs-realtime-bindings
/// and decoded by marquee, and the GTFS reference's sample feed zipped by Python's zipfile
/// (`gtfs_feeds.py`, with the venv `.ci/run` makes), read as a departure board at a stop.
@Suite(.offThePool) struct GTFSTests {
  static let python = PythonTools.python(
    [ProcessInfo.processInfo.environment["MARQUEE_SOURCES_PYTHON"], ".build/venv-sources/bin/python"], importing: "google.transit.gtfs_realtime_pb2")
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("gtfs_feeds.py").path

  /// The bytes `gtfs_feeds.py KIND` writes, given `input`.
  static func written(_ kind: String, input: String = "") throws -> [UInt8] {
    let python = try #require(python)
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-gtfs-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    let result = try ChildProcess.run(python, [script, kind, out], input: Data(input.utf8))
    #expect(result.status == 0, "\(result.stderr)")
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
  }

  @Test(.enabled(if: python != nil, "needs gtfs-realtime-bindings from PyPI in .build/venv-sources (.ci/run installs it)"))
  func feedsTheBindingsWriteDecode() throws {
    let description = #"""
      {"timestamp": 1796457600, "trips": [
        {"trip_id": "AB1", "route_id": "AB", "start_date": "20261205", "delay": -30,
         "stops": [{"stop_sequence": 1, "stop_id": "BEATTY_AIRPORT", "arrival": {"time": 1796457900}, "departure": {"time": 1796458020, "delay": 120}},
                   {"stop_sequence": 2, "stop_id": "BULLFROG", "skipped": true}]},
        {"trip_id": "BFC1", "canceled": true},
        {"route_id": "CITY", "stops": [{"stop_id": "STAGECOACH", "departure": {"time": 9223372036854775807}}]},
        {"trip_id": "长途", "stops": [{"stop_sequence": 4294967295, "arrival": {"delay": -2147483648}}]}]}
      """#
    let feed = try GTFSRealtimeFeed(try GTFSTests.written("realtime", input: description))
    #expect(feed.timestamp == 1_796_457_600)
    #expect(feed.tripUpdates.count == 4)
    let first = feed.tripUpdates[0]
    #expect(first.tripID == "AB1" && first.routeID == "AB" && first.startDate == "20261205" && first.delay == -30 && !first.canceled)
    #expect(first.stopTimes == [
      .init(stopSequence: 1, stopID: "BEATTY_AIRPORT", arrival: 1_796_457_900, departure: 1_796_458_020, departureDelay: 120),
      .init(stopSequence: 2, stopID: "BULLFROG", skipped: true),
    ])
    #expect(feed.tripUpdates[1].tripID == "BFC1" && feed.tripUpdates[1].canceled)
    #expect(feed.tripUpdates[2].tripID == nil && feed.tripUpdates[2].routeID == "CITY" && feed.tripUpdates[2].stopTimes[0].departure == Int64.max)
    #expect(feed.tripUpdates[3].tripID == "长途" && feed.tripUpdates[3].stopTimes[0].stopSequence == 4_294_967_295
      && feed.tripUpdates[3].stopTimes[0].arrivalDelay == Int(Int32.min))
    // Damaged feeds are refused, never read past their end.
    var bytes = try GTFSTests.written("realtime", input: description)
    for cut in stride(from: 1, to: bytes.count, by: 7) { _ = try? GTFSRealtimeFeed(Array(bytes.prefix(cut))) }
    bytes[0] = 0xFF
    #expect(throws: ProtobufReader.Malformed.self) { try GTFSRealtimeFeed(bytes + [0xFF]) }
  }

  @Test(.enabled(if: python != nil, "needs gtfs-realtime-bindings from PyPI in .build/venv-sources (.ci/run installs it)"))
  func theSampleFeedIsADepartureBoard() throws {
    let zip = try GTFSTests.written("static")
    let schedule = try GTFSSchedule(zip: zip, stop: "BULLFROG")
    #expect(schedule.stopName == "Bullfrog (Demo)")
    #expect(schedule.calls.map(\.tripID) == ["AB1", "BFC1", "BFC2", "AB2"], "stop_times.txt sits in a folder of the zip")
    #expect(schedule.calls.map(\.departure) == [8 * 3600 + 15 * 60, 8 * 3600 + 20 * 60, 12 * 3600, 12 * 3600 + 5 * 60])
    // Saturday 2026-12-05, its timetable counting from t0; the board at 08:00.
    let t0 = 1_796_400_000.0
    let day = DepartureBoard.ServiceDay(date: 20_261_205, weekday: 5, start: t0)
    let now = t0 + 8 * 3600
    func board(_ updates: String, count: Int = 3) throws -> [String] {
      let realtime = try GTFSRealtimeFeed(try GTFSTests.written("realtime", input: updates))
      return DepartureBoard.departures(schedule: schedule, realtime: realtime, stop: "BULLFROG", now: now, days: [day], count: count)
        .map { DepartureBoard.text($0, format: LiveSource.departureFormat + " ({delay} late)", now: now, clock: { _ in "" }) }
    }
    // The timetable alone.
    #expect(try board(#"{"trips": []}"#) == ["10 to Bullfrog 15 min (0 late)", "20 to Furnace Creek Resort 20 min (0 late)", "20 to Bullfrog 240 min (0 late)"])
    // AB1 two minutes late at Bullfrog, BFC1 canceled, a trip the feed adds on route 40.
    let moved = #"""
      {"trips": [{"trip_id": "AB1", "stops": [{"stop_id": "BULLFROG", "departure": {"delay": 120}}]},
                 {"trip_id": "BFC1", "canceled": true},
                 {"trip_id": "EXTRA", "route_id": "CITY", "stops": [{"stop_id": "BULLFROG", "departure": {"time": 1796430600}}]}]}
      """#
    #expect(try board(moved) == ["10 to Bullfrog 17 min (2 late)", "40 30 min (0 late)", "20 to Bullfrog 240 min (0 late)"])
    // A delay given at the first stop carries on to Bullfrog; a skipped stop drops the trip.
    let carried = #"""
      {"trips": [{"trip_id": "AB1", "stops": [{"stop_sequence": 1, "departure": {"delay": 300}}]},
                 {"trip_id": "BFC1", "stops": [{"stop_id": "BULLFROG", "skipped": true}]}]}
      """#
    #expect(try board(carried, count: 2) == ["10 to Bullfrog 20 min (5 late)", "20 to Bullfrog 240 min (0 late)"])
    // The day the calendar removes the service (calendar_dates.txt): nothing runs.
    let removed = DepartureBoard.ServiceDay(date: 20_070_604, weekday: 0, start: t0)
    #expect(DepartureBoard.departures(schedule: schedule, realtime: nil, stop: "BULLFROG", now: now, days: [removed], count: 3).isEmpty)
  }

  @Test(.enabled(if: python != nil, "needs gtfs-realtime-bindings from PyPI in .build/venv-sources (.ci/run installs it)"))
  func aDamagedOrHugeArchiveIsRefused() throws {
    let zip = try GTFSTests.written("static")
    #expect(throws: (any Error).self) { try GTFSSchedule(zip: Array(zip.prefix(zip.count / 2)), stop: "BULLFROG") }
    // A byte of stops.txt's deflated data changed: its CRC-32 (or the stream) says so.
    var flipped = zip
    let name = try #require(zip.firstRange(of: Array("stops.txt".utf8)))
    flipped[name.upperBound + 12] ^= 0x55
    #expect(throws: (any Error).self) { try GTFSSchedule(zip: flipped, stop: "BULLFROG") }
    #expect(throws: (any Error).self) { try GTFSSchedule(zip: zip, stop: "NOWHERE") }
    let archive = try ZipArchive(zip)
    let stops = try #require(archive.entry("stops.txt"))
    #expect(throws: ZipArchive.Unreadable.self) { try archive.content(of: stops, limit: 100) }
  }
}

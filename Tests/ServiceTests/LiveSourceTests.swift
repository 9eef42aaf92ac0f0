import Foundation
import LiveData
import Marquee
import Platform
import SignService
import SimpleJSON
import Synchronization
import TestSupport
import Testing

/// A sign's live data sources: a departure board whose server changes shows the new minutes,
/// falls back when the server fails for longer than the source's lifetime, and comes back;
/// what the config or the API names wrongly is refused where it is written.
@Suite(.offThePool) struct LiveSourceTests {
  typealias Folder = SignSessionTests.Folder

  /// A session built from the config `text`, written to a file in `folder`.
  static func session(_ text: String, in folder: Folder, stop: StopFlag = StopFlag()) throws -> SignSession {
    let path = folder.path + "/sign.json"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    var options = try ConfigFile.load(path).options
    options.width = 64
    return try SignSession(options, stop: stop, reports: .inMemory())
  }

  /// What the first zone's messages show now, and the first source's state.
  static func look(_ session: SignSession) -> (showing: [String], source: JSONValue?) {
    let state = session.state()
    var showing: [String] = []
    if case .array(let zones)? = state["zones"], case .array(let messages)? = zones.first?["showing"] {
      showing = messages.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
    if case .array(let sources)? = state["sources"] { return (showing, sources.first) }
    return (showing, nil)
  }

  @Test func aDepartureBoardShowsTheNewMinutesFallsBackAndComesBack() throws {
    let board = Mutex<(body: String, failing: Bool)>((#"{"departures": ["7 Airport 2 min", "12 Harbour 9 min"]}"#, false))
    let server = try #require(ScriptedHTTPServer { _ in
      let (body, failing) = board.withLock { ($0.body, $0.failing) }
      return failing ? .status(500, "down") : .status(200, body, headers: [("Content-Type", "application/json")])
    })
    defer { server.stop() }
    let folder = try Folder()
    let stop = StopFlag()
    let session = try LiveSourceTests.session("""
      {"sources": [{"name": "bus", "url": "\(server.url("/stop/S1.json"))", "every": 1, "json": "/departures",
                    "lifetime": 2, "fallback": ["到站信息暂缺"]}],
       "mode": "cycle", "messages": ["{source:bus}"]}
      """, in: folder, stop: stop)
    session.start()
    defer { stop.set() }
    #expect(eventually { LiveSourceTests.look(session).showing == ["7 Airport 2 min", "12 Harbour 9 min"] })
    #expect(eventually { SignSessionTests.shown(session) == ["7 Airport 2 min", "12 Harbour 9 min"] }, "the LEDs show the departures")
    // The server's board moves on: the sign's next frames show the new minutes.
    board.withLock { $0.body = #"{"departures": ["7 Airport 1 min", "12 Harbour 8 min", "3 Old Town 15 min"]}"# }
    #expect(eventually { SignSessionTests.shown(session) == ["7 Airport 1 min", "12 Harbour 8 min", "3 Old Town 15 min"] })
    // The server fails: the state says so at once, and after the lifetime the fallback shows.
    board.withLock { $0.failing = true }
    #expect(eventually { LiveSourceTests.look(session).source?["lastError"].map { "\($0)".contains("answered 500") } == true })
    #expect(eventually { SignSessionTests.shown(session) == ["到站信息暂缺"] && LiveSourceTests.look(session).source?["stale"] == .bool(true) })
    // It comes back: the departures again, and the source fresh.
    board.withLock { $0.failing = false }
    #expect(eventually { SignSessionTests.shown(session) == ["7 Airport 1 min", "12 Harbour 8 min", "3 Old Town 15 min"] })
    #expect(LiveSourceTests.look(session).source?["stale"] == .bool(false))
  }

  @Test func aValueFillsItsPlaceInAMessage() throws {
    let server = try #require(ScriptedHTTPServer { _ in .status(200, #"{"current": {"temperature_2m": 3.25}}"#) })
    defer { server.stop() }
    let folder = try Folder()
    let stop = StopFlag()
    let session = try LiveSourceTests.session("""
      {"sources": [{"name": "weather", "url": "\(server.url("/f.json"))", "every": 600, "json": "current.temperature_2m", "format": "{0:.1f}°C"}],
       "messages": ["Outside {source:weather|…}"]}
      """, in: folder, stop: stop)
    #expect(LiveSourceTests.look(session).showing == ["Outside …"], "the placeholder's default until the first fetch")
    session.start()
    defer { stop.set() }
    #expect(eventually { LiveSourceTests.look(session).showing == ["Outside 3.2°C"] })
  }

  @Test(arguments: [
    (#"{"sources": [{"name": "a", "url": "http://x/", "every": 0, "text": {}}]}"#, "sources[0].every"),
    (#"{"sources": [{"name": "a b", "url": "http://x/", "text": {}}]}"#, "sources[0].name"),
    (#"{"sources": [{"name": "a", "url": "ftp://x/", "text": {}}]}"#, "sources[0].url"),
    (#"{"sources": [{"name": "a", "url": "http://x/", "json": "/a", "rss": {}}]}"#, "give one of json, rss"),
    (#"{"sources": [{"name": "a", "url": "http://x/", "json": "/a", "format": "{0:.1x}"}]}"#, "sources[0].format"),
    (#"{"sources": [{"name": "a", "url": "http://x/", "rss": {"items": 99}}]}"#, "sources[0].rss.items"),
    (#"{"sources": [{"name": "a", "url": "http://x/", "every": 60, "lifetime": 30, "text": {}}]}"#, "sources[0].lifetime"),
    (#"{"sources": [{"name": "a", "url": "http://x/", "text": {}}, {"name": "a", "url": "/f", "text": {}}]}"#, "sources[1].name"),
    (#"{"sources": [{"name": "a", "url": "http://x/", "text": {}}], "messages": ["{source:b}"]}"#, "{source:b} names no source (the sources are a)"),
    (#"{"sources": [{"name": "a", "url": "http://x/", "ca": "ca.pem", "text": {}}]}"#, "'sources[0].ca': an authority is for an https:// address"),
    (#"{"sources": [{"name": "a", "url": "https://x/", "ca": 3, "text": {}}]}"#, "sources[0].ca"),
  ])
  func aBadSourceIsRefusedWhereItIsWritten(config: String, words: String) throws {
    let folder = try Folder()
    do {
      _ = try LiveSourceTests.session(config, in: folder)
      Issue.record("\(config) was taken")
    } catch let error as UsageError {
      #expect(error.message.contains(words), "\(error.message)")
      #expect(error.message.contains("sign.json"), "the error names the file: \(error.message)")
    }
  }

  /// A calendar's zone by the Windows name Outlook writes is the tz database's zone.
  @Test func windowsZoneNamesAreTheTzDatabasesZones() throws {
    let shanghai = try #require(TimeZones.named("China Standard Time"))
    #expect(shanghai.offset(at: 1_772_524_800) == 8 * 3600)
    let berlin = try #require(TimeZones.named("W. Europe Standard Time"))
    #expect(berlin.offset(at: 1_772_524_800) == 3600 && berlin.offset(at: 1_783_000_000) == 7200)
    #expect(TimeZones.named("Nowhere Standard Time") == nil)
  }

  @Test func contentNamingNoSourceIsRefusedAtTheField() throws {
    let folder = try Folder()
    let session = try LiveSourceTests.session(#"{"sources": [{"name": "bus", "url": "/nonexistent", "text": {}}], "messages": ["x"]}"#, in: folder)
    let answer = session.perform(.content(try JSONParser.parse(#"{"messages": ["ok", "{source:weather}"]}"#), replacing: false))
    guard case .failure(let refusal) = answer else { Issue.record("taken: \(answer)"); return }
    #expect(refusal.field == "messages[1]" && refusal.description.contains("{source:weather} names no source of this sign (its sources are bus)"), "\(refusal)")
  }
}

/// A departure board from a GTFS-Realtime feed (written by Google's bindings through
/// Tests/LiveDataTests/gtfs_feeds.py) joined with the GTFS reference's sample timetable: the
/// feed changes on the server and the sign shows the new minutes.
@Suite(.offThePool) struct GTFSBoardTests {
  static let python = GTFSFeeds.python

  static func write(_ kind: String, to path: String, input: String = "") throws {
    try GTFSFeeds.write(kind, to: path, input: input)
  }

  /// A realtime feed in which route CITY's trip EXTRA leaves Bullfrog at `time`.
  static func feed(leaving time: Double) -> String {
    #"{"trips": [{"trip_id": "EXTRA", "route_id": "CITY", "stops": [{"stop_id": "BULLFROG", "departure": {"time": \#(Int(time))}}]}]}"#
  }

  @Test(.enabled(if: python != nil, "needs gtfs-realtime-bindings from PyPI in .build/venv-sources (.ci/run installs it)"))
  func theBoardShowsTheNewMinutesWhenTheFeedChanges() throws {
    let folder = try SignSessionTests.Folder()
    let zip = folder.path + "/gtfs.zip", first = folder.path + "/1.pb", second = folder.path + "/2.pb"
    try GTFSBoardTests.write("static", to: zip)
    let start = Date().timeIntervalSince1970
    try GTFSBoardTests.write("realtime", to: first, input: GTFSBoardTests.feed(leaving: start + 330))
    let serving = Mutex(first)
    let server = try #require(ScriptedHTTPServer { _ in
      .init(bytes: Array("HTTP/1.1 200 OK\r\nContent-Type: application/x-protobuf\r\nConnection: close\r\n\r\n".utf8)
        + ((try? [UInt8](Data(contentsOf: URL(fileURLWithPath: serving.withLock { $0 })))) ?? []))
    })
    defer { server.stop() }
    let stop = StopFlag()
    let session = try LiveSourceTests.session("""
      {"sources": [{"name": "bus", "url": "\(server.url("/tripupdates.pb"))", "every": 1,
                    "gtfsRealtime": {"static": "gtfs.zip", "stop": "BULLFROG", "count": 3}}],
       "mode": "cycle", "messages": ["{source:bus}"]}
      """, in: folder, stop: stop)
    session.start()
    defer { stop.set() }
    #expect(eventually { SignSessionTests.shown(session).contains("40 5 min") }, "\(LiveSourceTests.look(session))")
    // The feed moves the trip on: the next frames show it two minutes away.
    try GTFSBoardTests.write("realtime", to: second, input: GTFSBoardTests.feed(leaving: Date().timeIntervalSince1970 + 150))
    serving.withLock { $0 = second }
    #expect(eventually { SignSessionTests.shown(session).contains("40 2 min") }, "\(LiveSourceTests.look(session))")
  }
}

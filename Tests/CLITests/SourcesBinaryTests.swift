import Foundation
import TestSupport
import Testing

/// `marquee sources --config FILE`: each source fetched once, a line per item or its error,
/// exit 1 when one fails; a missing config is a usage error.
@Suite(.offThePool) struct SourcesBinaryTests {
  @Test func eachSourceIsFetchedOnceAndPrinted() throws {
    let server = try #require(ScriptedHTTPServer { request in
      switch request.path {
      case "/w.json": .status(200, #"{"current": {"temperature_2m": 21.46}}"#)
      case "/news.xml": .status(200, #"<rss version="2.0"><channel><item><title>First &amp; best</title></item><item><title>地铁 延误</title></item></channel></rss>"#)
      default: .status(404)
      }
    })
    defer { server.stop() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-sources-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try "line one\n\nline two\n".write(to: folder.appendingPathComponent("notice.txt"), atomically: true, encoding: .utf8)
    let config = folder.appendingPathComponent("sign.json").path
    try """
      {"sources": [
        {"name": "weather", "url": "\(server.url("/w.json"))", "json": "/current/temperature_2m", "format": "{0:.1f}°C"},
        {"name": "news", "url": "\(server.url("/news.xml"))", "rss": {"items": 5}},
        {"name": "notice", "url": "notice.txt", "text": {"lines": 3}}],
       "messages": ["{source:weather}"]}
      """.write(toFile: config, atomically: true, encoding: .utf8)
    let good = try BinaryRunner.run(["sources", "--config", config])
    #expect(good.status == 0, "\(good.stderr)")
    #expect(good.stdout == "weather: 21.5°C\nnews: First & best\nnews: 地铁 延误\nnotice: line one\nnotice: line two\n")
    // A source that fails: the others still print, the failure says why, the exit is 1.
    try """
      {"sources": [
        {"name": "weather", "url": "\(server.url("/w.json"))", "json": "/current/temperature_2m"},
        {"name": "gone", "url": "\(server.url("/gone.json"))", "json": "/x"}]}
      """.write(toFile: config, atomically: true, encoding: .utf8)
    let failing = try BinaryRunner.run(["sources", "--config", config, "--json"])
    #expect(failing.status == 1)
    #expect(failing.stdout.contains(#"{"name":"weather","items":["21.46"],"error":null}"#), "\(failing.stdout)")
    #expect(failing.stdout.contains(#""error":"\#(server.url("/gone.json")): the server answered 404""#), "\(failing.stdout)")
    let usage = try BinaryRunner.run(["sources"])
    #expect(usage.status == 64 && usage.stderr.contains("'sources' needs the config"), "\(usage.stderr)")
  }

  /// The plain command (no server): the sign fetches its source while it plays, and its
  /// frames show the value once it came (the placeholder's default before).
  @Test func thePlainSignFetchesWhileItPlays() throws {
    let server = try #require(ScriptedHTTPServer { _ in .status(200, #"{"t": 21.46}"#) })
    defer { server.stop() }
    let config = NSTemporaryDirectory() + "marquee-sources-plain-\(getpid()).json"
    try """
      {"width": 48, "align": "center", "sources": [{"name": "w", "url": "\(server.url("/w.json"))", "every": 1, "json": "t", "format": "{0:.1f}C"}],
       "messages": ["{source:w|--}"]}
      """.write(toFile: config, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: config) }
    let expected = try BinaryRunner.run(["--width", "48", "--align", "center", "--output", "ascii", "--frames", "1", "--no-wait", "21.5C"]).stdout
    let played = try BinaryRunner.run(["--config", config, "--output", "ascii", "--fps", "20", "--frames", "60"])
    #expect(played.status == 0, "\(played.stderr)")
    #expect(!server.requests.isEmpty, "the sign fetched nothing")
    let frames = played.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(frames.last.map { $0 + "\n\n" == expected || $0 + "\n" == expected || $0 == expected } == true, "the last frame:\n\(frames.last ?? "")\nexpected:\n\(expected)")
  }

  /// A calendar source: today's events in the sign's own zone, whole days first, a daily
  /// event's time in local time, an event in another zone moved into it.
  @Test func aCalendarGivesTodaysEvents() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-ical-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try """
      BEGIN:VCALENDAR
      VERSION:2.0
      BEGIN:VEVENT
      UID:lunch
      SUMMARY:Lunch 午饭
      DTSTART:20260101T120000
      RRULE:FREQ=DAILY
      END:VEVENT
      BEGIN:VEVENT
      UID:open
      SUMMARY:Open day
      DTSTART;VALUE=DATE:20260101
      RRULE:FREQ=DAILY
      END:VEVENT
      BEGIN:VEVENT
      UID:call
      SUMMARY:Call Berlin
      DTSTART;TZID=Europe/Berlin:20260101T080000
      RRULE:FREQ=DAILY
      END:VEVENT
      END:VCALENDAR
      """.replacingOccurrences(of: "\n", with: "\r\n").write(to: folder.appendingPathComponent("today.ics"), atomically: true, encoding: .utf8)
    let config = folder.appendingPathComponent("sign.json").path
    try #"{"sources": [{"name": "today", "url": "today.ics", "ical": {"days": 1}}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let result = try BinaryRunner.run(["sources", "--config", config], environment: ["TZ": "Asia/Shanghai"])
    #expect(result.status == 0, "\(result.stderr)")
    // 08:00 in Berlin is 15:00 in Shanghai in winter, 14:00 in summer.
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3 && lines[0] == "today: Open day" && lines[1] == "today: 12:00 Lunch 午饭", "\(result.stdout)")
    #expect(lines.count == 3 && (lines[2] == "today: 15:00 Call Berlin" || lines[2] == "today: 14:00 Call Berlin"), "\(result.stdout)")
  }

  /// What a source sends reaches the terminal with its control characters made visible: a
  /// text that clears the screen is printed as the escape it is.
  @Test func controlCharactersFromASourceAreMadeVisible() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-visible-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try "\u{1B}[2JCleared \u{202E}txet\n".write(to: folder.appendingPathComponent("notice.txt"), atomically: true, encoding: .utf8)
    let config = folder.appendingPathComponent("sign.json").path
    try #"{"sources": [{"name": "notice", "url": "notice.txt", "text": {}}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let result = try BinaryRunner.run(["sources", "--config", config])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "notice: \\x1B[2JCleared \\u{202E}txet\n", "\(result.stdout.debugDescription)")
  }

  /// Every kind of source over HTTPS, through the helper beside the binary: a server whose
  /// certificate an authority of the test's own signed, named by each source's `"ca"`.
  @Test func everyKindComesOverHTTPSWithTheSourcesAuthority() throws {
    if let missing = TLSFront.missingTools {
      print("SourcesBinaryTests: HTTPS skipped: \(missing)")
      return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-https-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // A departure board too, where Google's bindings are installed to write its feed.
    let gtfs = GTFSFeeds.python != nil
    if gtfs {
      try GTFSFeeds.write("static", to: folder.appendingPathComponent("gtfs.zip").path)
      let feed = #"{"trips": [{"trip_id": "EXTRA", "route_id": "CITY", "stops": [{"stop_id": "BULLFROG", "departure": {"time": \#(Int(Date().timeIntervalSince1970) + 330)}}]}]}"#
      try GTFSFeeds.write("realtime", to: folder.appendingPathComponent("trips.pb").path, input: feed)
    }
    let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:open\r\nSUMMARY:Open all day 全天营业\r\nDTSTART;VALUE=DATE:20260101\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    let trips = (try? [UInt8](Data(contentsOf: folder.appendingPathComponent("trips.pb")))) ?? []
    let server = try #require(ScriptedHTTPServer { request in
      switch request.path {
      case "/w.json": .status(200, #"{"current": {"temperature_2m": 21.46}}"#)
      case "/news.xml": .status(200, #"<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>地铁 延误</title></entry></feed>"#)
      case "/today.ics": .status(200, calendar)
      case "/notice.txt": .status(200, "Back at 14:00\n")
      case "/trips.pb": .init(bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: \(trips.count)\r\nConnection: close\r\n\r\n".utf8) + trips)
      default: .status(404)
      }
    })
    defer { server.stop() }
    let front = try TLSFront(backendPort: server.port)
    let ca = front.authority
    let config = folder.appendingPathComponent("sign.json").path
    let board = gtfs ? #", {"name": "bus", "url": "\#(front.url("/trips.pb"))", "ca": "\#(ca)", "gtfsRealtime": {"static": "gtfs.zip", "stop": "BULLFROG"}}"# : ""
    try """
      {"sources": [
        {"name": "weather", "url": "\(front.url("/w.json"))", "ca": "\(ca)", "json": "/current/temperature_2m", "format": "{0:.1f}°C"},
        {"name": "news", "url": "\(front.url("/news.xml"))", "ca": "\(ca)", "rss": {"items": 5}},
        {"name": "today", "url": "\(front.url("/today.ics"))", "ca": "\(ca)", "ical": {"days": 1}},
        {"name": "notice", "url": "\(front.url("/notice.txt"))", "ca": "\(ca)", "text": {}}\(board)]}
      """.write(toFile: config, atomically: true, encoding: .utf8)
    let fetched = try BinaryRunner.run(["sources", "--config", config])
    #expect(fetched.status == 0, "\(fetched.stderr)\n\(fetched.stdout)")
    #expect(fetched.stdout.hasPrefix("weather: 21.5°C\nnews: 地铁 延误\ntoday: Open all day 全天营业\nnotice: Back at 14:00\n"), "\(fetched.stdout)")
    if gtfs { #expect(fetched.stdout.contains("bus: 40 5 min") || fetched.stdout.contains("bus: 40 6 min"), "\(fetched.stdout)") }
    // The same source without its authority: refused, and the line says why.
    try #"{"sources": [{"name": "weather", "url": "\#(front.url("/w.json"))", "json": "/current/temperature_2m"}]}"#
      .write(toFile: config, atomically: true, encoding: .utf8)
    let refused = try BinaryRunner.run(["sources", "--config", config])
    #expect(refused.status == 1 && refused.stdout.contains("weather: error: \(front.url("/w.json")): the server's certificate is not trusted"), "\(refused.stdout)")
  }

  /// Sources that answer slowly, hugely, with the wrong kind of document, in a redirect loop
  /// or with an error: each is reported with its reason, its placeholder's default shows, and
  /// the frames keep coming at their rate while the fetches wait.
  @Test func badSourcesAreReportedAndNeverHoldTheFrames() throws {
    let server = try #require(ScriptedHTTPServer { request in
      switch request.path {
      case "/slow.json": .status(200, #"{"t": 1}"#, delay: 20)
      case "/huge.json": .status(200, "[" + String(repeating: "1,", count: 3000) + "1]")
      case "/page.html": .status(200, "<!doctype html><html><body>Sign in</body></html>", headers: [("Content-Type", "text/html")])
      case "/data.json": .status(200, #"{"items": [1, 2]}"#, headers: [("Content-Type", "application/json")])
      case "/loop": .status(302, headers: [("Location", "/loop")])
      default: .status(500, "down")
      }
    })
    defer { server.stop() }
    let config = NSTemporaryDirectory() + "marquee-bad-sources-\(UUID().uuidString).json"
    defer { try? FileManager.default.removeItem(atPath: config) }
    try """
      {"width": 48, "sources": [
        {"name": "slow", "url": "\(server.url("/slow.json"))", "timeout": 3, "json": "t"},
        {"name": "huge", "url": "\(server.url("/huge.json"))", "maxBytes": 1000, "json": "/0"},
        {"name": "page", "url": "\(server.url("/page.html"))", "json": "/t"},
        {"name": "feed", "url": "\(server.url("/data.json"))", "rss": {}},
        {"name": "loop", "url": "\(server.url("/loop"))", "text": {}},
        {"name": "down", "url": "\(server.url("/down"))", "ical": {}}],
       "messages": ["{source:slow|--} {source:huge|--} {source:page|--} {source:feed|--} {source:loop|--} {source:down|--}"]}
      """.write(toFile: config, atomically: true, encoding: .utf8)
    // 40 frames at 20 a second: two seconds, whatever the sources do (the slow one alone
    // would hold a frame loop that waited on it for 3, and the loop for 10).
    let started = Date()
    let played = try BinaryRunner.run(["--config", config, "--output", "ascii", "--fps", "20", "--frames", "40"])
    #expect(played.status == 0, "\(played.stderr)")
    #expect(Date().timeIntervalSince(started) < 10, "the frames waited for the sources")
    #expect(played.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }.count == 40)

    let checked = try BinaryRunner.run(["sources", "--config", config])
    #expect(checked.status == 1)
    let reasons = [
      "slow: error: \(server.url("/slow.json")): no answer within 3 s",
      "huge: error: \(server.url("/huge.json")): the document is larger than 1000 bytes",
      "page: error: \(server.url("/page.html")): not JSON",
      "feed: error: \(server.url("/data.json")): not a feed (RSS or Atom), nor XML: line 1",
      "loop: error: \(server.url("/loop")): more than 5 redirects",
      "down: error: \(server.url("/down")): the server answered 500",
    ]
    for reason in reasons { #expect(checked.stdout.contains(reason), "\(reason)\n\(checked.stdout)") }
  }
}


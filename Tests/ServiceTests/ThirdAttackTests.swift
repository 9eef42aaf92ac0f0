import Foundation
import HTTP
import MQTT
import Platform
import Synchronization
import MatrixCore
import SimpleJSON
import TestSupport
import Testing

@testable import Marquee
@testable import TimelineCore
@testable import MarqueeCLI
@testable import MarqueeServe
@testable import SignService

/// The third attack's findings that live in the service and its routes, each reproduced as
/// the attacker sent it (issue 49); the ones that need the binary are in CLITests.
@Suite struct ThirdAttackTests {
  /// The topic an MQTT sign without a token must never read for whoever asks.
  static let secret = "{mqtt:home/alarm/code}"

  /// A body for each write route that carries content, with the secret placeholder where
  /// that route takes a message.
  static let hostileBodies: [String: String] = [
    "PUT /api/content": #"{"zones": [{"zone": "left", "messages": ["ok", "\#(secret)"]}]}"#,
    "PATCH /api/content": #"{"zones": [{"zone": "right", "messages": ["\#(secret)"]}]}"#,
    "POST /api/notify": #"{"messages": ["\#(secret)"], "duration": 2}"#,
    "POST /api/preview": #"{"zones": [{"zone": "left", "messages": ["\#(secret)"]}]}"#,
    "PUT /api/programs": #"{"programs": [{"name": "ok", "messages": ["fine"]}, {"name": "spy", "zones": [{"zone": "right", "messages": ["\#(secret)"]}]}]}"#,
    "PUT /api/programs/{name}": #"{"messages": ["x", "\#(secret)"]}"#,
  ]
  /// The field each refusal must name.
  static let fields: [String: String] = [
    "PUT /api/content": "zones[0].messages[1]", "PATCH /api/content": "zones[0].messages[0]",
    "POST /api/notify": "messages[0]", "POST /api/preview": "zones[0].messages[0]",
    "PUT /api/programs": "programs[1].zones[0].messages[0]", "PUT /api/programs/{name}": "messages[1]",
  ]
  /// Write routes that take no message: nothing of the sign's content can name a topic there.
  static let withoutContent: Set<String> = [
    "POST /api/pause", "POST /api/resume", "POST /api/brightness", "POST /api/power", "DELETE /api/notify",
    "DELETE /api/notify/{id}", "POST /api/program", "PUT /api/schedule", "DELETE /api/programs/{name}", "PUT /api/icons/{name}",
    // A source's fallback is shown as its items are: escaped, never read for placeholders.
    "PUT /api/sources",
    // The panel finder's answers are a choice or numbers, never shown as content.
    "POST /api/panel-finder", "POST /api/panel-finder/answer", "DELETE /api/panel-finder",
  ]

  /// Finding 1: the same placeholder refused on every route that takes content, not only on
  /// `PATCH /api/content`; the sign keeps no program that names it, and its state shows
  /// nothing of the topic. A write route added later fails this test until it is placed in
  /// one list or the other.
  @Test func everyRouteThatTakesContentRefusesATopicTheSourceMayNotRead() throws {
    let sign = try SignRoutesTests.Served(valueFilters: ["station/#"])
    let routes = SignRoutes(session: sign.session, valueFilters: ["station/#"]).routes(asksToken: true)
    let writes = routes.endpoints.filter { ["PUT", "PATCH", "POST", "DELETE"].contains($0.method) }.map { "\($0.method) \($0.path)" }
    for route in writes {
      #expect(ThirdAttackTests.hostileBodies[route] != nil || ThirdAttackTests.withoutContent.contains(route), "\(route) is in neither list")
    }
    for (route, body) in ThirdAttackTests.hostileBodies.sorted(by: { $0.key < $1.key }) {
      let parts = route.split(separator: " ")
      let path = String(parts[1]).replacingOccurrences(of: "{name}", with: "spy")
      let answer = sign.send(String(parts[0]), path, body)
      #expect(answer.status == 400, "\(route) answered \(answer.status)")
      let error = try sign.json(answer)["error"]
      #expect(
        error == .string("\(ThirdAttackTests.fields[route]!): \(ThirdAttackTests.secret) names a topic this source may not read (it may read station/#); the owner allows more with --mqtt-values"),
        "\(route): \(String(describing: error))" as Comment)
    }
    #expect(sign.session.programSources.isEmpty)
    let state = String(decoding: sign.send("GET", "/api/state").body, as: UTF8.self)
    #expect(!state.contains("home/alarm"), "\(state)")
    // An allowed topic still goes through every route.
    #expect(sign.send("PUT", "/api/programs/near", #"{"messages": ["{mqtt:station/next|-}"]}"#).status == 200)
    #expect(sign.send("POST", "/api/notify", #"{"messages": ["{mqtt:station/next|-}"], "duration": 1}"#).status == 200)
    // A token holder (no filters) may name any topic.
    let trusted = try SignRoutesTests.Served()
    #expect(trusted.send("PUT", "/api/programs/alarm", #"{"messages": ["\#(ThirdAttackTests.secret)"]}"#).status == 200)
  }

  /// Finding 8: prefixes `signs/a_b` and `signs/a/b` announced the same config topics and
  /// unique ids, so the second sign took the first one's entities in Home Assistant. Every
  /// spelling here gets its own node; a plain prefix keeps the id it always had.
  @Test func homeAssistantNodesDifferForEveryPrefix() throws {
    let prefixes = [
      "signs/a_b", "signs/a/b", "signs/a-b", "signs/a b", "signs/a+b", "signs/a_b_", "signs/a__b", "signs/a/b/", "signs/A/b",
      "signs/店", "signs/铺", "signs_a_b", "signs/a_b" + "_h0000000000000000",
    ]
    let ids = prefixes.map(HomeAssistantDiscovery.nodeID(of:))
    #expect(Set(ids).count == prefixes.count, "\(zip(prefixes, ids).map { "\($0) → \($1)" })")
    for id in ids { #expect(id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }, "\(id)") }
    #expect(HomeAssistantDiscovery.nodeID(of: "marquee/shop") == "marquee_shop")
    let session = try SignRoutesTests.Served().session
    let first = HomeAssistantDiscovery(prefix: "signs/a_b", session: session, version: "t").documents(programs: ["p"])
    let second = HomeAssistantDiscovery(prefix: "signs/a/b", session: session, version: "t").documents(programs: ["p"])
    #expect(Set(first.map(\.topic)).isDisjoint(with: second.map(\.topic)))
    let uniqueIDs = { (documents: [(topic: String, payload: JSONValue?)]) in Set(documents.compactMap { document -> String? in if case .string(let id)? = document.payload?["unique_id"] { id } else { nil } }) }
    #expect(uniqueIDs(first).isDisjoint(with: uniqueIDs(second)) && uniqueIDs(first).count == first.count)
  }

  /// Finding 10: newlines and ESC in an MQTT payload reached standard error and the journal
  /// inside a refusal's warning, so a publisher could forge log lines or steer the terminal.
  /// The refusal is one line, with the payload's controls written as escapes.
  @Test func aRefusedPayloadCannotForgeALogLine() throws {
    let lines = Mutex<[String]>([])
    var options = RunOptions()
    options.zone.messages = ["Shop"]
    let session = try SignSession(options, stop: StopFlag(), reports: SignReports { report in lines.withLock { $0.append(report.description) } })
    let bridge = MQTTBridge(
      session: session, stats: ServeStats(), address: try MQTTAddress("mqtt://127.0.0.1:1"), prefix: "signs/shop", discovery: false,
      clientID: "test", valueFilters: [], version: "t")
    let forged = "x\nWarning: the sign was reset by root\u{1B}]52;c;cm0gLXJmIH4=\u{07}\u{1B}[2J\u{202E}"
    for topic in ["brightness", "content", "power", "zzz/../brightness\u{1B}[31m"] {
      bridge.take(MQTTPacket.Message(topic: "signs/shop/" + topic, payload: Array(forged.utf8)))
    }
    #expect(eventually { lines.withLock { $0.count } >= 3 })
    for line in lines.withLock({ $0 }) {
      #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" }, "\(line.debugDescription)")
    }
    #expect(lines.withLock { $0 }.contains { $0.contains(#"x\nWarning: the sign was reset by root\x1B]5"#) }, "\(lines.withLock { $0 })")
    session.stop.set()
  }

  /// Findings 3, 4 and 5: `marquee fleet` died on `{"brightness": 1e300}` (SIGILL in the
  /// table), wrote the escapes in sign names and states to the terminal, and kept each
  /// sign's whole published state (400 signs of 250 KB: 401 MB).
  @Test func theFleetViewKeepsLittleConvertsTotallyAndShowsNoEscapes() throws {
    let hostile = "\u{1B}]52;c;cm0gLXJmIH4=\u{07}\u{1B}]0;title\u{07}\u{1B}[2J\u{1B}]8;;http://x\u{1B}\\link\u{9B}"
    for level in ["1e300", "-1e300", "7.5", "-3", "16", "9007199254740993"] {
      let state = try JSONParser.parse(#"{"brightness": \#(level), "on": true}"#)
      let table = FleetCommand.table([FleetCommand.Sign(name: "signs/a", status: "online", state: FleetCommand.Digest(state))])
      #expect(table.contains("  ?  "), "\(level): \(table)")
    }
    let escaped = JSONValue.string(hostile).text
    let state = try JSONParser.parse(
      #"{"brightness": 5, "program": \#(escaped), "zones": [{"name": \#(escaped), "showing": [\#(escaped)]}], "mqtt": {"lastRefusal": \#(escaped), "connectedSince": {"local": \#(escaped)}}}"#)
    let signs = [FleetCommand.Sign(name: "signs/" + hostile, status: "online", state: FleetCommand.Digest(state))]
    let table = FleetCommand.table(signs)
    #expect(!table.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, "\(table.debugDescription)")
    #expect(table.contains(#"\x1B]52;c;cm0gLXJmIH4=\x07"#) && table.contains("  5  "))
    // A quarter of a megabyte published: a few hundred characters kept.
    let long = String(repeating: "长", count: 2_000)
    let zones = (0..<60).map { #"{"name": "zone\#($0)", "showing": ["\#(long)", "\#(long)"]}"# }.joined(separator: ", ")
    let big = try JSONParser.parse(#"{"program": "\#(long)", "zones": [\#(zones)], "mqtt": {"lastRefusal": "\#(long)"}}"#)
    let digest = FleetCommand.Digest(big)
    let kept = (digest.program ?? "").count + (digest.lastRefusal ?? "").count + digest.showing.reduce(0) { $0 + $1.name.count + $1.messages.reduce(0) { $0 + $1.count } }
    #expect(kept <= 2 * FleetCommand.Digest.textLimit + FleetCommand.Digest.showingLimit + FleetCommand.Digest.textLimit, "\(kept) characters kept")
  }

  /// Finding 9: a SIGKILL during a durable write leaves its new file (`NAME.new-PID-N`);
  /// twenty kills left 1.39 MB. A session starting cleans its own leftovers, beside the
  /// state file and in the icon folder, and nothing else.
  @Test func aStartingSignRemovesWhatKilledWritesLeft() throws {
    let folder = "/tmp/marquee-leftovers-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    #expect(mkdir(folder, 0o700) == 0 && mkdir(folder + "/icons", 0o700) == 0)
    defer {
      for entry in FileBytes.entries(of: folder + "/icons") { unlink(folder + "/icons/" + entry) }
      rmdir(folder + "/icons")
      for entry in FileBytes.entries(of: folder) { unlink(folder + "/" + entry) }
      rmdir(folder)
    }
    let ours = ["state.json.new-4242-123456", "state.json.new-1-2", "icons/logo.png.new-77-9", "icons/bus-stop.gif.new-3-4"]
    let theirs = [
      "other.json.new-1-2", "state.json.new-x-2", "state.json.new-1-2-3", "state.json.old", "icons/logo.png",
      "icons/notes.txt.new-1-2", "icons/Bad Name.png.new-1-2",
    ]
    for file in ours + theirs {
      let descriptor = open(folder + "/" + file, O_WRONLY | O_CREAT, 0o600)
      #expect(descriptor >= 0)
      close(descriptor)
    }
    var options = RunOptions()
    options.zone.messages = ["Shop"]
    options.statePath = folder + "/state.json"
    options.iconsPath = folder + "/icons"
    let reports = SignReports.inMemory()
    _ = try SignSession(options, stop: StopFlag(), reports: reports)
    let left = Set(FileBytes.entries(of: folder) + FileBytes.entries(of: folder + "/icons").map { "icons/" + $0 })
    #expect(left == Set(theirs + ["icons"]), "\(left.sorted())")
    #expect(reports.recent.contains { $0.text == "removed 4 unfinished files that a stop during a write left" }, "\(reports.recent)")
  }
}

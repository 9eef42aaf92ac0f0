import Platform
import Foundation
import HTTP
import MatrixCore
import SimpleJSON
import Testing

@testable import Marquee
@testable import TimelineCore
@testable import MarqueeServe
@testable import SignService

/// One truth about what the sign shows (issue 50): the LEDs, `GET /api/state` and the sign
/// after a restart agree, whatever a person, a program edit or a live source did before.
@Suite struct OneTruthTests {
  typealias Folder = SignSessionTests.Folder

  /// What the first zone shows on the LEDs after a frame, what the state says it shows,
  /// and until when a person's change holds there.
  static func truth(_ session: SignSession) -> (leds: [String], state: [String], until: JSONValue?) {
    let leds = SignSessionTests.shown(session)
    let zone = SignSessionTests.zone(session)
    var state: [String] = []
    if case .array(let messages)? = zone?["messages"] { state = messages.compactMap { if case .string(let text) = $0 { text } else { nil } } }
    return (leds, state, zone?["keptUntil"]?["at"])
  }

  /// Issue 50, defect 1: a person's text published at 10:55 on a weekday (kept until 18:00)
  /// was taken back by saving an unrelated program: the LEDs and the state showed the
  /// program again while `keptUntil` still said 18:00, and a restart showed the person's
  /// text. A change to the programs now leaves the person's layer in place, and so does
  /// choosing another program; at 18:00 the schedule's content comes back.
  @Test func savingAProgramLeavesAPersonsChangeInPlace() throws {
    let folder = try Folder()
    let options = try SignSessionTests.options(state: folder.path + "/sign.state")
    let clock = ManualSignClock(wall: SignSessionTests.at(10, 55, day: 4))
    let session = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    #expect(OneTruthTests.truth(session).leds == ["Day"])
    let published = session.perform(.content(try JSONParser.parse(#"{"messages": ["OWNER TEXT"]}"#), replacing: false))
    #expect(published == .success(.changed(kept: true, until: SignSessionTests.at(18, day: 4))))
    let owner = OneTruthTests.truth(session)
    #expect(owner.leds == ["OWNER TEXT"] && owner.state == ["OWNER TEXT"] && owner.until == .number(SignSessionTests.at(18, day: 4)))
    let weekend = try JSONParser.parse(#"{"days": ["sat", "sun"], "times": ["09:00-18:00"], "messages": ["今日特价 Offers"]}"#)
    #expect(session.perform(.putProgram(name: "weekend", weekend)) == .success(.programs(session.programSources)))
    #expect(OneTruthTests.truth(session) == owner, "a program saved took back what a person published")
    // The whole list written again, and another program chosen: the same.
    #expect(session.perform(.programs(session.programSources)) == .success(.programs(session.programSources)))
    #expect(OneTruthTests.truth(session) == owner)
    #expect(session.perform(.chooseProgram("night")) == .success(.scheduled))
    #expect(OneTruthTests.truth(session) == owner)
    // A restart agrees.
    let again = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    #expect(OneTruthTests.truth(again).leds == ["OWNER TEXT"] && OneTruthTests.truth(again).state == ["OWNER TEXT"])
    // At 18:00 the person's change has run out: the schedule's content, live and restarted.
    clock.setWall(SignSessionTests.at(18, 0, day: 4))
    session.pump.look()
    #expect(OneTruthTests.truth(session).leds == ["Night"] && OneTruthTests.truth(session).until == nil)
  }

  /// Issue 50, defect 2: an empty message list was accepted and blanked the sign while the
  /// page said a program played. It is refused at its field on every route that takes
  /// content (a blank is asked for with `[""]`), and nothing changes.
  @Test func anEmptyMessageListIsRefusedAtItsField() throws {
    let sign = try SignRoutesTests.Served()
    let before = try sign.json(sign.send("GET", "/api/state"))
    let reason = #"an empty list would leave the zone dark while the sign says it plays; to blank the zone on purpose, send [\"\"]"#
    for (method, path, body, field) in [
      ("PATCH", "/api/content", #"{"messages": []}"#, "messages"),
      ("PUT", "/api/content", #"{"zones": [{"zone": "left", "messages": ["L"]}, {"zone": "right", "messages": []}]}"#, "zones[1].messages"),
      ("POST", "/api/notify", #"{"messages": [], "duration": 2}"#, "messages"),
      ("PUT", "/api/programs/empty", #"{"messages": []}"#, "messages"),
      ("POST", "/api/preview", #"{"zone": "right", "messages": []}"#, "messages"),
    ] {
      let answer = sign.send(method, path, body)
      #expect(answer.status == 400, "\(method) \(path): \(answer.status)")
      let error = try sign.json(answer)["error"]
      #expect(error == .string("\(field): " + reason.replacingOccurrences(of: #"\""#, with: "\"")), "\(method) \(path): \(String(describing: error))")
    }
    #expect(try sign.json(sign.send("GET", "/api/state")) == before)
    #expect(sign.session.programSources.isEmpty)
    // A blank on purpose.
    #expect(sign.send("PATCH", "/api/content", #"{"zone": "right", "messages": [""], "immediately": true}"#).status == 200)
  }

  /// Issue 50, defect 5: 40,000 identical MQTT brightness commands in 5 s made 585
  /// fsync-and-rename cycles of the state file. A command that changes nothing is answered
  /// without a write (the file's inode, new at each rename, stays); one that changes
  /// something is on the disk before it is answered.
  @Test func aCommandThatChangesNothingWritesNothing() throws {
    let folder = try Folder()
    let path = folder.path + "/sign.state"
    let options = try SignSessionTests.options(state: path)
    let clock = ManualSignClock(wall: SignSessionTests.at(10))
    let session = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    func inode() throws -> Int { try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int) }
    let mqtt = CommandSource(keeps: true, valueFilters: ["signs/#"])
    #expect(session.perform(.brightness(5), from: mqtt) == .success(.changed(kept: nil, until: nil)))
    let written = try inode()
    let content = try JSONParser.parse(#"{"messages": ["Sale"], "speed": 30}"#)
    #expect(session.perform(.content(content, replacing: false)) == .success(.changed(kept: true, until: SignSessionTests.at(18))))
    #expect(try inode() != written)
    // The first pause of a zone is kept (the file says it is not paused) ...
    #expect(session.perform(.pause(zone: nil, false)) == .success(.changed(kept: nil, until: nil)))
    let withContent = try inode()
    // ... and from then on nothing changes.
    for _ in 0..<500 {
      #expect(session.perform(.brightness(5), from: mqtt) == .success(.changed(kept: nil, until: nil)))
      #expect(session.perform(.power(on: true)) == .success(.changed(kept: nil, until: nil)))
      #expect(session.perform(.content(content, replacing: false)) == .success(.changed(kept: true, until: SignSessionTests.at(18))))
      #expect(session.perform(.pause(zone: nil, false)) == .success(.changed(kept: nil, until: nil)))
    }
    #expect(try inode() == withContent, "an identical command wrote the state file again")
    #expect(session.perform(.brightness(6)) == .success(.changed(kept: nil, until: nil)))
    #expect(try inode() != withContent)
    let again = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    #expect(again.kept.brightness == 6 && SignSessionTests.shown(again) == ["Sale"])
  }

  /// Issue 50, defect 6: `GET /api/timetable?days=31` with two programs of `"seconds": 1`
  /// took 9.8–13.7 s (a step per turn), and 1,000 one-minute programs made the page's
  /// 7-day view take 32–36 s, on the server's thread, with `GET /api/state` waiting. Turns
  /// now cost nothing, the work is bounded (past it, a refusal at `days`), the answer is
  /// worked out off the server's thread and kept for the sign's version.
  @Test func theTimetableIsBoundedAndKept() throws {
    var options = RunOptions()
    options.zone.messages = ["Shop"]
    let turns = #"{"programs": [{"name": "a", "seconds": 1, "messages": ["A"]}, {"name": "b", "seconds": 1, "messages": ["B"]}]}"#
    options.schedule = try ScheduleFile.read(try JSONFields(try JSONParser.parse(turns)), base: RunOptions(), zones: ["main"])
    let clock = ManualSignClock(wall: SignSessionTests.at(10))
    let session = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    let table = try #require(try session.timetable(days: 31))
    guard case .array(let entries)? = table["entries"] else {
      Issue.record("\(table)")
      return
    }
    #expect(entries.count == 1 && entries.first?["takeTurns"] == .array([.string("a"), .string("b")]), "\(entries)")
    // The same version and day: the same value, not worked out again.
    #expect(session.timetableCache.withLock { $0?.key.version } == session.version)
    // A thousand programs of a minute each, every day: a week is more than a timetable lists.
    let many = (0..<1_000).map { index in
      let minute = 6 * 60 + index
      let time = "\(minute / 60 < 10 ? "0" : "")\(minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60)"
      let end = minute + 1
      let until = "\(end / 60 < 10 ? "0" : "")\(end / 60):\(end % 60 < 10 ? "0" : "")\(end % 60)"
      return JSONValue.object([("name", .string("p\(index)")), ("times", .array([.string("\(time)-\(until)")])), ("messages", .array([.string("P")]))])
    }
    #expect(session.perform(.programs(many)) == .success(.programs(many)))
    let busy = #expect(throws: SignRefusal.self) { try session.timetable(days: 7) }
    #expect(busy?.field == "days" && busy?.reason.hasPrefix("the schedule changes at least ") == true, "\(String(describing: busy))")
    // A day of it is fine.
    #expect(try session.timetable(days: 1) != nil)
  }

  /// A BDF font of one glyph, "A", in a file of its own.
  static func fontFile(in folder: String, name: String) throws -> String {
    let rows = Array(repeating: "FC", count: 7).joined(separator: "\n")
    let bdf = "STARTFONT 2.1\nFONT -\(name)-\nSIZE 7 75 75\nFONTBOUNDINGBOX 6 7 0 0\nSTARTPROPERTIES 1\nFONT_ASCENT 7\nENDPROPERTIES\nCHARS 1\n"
      + "STARTCHAR A\nENCODING 65\nSWIDTH 500 0\nDWIDTH 6 0\nBBX 6 7 0 0\nBITMAP\n\(rows)\nENDCHAR\nENDFONT\n"
    let path = folder + "/\(name).bdf"
    try bdf.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Issue 50, defect 4: a preview shared the running sign's font cache and its lock:
  /// previewing each of 880 fonts took resident memory from 9.6 to 129 MB until the next
  /// change, and loading an 8 MB font made a frame 318-330 ms late. A preview is now a
  /// guest: the sign's cache never grows from it, a font the sign has is read, not loaded
  /// again, and what a preview may load is bounded.
  @Test func aPreviewIsAGuestOfTheSignsFonts() throws {
    let folder = try Folder()
    let own = try OneTruthTests.fontFile(in: folder.path, name: "own")
    var options = RunOptions()
    options.width = 32
    options.zone.messages = ["A"]
    options.zone.fonts = [own]
    let session = try SignSession(options, stop: StopFlag(), reports: .inMemory(), fontAccess: .any)
    let loaded = session.feed.fonts.count
    #expect(loaded == 1)
    for index in 0..<20 {
      let other = try OneTruthTests.fontFile(in: folder.path, name: "other\(index)")
      let gif = try session.preview(try JSONParser.parse(#"{"messages": ["A"], "font": "\#(other)"}"#), seconds: 0.1)
      #expect(gif.starts(with: Array("GIF89a".utf8)))
    }
    #expect(session.feed.fonts.count == loaded, "a preview's fonts stayed in the sign's cache")
    // The sign's own font is read from its cache, not loaded again by the guest.
    let guest = session.feed.fonts.guest()
    _ = try guest.chain([own], access: .any)
    #expect(guest.count == 0)
    // Past its budget a guest refuses the font, at its field.
    let small = session.feed.fonts.guest(budget: 100)
    #expect(throws: FontCache.OverBudget.self) { try small.chain([try OneTruthTests.fontFile(in: folder.path, name: "big")], access: .any) }
  }

  /// The layer beneath a notification in the first zone.
  static func layer(below session: SignSession) -> String {
    session.layer(zone: "main", at: session.clock.wall()).layer.rawValue
  }

  /// The layer on top of the first zone, as `GET /api/state` names it.
  static func layer(_ session: SignSession) -> String? {
    if case .string(let name)? = SignSessionTests.zone(session)?["why"]?["layer"] { name } else { nil }
  }

  /// Each zone's `why` names the layer on top, the same one the LEDs show: config, program,
  /// MQTT's content and a person's change (the newer on top), a notification over them.
  @Test func theStateSaysWhichLayerShowsAndUntilWhen() throws {
    let folder = try Folder()
    let options = try SignSessionTests.options(state: folder.path + "/sign.state")
    let clock = ManualSignClock(wall: SignSessionTests.at(10))
    let session = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    #expect(OneTruthTests.layer(session) == "program" && OneTruthTests.truth(session).leds == ["Day"])
    #expect(SignSessionTests.zone(session)?["why"]?["until"]?["at"] == .number(SignSessionTests.at(18)))
    let mqtt = CommandSource(keeps: false, valueFilters: ["signs/#"])
    #expect(session.perform(.content(try JSONParser.parse(#"{"messages": ["From MQTT"]}"#), replacing: false), from: mqtt) == .success(.changed(kept: false, until: nil)))
    #expect(OneTruthTests.layer(session) == "feed" && OneTruthTests.truth(session).leds == ["From MQTT"])
    // A program played again keeps MQTT's content on top.
    #expect(session.perform(.programs(session.programSources)) == .success(.programs(session.programSources)))
    #expect(OneTruthTests.layer(session) == "feed" && OneTruthTests.truth(session).leds == ["From MQTT"])
    // A person's change is newer: on top, since now, until the stretch ends.
    clock.setWall(SignSessionTests.at(10, 30))
    _ = session.perform(.content(try JSONParser.parse(#"{"messages": ["Person"]}"#), replacing: false))
    #expect(SignSessionTests.zone(session)?["why"]?["since"]?["at"] == .number(SignSessionTests.at(10, 30)))
    #expect(OneTruthTests.layer(session) == "person" && OneTruthTests.truth(session).leds == ["Person"])
    #expect(session.perform(.programs(session.programSources)) == .success(.programs(session.programSources)))
    #expect(OneTruthTests.layer(session) == "person" && OneTruthTests.truth(session).leds == ["Person"])
    // MQTT again: newer, on top; the person's change stays kept beneath it.
    _ = session.perform(.content(try JSONParser.parse(#"{"messages": ["MQTT again"]}"#), replacing: false), from: mqtt)
    #expect(OneTruthTests.layer(session) == "feed" && OneTruthTests.truth(session).leds == ["MQTT again"])
    #expect(session.perform(.programs(session.programSources)) == .success(.programs(session.programSources)))
    #expect(OneTruthTests.truth(session).leds == ["MQTT again"])
    // A notification over everything, while it shows.
    if case .success(.notified) = session.perform(.notify(try JSONParser.parse(#"{"messages": ["Ding"], "duration": 5}"#))) {} else { Issue.record("not notified") }
    var frame = Frame(width: 32, height: 8)
    var workspace = FrameWorkspace()
    session.timeline.render(at: 0.1, into: &frame, workspace: &workspace)
    #expect(OneTruthTests.layer(session) == "notification")
  }

  /// A small generator with a seed, so a failing sequence can be run again.
  struct SplitMix {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
  }

  /// What the layer a zone's `why` names says the zone shows: a person's kept messages, the
  /// program's, MQTT's, or the config's.
  static func claimed(_ session: SignSession, layer: String) -> [String]? {
    let zone = SignSessionTests.zone(session)
    func strings(_ value: JSONValue?) -> [String]? {
      guard case .array(let items)? = value else { return nil }
      return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
    switch layer {
    case "person": return strings(session.kept.zones.first { $0.name == "main" }?.document["messages"])
    case "program":
      guard let name = session.programPlaying, let program = session.pump.schedule.programs.first(where: { $0.name == name }) else { return nil }
      #expect(zone?["why"]?["program"] == .string(name) || zone?["why"]?["layer"] == .string("notification"))
      return strings(program.zones.first?.document["messages"])
    case "feed": return session.record.withLock { record in strings(record.live["main"]?.first { $0.key == "messages" }?.value) }
    case "config": return ["Config"]
    default: return nil
    }
  }

  /// Sequences of commands from people and MQTT, program edits and choices, power and
  /// brightness, and the clock moving across the day: after every step the LEDs show what
  /// `GET /api/state` says and what the layer it names holds, and a sign started from the
  /// state file as it is then (a power cut, or SIGKILL: a change is on the disk before it
  /// is answered) shows the same, less live data (MQTT's), which is never kept.
  @Test(arguments: 0..<12) func theLEDsTheStateAndARestartAgree(seed: Int) throws {
    var random = SplitMix(state: UInt64(seed) &* 7919)
    let folder = try Folder()
    let options = try SignSessionTests.options(state: folder.path + "/sign.state")
    let clock = ManualSignClock(wall: SignSessionTests.at(8 + random.next(4), random.next(60)))
    let session = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    let mqtt = CommandSource(keeps: false, valueFilters: ["signs/#"])
    var steps: [String] = []
    for step in 0..<24 {
      let word = "W\(step)"
      switch random.next(12) {
      case 0, 1:
        steps.append("person \(word)")
        _ = session.perform(.content(try JSONParser.parse(#"{"messages": ["\#(word)"]}"#), replacing: random.next(2) == 0))
      case 2, 3:
        steps.append("mqtt \(word)")
        _ = session.perform(.content(try JSONParser.parse(#"{"messages": ["\#(word)"]}"#), replacing: false), from: mqtt)
      case 4:
        steps.append("put program p\(step % 3)")
        let document = try JSONParser.parse(#"{"times": ["\#(10 + step % 3):00-\#(12 + step % 5):30"], "messages": ["P\#(step % 3)"]}"#)
        _ = session.perform(.putProgram(name: "p\(step % 3)", document))
      case 5:
        let name = session.pump.schedule.programs.map(\.name).filter { $0 != "night" }.first
        steps.append("delete \(name ?? "-")")
        if let name { _ = session.perform(.deleteProgram(name)) }
      case 6:
        let names = session.pump.schedule.programs.map(\.name)
        let name = random.next(3) == 0 ? nil : names[random.next(names.count)]
        steps.append("choose \(name ?? "schedule")")
        _ = session.perform(.chooseProgram(name))
      case 7:
        steps.append("power, brightness")
        _ = session.perform(.power(on: random.next(3) != 0))
        _ = session.perform(.brightness(random.next(16)))
      case 9:
        steps.append("notify \(word)")
        _ = session.perform(.notify(try JSONParser.parse(#"{"messages": ["\#(word)"], "duration": \#(1 + random.next(3))}"#)))
        if random.next(2) == 0 { _ = session.perform(.dismiss(id: nil)) }
      case 8:
        steps.append("empty list")
        #expect(throws: Never.self) {
          if case .success = session.perform(.content(try JSONParser.parse(#"{"messages": []}"#), replacing: false)) { Issue.record("an empty list was taken") }
        }
      default:
        let minutes = 30 + random.next(240)
        steps.append("+\(minutes) min")
        clock.setWall(clock.wall + Double(minutes * 60))
        session.pump.look()
      }
      let running = OneTruthTests.truth(session)
      let layer = OneTruthTests.layer(session) ?? "?"
      #expect(running.leds == running.state, "seed \(seed): \(steps)")
      // A notification covers the zone; what is beneath it is the zone's own.
      let beneath = layer == "notification" ? OneTruthTests.layer(below: session) : layer
      #expect(OneTruthTests.claimed(session, layer: beneath) == running.leds, "seed \(seed), layer \(beneath): \(steps)")
      let restarted = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
      let again = OneTruthTests.truth(restarted)
      let againLayer = OneTruthTests.layer(restarted) ?? "?"
      #expect(again.leds == again.state && OneTruthTests.claimed(restarted, layer: againLayer) == again.leds, "seed \(seed), restart: \(steps)")
      if beneath != "feed" {
        #expect(again.leds == running.leds && againLayer == beneath, "seed \(seed): running \(layer) \(running.leds), restarted \(againLayer) \(again.leds): \(steps)")
      }
      #expect(restarted.lights.off == session.lights.off && restarted.lights.level == session.lights.level, "seed \(seed): \(steps)")
    }
  }

  /// A reload (SIGHUP) runs what a restart would: a person's change and a feed's content go
  /// before the new schedule plays, so the LEDs, the state and the file agree on the config's
  /// program.
  @Test func aReloadLeavesNoLayerOverTheConfig() throws {
    let folder = try Folder()
    let options = try SignSessionTests.options(state: folder.path + "/sign.state")
    let clock = ManualSignClock(wall: SignSessionTests.at(10))
    let session = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory(), reload: { options })
    _ = session.perform(.content(try JSONParser.parse(#"{"messages": ["Person"]}"#), replacing: false))
    _ = session.perform(.content(try JSONParser.parse(#"{"speed": 44}"#), replacing: false), from: CommandSource(keeps: false))
    #expect(OneTruthTests.truth(session).leds == ["Person"])
    #expect(session.perform(.reload) == .success(.reloaded))
    let after = OneTruthTests.truth(session)
    #expect(after.leds == ["Day"] && after.state == ["Day"] && after.until == nil, "\(after)")
    #expect(OneTruthTests.layer(session) == "program" && session.kept == SignState())
    #expect(SignSessionTests.zone(session)?["speed"] != .number(44))
  }
}

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

/// The sign session in-process, on a manual clock: what a change holds until, kept across
/// restarts, and what the LEDs show when the sign is dark. No test here sleeps.
@Suite struct SignSessionTests {
  /// A folder only this user may write, for a state file.
  final class Folder {
    let path = NSTemporaryDirectory() + "marquee-session-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  static let monday = LocalDate(year: 2026, month: 12, day: 7)
  static func at(_ hour: Int, _ minute: Int = 0, day: Int = 0) -> Double {
    LocalTime.instant(of: monday.adding(days: day), minute: hour * 60 + minute)
  }

  /// A sign with a day program (09:00-18:00) and a default one at night, as a config writes it.
  static func options(state: String, schedule: String = #"""
    {"programs": [{"name": "day", "times": ["09:00-18:00"], "messages": ["Day"]},
                  {"name": "night", "default": true, "messages": ["Night"]}]}
    """#) throws -> RunOptions {
    var options = RunOptions()
    options.width = 32
    options.zone.messages = ["Config"]
    options.statePath = state
    options.schedule = try ScheduleFile.read(try JSONFields(try JSONParser.parse(schedule)), base: RunOptions(), zones: ["main"])
    return options
  }

  /// The first zone in the session's state.
  static func zone(_ session: SignSession) -> JSONValue? {
    guard case .array(let zones)? = session.state()["zones"] else { return nil }
    return zones.first
  }

  /// The messages the sign's zone shows once the frame loop has drawn its first frame.
  static func shown(_ session: SignSession) -> [String] {
    var frame = Frame(width: session.width, height: session.height)
    var workspace = FrameWorkspace()
    session.timeline.render(at: 0, into: &frame, workspace: &workspace)
    return session.controller.sign.zones[0].content.messages
  }

  /// A program's own messages go to the sign's first zone, whatever the layout calls it:
  /// the config's programs are read before the layout file is, so they name no zone.
  @Test func aProgramsOwnMessagesGoToTheFirstZoneOfALayoutReadLater() throws {
    let folder = try Folder()
    let layout = folder.path + "/layout.json"
    try #"{"zones": [{"name": "top", "x": 0, "y": 0, "width": 32, "height": 8}]}"#.write(toFile: layout, atomically: true, encoding: .utf8)
    var options = try SignSessionTests.options(state: folder.path + "/sign.state")
    options.layoutPath = layout
    let clock = ManualSignClock(wall: SignSessionTests.at(10))
    let session = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    #expect(session.zones.map(\.name) == ["top"])
    #expect(SignSessionTests.shown(session) == ["Day"])
    #expect(session.pump.schedule.programs[0].zones.map(\.zone) == [nil])
  }

  @Test func aChangeDuringAProgramHoldsUntilItsStretchEndsAcrossRestarts() throws {
    let folder = try Folder()
    let options = try SignSessionTests.options(state: folder.path + "/sign.state")
    let clock = ManualSignClock(wall: SignSessionTests.at(10))
    let first = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    #expect(SignSessionTests.shown(first) == ["Day"])
    let answer = first.perform(.content(try JSONParser.parse(#"{"messages": ["Sale"]}"#), replacing: false))
    #expect(answer == .success(.changed(kept: true, until: SignSessionTests.at(18))))
    #expect(SignSessionTests.shown(first) == ["Sale"])
    // The power is cut at 12:00 and comes back: the change holds until the day program ends.
    clock.setWall(SignSessionTests.at(12))
    let second = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    #expect(SignSessionTests.shown(second) == ["Sale"])
    #expect(SignSessionTests.zone(second)?["keptUntil"]?["at"] == .number(SignSessionTests.at(18)))
    // After 18:00 the schedule's content shows, after a restart as at run time.
    clock.setWall(SignSessionTests.at(19))
    let third = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    #expect(SignSessionTests.shown(third) == ["Night"])
    #expect(SignSessionTests.zone(third)?["keptUntil"] == nil)
  }

  @Test func aChosenProgramIsKeptUntilTheScheduleChanges() throws {
    let folder = try Folder()
    let options = try SignSessionTests.options(state: folder.path + "/sign.state")
    let clock = ManualSignClock(wall: SignSessionTests.at(19))
    let first = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    #expect(first.pump.current?.program == "night")
    #expect(first.perform(.chooseProgram("day")) == .success(.scheduled))
    #expect(first.kept.chosen == SignState.ChosenProgram(name: "day", until: SignSessionTests.at(9, day: 1)))
    clock.setWall(SignSessionTests.at(23))
    let second = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    #expect(second.pump.current?.program == "day" && second.pump.current?.chosen == true)
    #expect(SignSessionTests.shown(second) == ["Day"])
    // A choice from a live source (MQTT content is; a choice is a person's) is kept too;
    // going back to the schedule forgets it.
    #expect(second.perform(.chooseProgram(nil)) == .success(.scheduled))
    #expect(second.kept.chosen == nil && second.pump.current?.program == "night")
    // A program that is not there is refused with its field, and nothing is kept.
    #expect(second.perform(.chooseProgram("lunch")) == .failure(SignRefusal(.invalid, field: "name", "no program named 'lunch' (programs: day, night)")))
    #expect(second.kept.chosen == nil)
  }

  @Test func theLEDsAreDarkWhenTheSignIsOffAndTheComposedFrameIsThereByName() throws {
    let folder = try Folder()
    let options = try SignSessionTests.options(
      state: folder.path + "/sign.state", schedule: #"{"off": [{"times": ["22:00-07:00"]}]}"#)
    let clock = ManualSignClock(wall: SignSessionTests.at(23))
    let session = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    let routes = SignRoutes(session: session).responder(hosts: HostNames(machineName: "signpi"), token: nil)
    func get(_ path: String, _ query: [String: String] = [:]) -> HTTPResponse {
      routes.respond(to: HTTPRequest(method: "GET", path: path, query: query, headers: ["Host": "127.0.0.1"])).wait()
    }
    var frame = Frame(width: 32, height: 8)
    var workspace = FrameWorkspace()
    session.timeline.render(at: 0, into: &frame, workspace: &workspace)
    _ = session.lights.record(frame, changed: true)
    #expect(frame.pixels.litCount > 0, "the sign composed its message")
    let dark = String(decoding: get("/api/frame").body, as: UTF8.self)
    #expect(!dark.contains("#") && get("/api/frame").header("X-Sign-On") == "false", "\(dark)")
    #expect(String(decoding: get("/api/frame", ["show": "composed"]).body, as: UTF8.self) == frame.pixels.text + "\n")
    #expect(get("/api/frame", ["show": "nothing"]).status == 400)
    let state = try JSONParser.parse(String(decoding: get("/api/state").body, as: UTF8.self))
    #expect(state["on"] == .bool(false) && state["dark"]?["reason"] == .string("off hours"))
    #expect(state["dark"]?["until"]?["at"] == .number(SignSessionTests.at(7, day: 1)), "\(state["dark"] ?? .null)")
    // Woken until the period ends: lit; turned off by a person: dark until turned on.
    #expect(session.perform(.power(on: true)) == .success(.changed(kept: nil, until: nil)))
    #expect(String(decoding: get("/api/frame").body, as: UTF8.self) == frame.pixels.text + "\n")
    #expect(session.state()["dark"] == .null)
    #expect(session.perform(.power(on: false)) == .success(.changed(kept: nil, until: nil)))
    #expect(session.state()["dark"] == .object([("reason", .string("turned off")), ("until", .null)]))
    // The event stream's frames are the LEDs' too.
    let events = try #require(get("/api/events").events)
    let sent = String(decoding: events.next(now: 0) ?? [], as: UTF8.self)
    #expect(sent.contains("\"on\":false,\"rows\":[\"00000000\""), "\(sent)")
  }

  @Test func mqttPayloadsBecomeTheSameCommandsAsTheAPI() throws {
    #expect(try MQTTBridge.command("brightness", "7") == .brightness(7))
    #expect(try MQTTBridge.command("brightness", #"{"brightness": 3}"#) == .brightness(3))
    #expect(try MQTTBridge.command("power", "OFF") == .power(on: false))
    #expect(try MQTTBridge.command("program", "") == .chooseProgram(nil))
    #expect(try MQTTBridge.command("dismiss", "4") == .dismiss(id: 4))
    #expect(try MQTTBridge.command("message", "Hi") == .content(.object([("messages", .array([.string("Hi")])), ("immediately", .bool(true))]), replacing: false))
    // The same refusal, with its field, as the API gives for the same value.
    #expect(throws: JSONFieldError(field: "brightness", reason: "16 is out of range (0 to 15)")) { try MQTTBridge.command("brightness", "16") }
  }
}

/// The night and off hours set over the API: a sunset rule needs the sign's location, which
/// the same request may give; kept across a restart.
@Suite struct NightAndOffHoursTests {
  @Test func aSunsetRuleWithTheSignsLocationIsKeptAcrossARestart() throws {
    let folder = try SignSessionTests.Folder()
    let options = try SignSessionTests.options(state: folder.path + "/sign.state")
    let clock = ManualSignClock(wall: SignSessionTests.at(10))
    let first = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    let sunset = #"{"brightness": [{"at": "07:00", "level": 12}, {"at": "sunset", "offset": -15, "level": 3}], "off": [{"times": ["01:00-06:00"]}]}"#
    guard case .failure(let refusal) = first.perform(.schedule(try JSONParser.parse(sunset))) else {
      Issue.record("a sunset rule without a location was taken")
      return
    }
    #expect(refusal.description == #"brightness[1].at: sunset needs the sign's "location" (latitude and longitude)"#)
    let located = #"{"location": {"latitude": 39.9, "longitude": 116.4}, "brightness": [{"at": "07:00", "level": 12}, {"at": "sunset", "offset": -15, "level": 3}]}"#
    #expect(first.perform(.schedule(try JSONParser.parse(located))) == .success(.scheduled))
    #expect(first.pump.schedule.location == Location(latitude: 39.9, longitude: 116.4))
    #expect(first.scheduleView()?["schedule"]?["location"]?["latitude"] == .number(39.9))
    let second = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    #expect(second.pump.schedule.location == Location(latitude: 39.9, longitude: 116.4))
    #expect(second.pump.schedule.brightness.count == 2)
  }
}

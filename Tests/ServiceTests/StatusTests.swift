import Platform
import Foundation
import HTTP
import SimpleJSON
import Testing

@testable import Marquee
@testable import TimelineCore
@testable import MarqueeServe
@testable import SignService

/// `GET /api/status`: what an owner (or whoever they call) needs to see first.
@Suite struct StatusTests {
  @Test func aBrokenStateFileAnUnsetClockAndTheLastWarningsAreShown() throws {
    let folder = try SignSessionTests.Folder()
    let state = folder.path + "/sign.state"
    try "{not json".write(toFile: state, atomically: true, encoding: .utf8)
    var options = RunOptions()
    options.width = 32
    options.zone.messages = ["Hi"]
    options.statePath = state
    let clock = ManualSignClock(wall: 1_800_000_000, wallIsSet: false)
    let session = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    let routes = SignRoutes(session: session, version: "9.9.9")
    let responder = routes.responder(hosts: HostNames(machineName: "signpi"), token: nil)
    clock.advance(by: 90)
    let answer = responder.respond(to: HTTPRequest(method: "GET", path: "/api/status", headers: ["Host": "127.0.0.1"])).wait()
    #expect(answer.status == 200)
    let status = try JSONParser.parse(String(decoding: answer.body, as: UTF8.self))
    #expect(status["version"] == .string("9.9.9") && status["uptimeSeconds"] == .number(90))
    #expect(status["width"] == .number(32) && status["board"] == .null && status["mqtt"] == .null)
    #expect(status["iconUploads"] == .bool(false), "no token and no icon folder: no uploads")
    #expect(status["clockSynchronized"] == .bool(false))
    #expect(status["stateFile"]?["healthy"] == .bool(false))
    guard case .string(let setAside)? = status["stateFile"]?["setAside"] else {
      Issue.record("no setAside in \(status)")
      return
    }
    #expect(setAside.contains("kept aside as \(state).broken-"), "\(setAside)")
    guard case .array(let reports)? = status["reports"] else {
      Issue.record("no reports")
      return
    }
    #expect(reports.contains { $0["level"] == .string("warning") && $0["text"] == .string(setAside) })
    // A healthy sign: the file is written again at the next change, and says so.
    _ = session.perform(.brightness(3))
    let healthy = try SignSession(options, stop: StopFlag(), clock: clock.clock, reports: .inMemory())
    let after = SignRoutes(session: healthy).status()
    #expect(after["stateFile"]?["healthy"] == .bool(true) && after["clockSynchronized"] == .bool(false))
  }
}

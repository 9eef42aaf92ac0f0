import Foundation
import Glibc
import SimpleJSON
import Testing

/// Programs set over the API: checked whole, played at once, kept in the state file.
@Suite(.serialized) struct ProgramsAPITests {
  /// Waits (at most 10 s) until the sign shows `wanted`; what it shows then.
  func shows(_ sign: ServedSign, _ wanted: [String]) -> [String]? {
    var shown: [String]?
    for _ in 0..<500 where shown != wanted {
      shown = asciiFrames(sign.client.request("GET", "/api/frame")?.text ?? "").first
      if shown != wanted { usleep(20_000) }
    }
    return shown
  }

  @Test func createPlayKeepAndDeleteAProgram() throws {
    let folder = NSTemporaryDirectory() + "marquee-programs-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let state = folder + "/sign.state"
    let arguments = ["--state", state, "--output", "ascii", "--width", "32", "Own"]
    let sign = try ServedSign(arguments)
    let client = sign.client
    #expect(try ServeTests.json(client.request("GET", "/api/programs"))["programs"] == .array([]))
    #expect(client.request("GET", "/api/schedule")?.status == 404, "no schedule yet")
    // A bad program changes nothing and names its field.
    let bad = client.request("PUT", "/api/programs/now", body: #"{"times": ["9-17"], "messages": ["NOW"]}"#)
    #expect(bad?.status == 400 && bad?.text.contains("programs[0].times[0]: expected HH:MM-HH:MM") == true, "\(bad?.text ?? "")")
    let font = client.request("PUT", "/api/programs/now", body: #"{"messages": ["NOW"], "font": "/etc/passwd"}"#)
    #expect(font?.status == 400 && font?.text.contains("programs[0].font: '/etc/passwd' is not a font this sign offers") == true, "\(font?.text ?? "")")
    let named = client.request("PUT", "/api/programs/now", body: #"{"name": "later", "messages": ["NOW"]}"#)
    #expect(named?.status == 400 && named?.text.contains("name: 'later' differs from the name in the path") == true)
    #expect(try ServeTests.json(client.request("GET", "/api/programs"))["programs"] == .array([]))
    // A program due all day plays at once.
    let put = client.request("PUT", "/api/programs/now", body: #"{"times": ["00:00-24:00"], "messages": ["NOW"]}"#)
    #expect(put?.status == 200, "\(put?.text ?? "")")
    let now = try #require(asciiFrames(try BinaryRunner.run(["--output", "ascii", "--width", "32", "--frames", "1", "NOW"]).stdout).first)
    let own = try #require(asciiFrames(try BinaryRunner.run(["--output", "ascii", "--width", "32", "--frames", "1", "Own"]).stdout).first)
    #expect(shows(sign, now) == now)
    let schedule = try ServeTests.json(client.request("GET", "/api/schedule"))
    #expect(schedule["program"] == .string("now") && schedule["reason"] == .string("it is due now"))
    #expect(try ServeTests.json(client.request("GET", "/api/programs/now"))["messages"] == .array([.string("NOW")]))
    #expect(client.request("GET", "/api/programs/none")?.status == 404)
    #expect(sign.stop().status == 128 + SIGTERM)
    // After a restart the program is still there and playing.
    let again = try ServedSign(arguments)
    #expect(try ServeTests.json(again.client.request("GET", "/api/schedule"))["program"] == .string("now"))
    #expect(shows(again, now) == now)
    // Deleted, the sign goes back to its own messages.
    #expect(again.client.request("DELETE", "/api/programs/now")?.status == 200)
    #expect(again.client.request("DELETE", "/api/programs/now")?.status == 404)
    #expect(shows(again, own) == own)
    _ = again.stop()
  }
}

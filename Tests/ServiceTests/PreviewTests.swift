import Platform
import Foundation
import Synchronization
import HTTP
import MatrixCore
import SimpleJSON
import Testing
import TestSupport

@testable import Marquee
@testable import TimelineCore
@testable import MarqueeServe
@testable import SignService

/// `POST /api/preview`: a draft drawn by the sign's own engine into a GIF, the sign itself
/// untouched; refused as `PATCH /api/content` refuses; one at a time; bounded.
@Suite struct PreviewTests {
  static let pillow = PythonTools.pillow != nil

  /// The LEDs of each frame of a GIF the sign drew, read by Pillow (an independent decoder)
  /// at each dot's centre: lit when brighter than the dark dots' colour.
  static func decode(_ gif: [UInt8], width: Int, height: Int) throws -> [Framebuffer] {
    let path = NSTemporaryDirectory() + "marquee-preview-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).gif"
    try Data(gif).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let script = """
      import sys
      from PIL import Image, ImageSequence
      im = Image.open(sys.argv[1]); w, h = int(sys.argv[2]), int(sys.argv[3]); s = im.size[0] // w
      for f in ImageSequence.Iterator(im):
          rgb = f.convert("RGB")
          print("".join("#" if sum(rgb.getpixel((x * s + s // 2 - (1 if s > 2 else 0), y * s + s // 2 - (1 if s > 2 else 0)))) > 200 else "." for y in range(h) for x in range(w)))
      """
    let result = try ChildProcess.run(PythonTools.pillow!, ["-c", script, path, "\(width)", "\(height)"], timeout: 60)
    #expect(result.status == 0, "\(result.stderr)")
    return try result.stdout.split(separator: "\n").map { line in
      let rows = stride(from: 0, to: line.count, by: width).map { start in
        String(line.dropFirst(start).prefix(width))
      }
      return try Framebuffer(text: rows.joined(separator: "\n"))
    }
  }

  /// The first frame of the test's two-zone sign built with "Sale" in the right zone, its
  /// starting options otherwise: what a preview of that draft must draw first.
  static func firstFrameShowingSale() throws -> Frame {
    var options = RunOptions()
    options.width = 64
    options.configZones = try JSONParser.parse(SignRoutesTests.Served.zones.replacingOccurrences(of: #"["R"]"#, with: #"["Sale"]"#))
    options.clockStart = 0
    let expected = try SignSession(options, stop: StopFlag(), clock: ManualSignClock(wall: 0).clock, reports: .inMemory())
    var frame = Frame(width: 64, height: 8)
    var workspace = FrameWorkspace()
    expected.controller.sign.render(at: 0, into: &frame, workspace: &workspace)
    return frame
  }

  @Test(.enabled(if: pillow, "needs python3 with Pillow (Debian package python3-pil)"))
  func theDraftIsDrawnAsTheSignWouldShowItAndTheSignDoesNotChange() throws {
    let served = try SignRoutesTests.Served()
    let before = served.session.state()
    let answer = served.send("POST", "/api/preview?seconds=1", #"{"zone": "right", "messages": ["Sale"], "mode": "auto"}"#)
    #expect(answer.status == 200 && answer.header("content-type") == "image/gif", "\(String(decoding: answer.body, as: UTF8.self))")
    #expect(Array(answer.body.prefix(6)) == Array("GIF89a".utf8))
    // Nothing changed on the sign.
    #expect(served.session.state() == before)
    // The first frame: the left zone as it is, the right one showing the draft, as a sign
    // built with that content draws it.
    let frames = try PreviewTests.decode(answer.body, width: 64, height: 8)
    #expect(frames.count == 20, "one second at 20 frames a second")
    let frame = try PreviewTests.firstFrameShowingSale()
    #expect(frames.first == frame.pixels, "\(frames.first.map { $0.text } ?? "none")\nwant\n\(frame.pixels.text)")
  }

  /// `replacing=true`: the zone drawn from its starting options, as a program plays it (the
  /// page's program preview), not over what a person changed since.
  @Test(.enabled(if: pillow, "needs python3 with Pillow (Debian package python3-pil)"))
  func aProgramIsPreviewedFromTheZonesStartingOptions() throws {
    let served = try SignRoutesTests.Served()
    #expect(served.send("PATCH", "/api/content", #"{"zone": "right", "font": "5x7"}"#).status == 200)
    let frame = try PreviewTests.firstFrameShowingSale()
    let body = #"{"zones": [{"zone": "right", "messages": ["Sale"]}]}"#
    let replaced = served.send("POST", "/api/preview?seconds=1&replacing=true", body)
    #expect(replaced.status == 200)
    #expect(try PreviewTests.decode(replaced.body, width: 64, height: 8).first == frame.pixels, "drawn in the zone's starting font (3x5)")
    let merged = served.send("POST", "/api/preview?seconds=1", body)
    #expect(try PreviewTests.decode(merged.body, width: 64, height: 8).first != frame.pixels, "merged over the 5x7 the person set")
    let refused = served.send("POST", "/api/preview?replacing=maybe", body)
    #expect(refused.status == 400 && String(decoding: refused.body, as: UTF8.self).contains("replacing: expected true or false"))
  }

  @Test func aBadDraftIsRefusedAsAChangeWouldBe() throws {
    let served = try SignRoutesTests.Served()
    for body in [#"{"zones": [{"zone": "left", "speed": "fast"}]}"#, #"{"zone": "nowhere", "messages": ["x"]}"#, #"{"messages": ["x"], "font": "/etc/passwd"}"#] {
      let preview = served.send("POST", "/api/preview", body)
      let change = served.send("PATCH", "/api/content", body)
      #expect(preview.status == change.status && preview.status >= 400, "\(body)")
      #expect(try served.json(preview)["error"] == served.json(change)["error"], "\(body)")
    }
    for seconds in ["0", "11", "nan", "x", "-1"] {
      let answer = served.send("POST", "/api/preview?seconds=\(seconds)", #"{"messages": ["x"]}"#)
      let error = try served.json(answer)["error"]
      guard case .string(let text)? = error else { Issue.record("no error for \(seconds)"); continue }
      #expect(answer.status == 400 && text.hasPrefix("seconds: "), "\(seconds): \(text)")
    }
  }

  /// `seconds=whole`: one whole pass of the draft, however long (up to a minute), the frames
  /// thinned to the pixel budget; its last frame is the loop's end, its first its start.
  @Test(.enabled(if: pillow, "needs python3 with Pillow (Debian package python3-pil)"))
  func theWholeMessageIsPreviewedNotItsFirstSeconds() throws {
    let served = try SignRoutesTests.Served()
    let draft = #"{"zone": "right", "messages": ["A long message that takes a while to pass"], "mode": "scroll", "speed": 10}"#
    let answer = served.send("POST", "/api/preview?seconds=whole", draft)
    #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
    // The right zone's loop, as the sign that shows the draft has it.
    var options = RunOptions()
    options.width = 64
    options.configZones = try JSONParser.parse(SignRoutesTests.Served.zones.replacingOccurrences(
      of: #""messages": ["R"]"#, with: #""messages": ["A long message that takes a while to pass"], "mode": "scroll", "speed": 10"#))
    let session = try SignSession(options, stop: StopFlag(), clock: ManualSignClock(wall: 0).clock, reports: .inMemory())
    let loop = try #require(session.controller.sign.loopDuration)
    #expect(loop > SignSession.PreviewLimits.longestSeconds, "a loop longer than a preview of a length asked for: \(loop) s")
    let frames = try PreviewTests.decode(answer.body, width: 64, height: 8)
    let expected = min(Int((loop * SignSession.PreviewLimits.fps).rounded()), SignSession.PreviewLimits.pixelBudget / (64 * 6 * 8 * 6))
    #expect(frames.count == expected, "\(frames.count) frames for a \(loop) s loop")
    #expect(served.send("POST", "/api/preview?seconds=forever", draft).status == 400)
  }

  @Test func oneAtATimeAndBounded() throws {
    let served = try SignRoutesTests.Served()
    served.session.previewing.store(true, ordering: .relaxed)
    let busy = served.send("POST", "/api/preview", #"{"messages": ["x"]}"#)
    #expect(busy.status == 503)
    served.session.previewing.store(false, ordering: .relaxed)
    #expect(served.send("POST", "/api/preview", #"{"messages": ["x"]}"#).status == 200)
    // Asked four at a time, the sign draws one and answers the others 503 at once: none
    // waits in a queue behind the one being drawn.
    var wideOptions = RunOptions()
    wideOptions.width = 4096
    wideOptions.height = 64
    wideOptions.zone.messages = ["Wide"]
    let wideSign = try SignSession(wideOptions, stop: StopFlag(), clock: ManualSignClock(wall: 0).clock, reports: .inMemory())
    let wideRoutes = SignRoutes(session: wideSign).responder(hosts: HostNames(machineName: "signpi"), token: nil)
    let answers = Mutex<[(status: Int, bytes: Int)]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      let request = HTTPRequest(
        method: "POST", path: "/api/preview", query: ["seconds": "10"], headers: ["Host": "127.0.0.1", "Content-Type": "application/json"],
        body: Array(#"{"messages": ["x"]}"#.utf8))
      let response = wideRoutes.respond(to: request).wait()
      answers.withLock { $0.append((response.status, response.body.count)) }
    }
    let answered = answers.withLock { $0 }.map(\.status).sorted()
    #expect(answered.count == 4 && answered.contains(200) && answered.contains(503), "\(answered)")
    // The one drawn, of a large sign: fewer frames, never more image pixels than the budget.
    let drawn = answers.withLock { $0 }.first { $0.status == 200 }?.bytes ?? 0
    #expect(drawn > 0 && drawn < 4 << 20, "\(drawn) bytes")
  }
}

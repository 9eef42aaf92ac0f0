import Foundation
import Marquee
import Testing

@Suite(.offThePool) struct LayoutBinaryTests {
  func write(_ json: String) throws -> String {
    let path = NSTemporaryDirectory() + "marquee-layout-\(UUID().uuidString).json"
    try json.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  static let clock = #"{"name": "clock", "x": 0, "y": 0, "width": 26, "height": 8, "messages": ["12:00"]}"#
  static let ticker = #"{"name": "ticker", "x": 26, "y": 0, "width": 38, "height": 8, "mode": "scroll", "messages": ["NEWS: trains run on time"]}"#

  func frames(_ layout: String) throws -> [[String]] {
    let path = try write(layout)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try BinaryRunner.run(["--layout", path, "--width", "64", "--height", "8", "--frames", "40", "--no-wait", "--output", "ascii"])
    #expect(result.status == 0, "\(result.stderr)")
    return asciiFrames(result.stdout)
  }

  @Test func aStillZoneAndAScrollingZoneSideBySideAreTheUnionOfEachAlone() throws {
    let both = try frames(#"{"zones": [\#(LayoutBinaryTests.clock), \#(LayoutBinaryTests.ticker)]}"#)
    let clockAlone = try frames(#"{"zones": [\#(LayoutBinaryTests.clock)]}"#)
    let tickerAlone = try frames(#"{"zones": [\#(LayoutBinaryTests.ticker)]}"#)
    try #require(both.count == 40 && clockAlone.count == 40 && tickerAlone.count == 40)
    for i in 0..<40 {
      for row in 0..<8 {
        let a = Array(clockAlone[i][row]), b = Array(tickerAlone[i][row]), ab = Array(both[i][row])
        #expect(!a[26...].contains("#") && !b[..<26].contains("#"), "a zone drew outside itself")
        let union = String(zip(a, b).map { $0 == "#" || $1 == "#" ? "#" : "." })
        #expect(String(ab) == union, "frame \(i) row \(row)")
      }
    }
    // The clock stands still; the ticker moves.
    #expect(Set(clockAlone.map { $0 }).count == 1)
    #expect(Set(tickerAlone.map { $0 }).count > 10)
  }

  @Test(arguments: [
    // Where the field stands (a missing one: where its zone starts), then what is wrong.
    (#"{"zones": []}"#, ":1:2: field 'zones': expected a non-empty array of zones"),
    (#"{"zones": [{"x": 0, "y": 0, "height": 8}]}"#, ":1:12: field 'zones[0].width': missing (it is required)"),
    (#"{"zones": [{"x": 0, "y": 0, "width": 8, "height": 8, "speed": "fast"}]}"#, ":1:54: field 'zones[0].speed': expected a number"),
    (#"{"zones": [{"x": 0, "y": 0, "width": 8, "height": 8, "in": "wipey"}]}"#, ":1:54: field 'zones[0].in': unknown effect 'wipey'"),
    (#"{"zones": [{"x": 60, "y": 0, "width": 8, "height": 8}]}"#, ": zone 'zone1' (8x8 at 60,0) does not fit the 64x8 sign"),
    (#"{"zones": [{"x": 0, "y": 0, "width": 8, "height": 8, "colour": "red"}]}"#, ":1:54: field 'zones[0].colour': unknown field"),
    (#"{"zones": [}"#, ": line 1, column 12"),
    (#"{"zones": [{"x": 0, "y": 0, "width": 8, "height": 8, "in": "fade"}]}"#, ":1:54: field 'zones[0].in': applies in cycle mode only"),
  ])
  func badLayoutsNameTheFileAndField(json: String, message: String) throws {
    let path = try write(json)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try BinaryRunner.run(["--layout", path, "--frames", "1", "--output", "ascii"])
    // A bad value in a file the command line names is a usage error, as on the command line.
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: \(path)\(message)"), "\(result.stderr)")
  }

  @Test func theExampleLayoutsRun() throws {
    let two = try BinaryRunner.run(["--layout", "Docs/examples/two-zones.json", "--frames", "3", "--no-wait", "--output", "ascii"])
    #expect(two.status == 0 && asciiFrames(two.stdout).count == 3)
    // The clock zone shows the time: 1700000000 is 22:13 UTC.
    let clocked = try BinaryRunner.run(
      ["--layout", "Docs/examples/two-zones.json", "--clock-start", "1700000000", "--frames", "1", "--no-wait", "--output", "ascii"],
      environment: ["TZ": "UTC"])
    let clock = try Sign(width: 26, height: 8, content: ZoneContent(messages: ["22:13"], style: .init(alignment: .center)))
    let expected = clock.frame(at: 0).pixels.text.split(separator: "\n").map(String.init)
    #expect(asciiFrames(clocked.stdout).first?.map { String($0.prefix(26)) } == expected)
    let lines = try BinaryRunner.run(["--layout", "Docs/examples/two-lines.json", "--width", "32", "--height", "16", "--frames", "3", "--no-wait", "--output", "ascii"])
    #expect(lines.status == 0 && asciiFrames(lines.stdout).first?.count == 16)
  }
}

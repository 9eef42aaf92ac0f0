import Foundation
import SimpleJSON
import TestSupport
import Testing

/// Off periods on real chip protocols: the chips are put to sleep once (MAX7219 shutdown,
/// HUB12 output off with the scan idle), nothing more is written while the sign is off, and
/// `POST /api/power` wakes it or turns it off, kept across a restart by the state file.
@Suite(.offThePool) struct OffPeriodTests {
  static let offAllDay = #"{"messages": ["Hi"], "off": [{"times": ["00:00-24:00"]}]}"#

  func config(_ json: String) throws -> String {
    let path = NSTemporaryDirectory() + "marquee-off-\(getpid())-\(UUID().uuidString).json"
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The MAX7219 register writes of a dump, as (register, data) of the first chip of each
  /// latched transaction (4 chips: 8 bytes).
  func writes(_ dump: String) -> [(register: UInt8, data: UInt8)] {
    let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dump))) ?? Data())
    return stride(from: 0, to: bytes.count - 7, by: 8).map { (bytes[$0], bytes[$0 + 1]) }
  }

  @Test func theMAX7219SleepsThroughAnOffPeriodAndWakesOnRequest() throws {
    let path = try config(OffPeriodTests.offAllDay)
    let dump = NSTemporaryDirectory() + "marquee-off-\(getpid()).bin"
    // The state file in a folder of its own: the sign refuses one others may write (/tmp).
    let folder = NSTemporaryDirectory() + "marquee-off-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let state = folder + "/sign.state"
    defer { for file in [path, dump, folder] { try? FileManager.default.removeItem(atPath: file) } }
    var sign = try ServedSign(["--config", path, "--board", "max7219-fc16-32x8", "--spi-dump", dump, "--fps", "20", "--state", state])
    // Shutdown (register 0x0C, 0) once, after the start-up sequence; then nothing at all.
    #expect(eventually { writes(dump).last.map { $0 == (0x0C, 0) } ?? false })
    // That nothing more is written while asleep, through ten minutes: OffPeriodSessionTests,
    // in-process on the player's own clock.
    let asleep = writes(dump).count
    #expect(try ServeTests.json(sign.client.request("GET", "/api/state"))["on"] == .bool(false))
    // Woken over the API: out of shutdown (0x0C, 1) and the frame whole.
    let woken = try ServeTests.json(sign.client.request("POST", "/api/power", body: #"{"on": true}"#))
    #expect(woken["on"] == .bool(true))
    #expect(eventually { writes(dump).dropFirst(asleep).contains { $0 == (0x0C, 1) } && writes(dump).dropFirst(asleep).contains { $0.register == 0x08 } })
    // Turned off again: shutdown, and kept across a restart (it starts dark, never lit).
    #expect(sign.client.request("POST", "/api/power", body: #"{"on": false}"#)?.status == 200)
    #expect(eventually { writes(dump).last.map { $0 == (0x0C, 0) } ?? false })
    #expect(sign.client.request("POST", "/api/power", body: #"{"on": "yes"}"#)?.status == 400)
    #expect(sign.client.request("POST", "/api/power", body: #"{}"#)?.status == 400)
    _ = sign.stop()
    // The restarted sign's writes alone: the first one's (lit rows among them) go first, or
    // a slow start would be judged on them.
    try FileManager.default.removeItem(atPath: dump)
    try OffPeriodTests.offAllDay.replacingOccurrences(of: #", "off": [{"times": ["00:00-24:00"]}]"#, with: "")
      .write(toFile: path, atomically: true, encoding: .utf8)
    sign = try ServedSign(["--config", path, "--board", "max7219-fc16-32x8", "--spi-dump", dump, "--fps", "20", "--state", state])
    #expect(eventually { writes(dump).last.map { $0 == (0x0C, 0) } ?? false })
    #expect(!writes(dump).contains { (1...8).contains($0.register) && $0.data != 0 }, "a lit row after the restart")
    #expect(try ServeTests.json(sign.client.request("GET", "/api/state"))["on"] == .bool(false))
    _ = sign.stop()
  }

  @Test func theHUB12ScanIdlesWithOutputOffThroughAnOffPeriod() throws {
    let path = try config(OffPeriodTests.offAllDay)
    let log = NSTemporaryDirectory() + "marquee-off-\(getpid())-\(UUID().uuidString).log"
    defer { for file in [path, log] { try? FileManager.default.removeItem(atPath: file) } }
    let child = try BinaryRunner.start(
      ["--config", path, "--board", "hub12-p10-32x16", "--fps", "20"],
      environment: HUB12KernelTests.environment.merging(["MARQUEE_FAKE_LOG": log]) { $1 })
    func lines() -> [String] { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
    // The lines are requested, then nothing scans: a scanning sign writes thousands of
    // lines a second.
    #expect(eventually { lines().contains { $0.hasPrefix("lines ") } })
    usleep(300_000)
    let idle = lines().count
    usleep(700_000)
    #expect(lines().count == idle, "\(lines().count - idle) kernel calls while off")
    #expect(!child.ends(within: 0))
    child.send(SIGTERM)
    #expect(child.wait(timeout: 20).status == 128 + SIGTERM)
  }
}

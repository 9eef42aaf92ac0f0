import Foundation
import Platform
import TestSupport
import Testing

/// Every config in Docs/examples starts under the commands its documents name, as a reader
/// copies them: `marquee`, `marquee serve` (answering `GET /api/state`) and, for programs,
/// `marquee schedule`. A new example without a row here fails ``everyExampleHasARow``.
@Suite(.offThePool) struct ExampleConfigTests {
  /// An example and how the docs run it: as a config (`--config`) or a layout (`--layout`),
  /// with the size or board it needs, and whether it has a schedule.
  struct Example: Sendable, CustomStringConvertible {
    var file: String
    var option: String
    var extra: [String] = []
    var scheduled = false
    var description: String { file }
  }

  static let examples = [
    Example(file: "sign.json", option: "--config", extra: ["--simulate", "--on-eof", "keep"]),
    Example(file: "programs.json", option: "--config", scheduled: true),
    Example(file: "two-zones.json", option: "--layout", extra: ["--width", "64", "--height", "8"]),
    Example(file: "two-lines.json", option: "--layout", extra: ["--width", "32", "--height", "16"]),
    Example(file: "rgb-zones.json", option: "--layout", extra: ["--board", "ws2812-16x16", "--simulate"]),
    Example(file: "sources.json", option: "--config"),
  ]

  @Test func everyExampleHasARow() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: "Docs/examples").filter { $0.hasSuffix(".json") }.sorted()
    #expect(files == ExampleConfigTests.examples.map(\.file).sorted())
  }

  @Test(arguments: examples)
  func runsUnderMarquee(_ example: Example) throws {
    let result = try BinaryRunner.run(
      [example.option, "Docs/examples/" + example.file] + example.extra + ["--output", "ascii", "--frames", "3", "--no-wait"], stdin: "")
    #expect(result.status == 0, "\(example): \(result.stderr)")
    // A schedule may have the sign in its off hours now: dark is right then.
    #expect(example.scheduled || result.stdout.contains("#"), "\(example): nothing lit")
  }

  @Test(arguments: examples)
  func runsUnderMarqueeServe(_ example: Example) throws {
    let sign = try ServedSign([example.option, "Docs/examples/" + example.file] + example.extra + ["--output", "ascii"])
    let state = try ServeTests.json(sign.client.request("GET", "/api/state"))
    #expect(state["zones"]?.arrayValue?.isEmpty == false, "\(example): \(state)")
    if example.scheduled {
      #expect(sign.client.request("GET", "/api/schedule")?.status == 200)
    }
    let ended = sign.stop()
    #expect(ended.status == 128 + SIGTERM, "\(example): \(ended.stderr)")
  }

  @Test(arguments: examples.filter(\.scheduled))
  func itsScheduleIsListed(_ example: Example) throws {
    let result = try BinaryRunner.run(["schedule", "--config", "Docs/examples/" + example.file, "--days", "2"])
    #expect(result.status == 0 && !result.stdout.isEmpty, "\(example): \(result.stderr)")
  }
}

import Foundation
import TestSupport
import Marquee
import Testing

/// Every Swift block of README.md and Docs/*.md is compiled by this package and, when it is a
/// program, run: each block stands verbatim in a file under Tests/ (a `DocExamples` program
/// or a test), so a doc example that stops compiling fails the build, and one that crashes or
/// goes wrong fails here.
@Suite(.offThePool) struct DocExampleTests {
  /// A ```swift block: where it is and its text, its indentation removed.
  struct Block: CustomStringConvertible, Sendable {
    var file: String
    var line: Int
    var text: String
    var description: String { "\(file):\(line)" }
  }

  static func blocks() -> [Block] {
    var found: [Block] = []
    for (file, text) in markdownDocuments() {
      var current: (line: Int, indent: Int, lines: [String])?
      for (index, line) in text.components(separatedBy: "\n").enumerated() {
        let trimmed = line.drop { $0 == " " }
        let indent = line.count - trimmed.count
        if let block = current {
          if trimmed == "```" && indent == block.indent {
            found.append(Block(file: file, line: block.line, text: block.lines.map { $0 + "\n" }.joined()))
            current = nil
          } else {
            current!.lines.append(String(line.dropFirst(min(block.indent, indent))))
          }
        } else if trimmed == "```swift" {
          current = (index + 1, indent, [])
        }
      }
    }
    return found
  }

  /// Blocks that are not Swift programs or tests, and what checks them instead.
  static let notPrograms: [String: String] = [
    ".testTarget(name: \"MySignTests\"": "a fragment of the reader's Package.swift; the products it names are checked below",
    "dependencies: [.package(": "a fragment of the reader's Package.swift; the products it names are checked below",
  ]

  /// The text of every Swift file under Tests/.
  static func compiledSources() -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: "Tests") else { return [] }
    return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
      .compactMap { try? String(contentsOfFile: "Tests/" + $0, encoding: .utf8) }
  }

  @Test func everySwiftBlockIsCompiledByThisPackage() {
    let blocks = DocExampleTests.blocks()
    #expect(blocks.count >= 6, "found \(blocks.map(\.description))")
    let sources = DocExampleTests.compiledSources()
    for block in blocks where !DocExampleTests.notPrograms.keys.contains(where: block.text.hasPrefix) {
      #expect(sources.contains { $0.contains(block.text) },
              "\(block) is not in any Swift file under Tests/: copy it into Tests/DocExamples (see Package.swift)")
    }
  }

  @Test func theManifestFragmentsNameThisPackagesProducts() throws {
    let manifest = try String(contentsOfFile: "Package.swift", encoding: .utf8)
    let fragments = DocExampleTests.blocks().filter { block in DocExampleTests.notPrograms.keys.contains(where: block.text.hasPrefix) }
    #expect(fragments.count == DocExampleTests.notPrograms.count)
    for fragment in fragments {
      let products = fragment.text.components(separatedBy: ".product(name: \"").dropFirst().map { $0.prefix { $0 != "\"" } }
      #expect(!products.isEmpty, "\(fragment)")
      for product in products {
        #expect(manifest.contains(".library(name: \"\(product)\""), "\(fragment): no library product \(product)")
      }
    }
  }

  /// Runs a built example program (bounded) and returns its output.
  func run(_ name: String) throws -> String {
    let path = URL(fileURLWithPath: BinaryRunner.path).deletingLastPathComponent().appendingPathComponent(name).path
    let result = try ChildProcess.run(path, [], timeout: 60)
    #expect(!result.timedOut && !result.signalled && result.status == 0, "\(name) failed: \(result.stderr)\(result.stdout)")
    return result.stdout
  }

  @Test func theReadmeExamplePrintsTheSignAtTwoAndAHalfSeconds() throws {
    let lines = try run("ReadmeExample").split(separator: "\n")
    #expect(lines.count == 8 && lines.allSatisfy { $0.count == 32 })
    #expect(lines.contains { $0.contains("#") })
  }

  @Test func theZonesExampleRunsAndTheClockChangesWhileItPlays() throws {
    let output = try run("ZonesExample")
    #expect(output.contains("ticker: message 0 started at 0.0s"))
    // The frames' rows (events and frames interleave on standard output), eight to a frame.
    let rows = output.split(separator: "\n").filter { $0.count == 64 && $0.allSatisfy { $0 == "#" || $0 == "." } }
    let clocks = stride(from: 0, to: rows.count - 7, by: 8).map { start in
      rows[start..<start + 8].map { String($0.prefix(26)) }.joined(separator: "\n")
    }
    func clock(_ text: String) throws -> String {
      let sign = try Sign(width: 26, height: 8, content: ZoneContent(messages: [text], style: .init(alignment: .center)))
      return sign.frame(at: 0).pixels.text.split(separator: "\n").joined(separator: "\n")
    }
    let (before, after) = (try clock("12:00"), try clock("12:01"))
    #expect(clocks.contains(before), "the clock showed 12:00 at first")
    #expect(clocks.contains(after), "the clock shows 12:01 after the live update")
  }

  /// The service example builds the sign, feeds it a document and plays two frames: both
  /// show the new text (the update is applied before the first frame is drawn).
  @Test func theServiceExampleShowsTheFedText() throws {
    let frames = asciiFrames(try run("ServiceExample"))
    let expected = try #require(asciiFrames(try BinaryRunner.run(["--width", "64", "--frames", "1", "--output", "ascii", "Open 9-18"]).stdout).first)
    #expect(frames.count == 2 && frames.allSatisfy { $0 == expected }, "\(frames)")
  }

  @Test func thePowerMeterAndTheCustomTransitionExamplesCheckThemselves() throws {
    #expect(try run("PowerMeterExample").hasPrefix("PowerMeter: "))
    #expect(try run("CustomTransitionExample").hasPrefix("blink: "))
  }
}

@Suite(.offThePool) struct HelpDocTests {
  @Test func theCommandLineDocShowsExactlyWhatHelpPrints() throws {
    let doc = try String(contentsOfFile: "Docs/cli.md", encoding: .utf8)
    let help = try BinaryRunner.run(["--help"])
    #expect(help.status == 0)
    let start = try #require(doc.range(of: "```\nOVERVIEW:"))
    let block = doc[doc.index(start.lowerBound, offsetBy: 4)...]
    let end = try #require(block.range(of: "```"))
    #expect(String(block[..<end.lowerBound]) == help.stdout, "Docs/cli.md differs from `marquee --help`: copy the new help in")
  }
}

import Foundation
import Testing

/// Right-to-left text, joining and font fitting from the command line and a config file,
/// as a user runs them.
@Suite(.offThePool, .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/unifont/unifont.hex"), "needs the Debian package unifont"))
struct WritingBinaryTests {
  /// The lit columns of a frame's rows.
  func litColumns(_ frame: [String]) -> [Int] {
    let width = frame.map(\.count).max() ?? 0
    return (0..<width).filter { x in frame.contains { row in row.count > x && row[row.index(row.startIndex, offsetBy: x)] == "#" } }
  }

  @Test func aHebrewMessageStandsAtTheRightAndAnEnglishOneAtTheLeft() throws {
    for (message, atRight) in [("שלום", true), ("Hi", false)] {
      let result = try BinaryRunner.run(["--font", "unifont", "--width", "96", "--height", "16", "--frames", "1", "--output", "ascii", message])
      #expect(result.status == 0, "\(result.stderr)")
      let columns = litColumns(try #require(asciiFrames(result.stdout).first))
      let first = try #require(columns.first), last = try #require(columns.last)
      #expect(atRight ? last > 88 && first > 48 : first < 8, "\(message): lit \(first)...\(last)")
    }
  }

  @Test func textDirectionCanBeSetInTheConfigFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-writing-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let config = folder.appendingPathComponent("sign.json").path
    try #"{"width": 96, "height": 16, "font": "unifont", "textDirection": "rtl", "messages": ["Hi!"]}"#
      .write(toFile: config, atomically: true, encoding: .utf8)
    let result = try BinaryRunner.run(["--config", config, "--frames", "1", "--output", "ascii"])
    #expect(result.status == 0, "\(result.stderr)")
    // Read right to left, "Hi!" starts at the right edge with its "!" on the left.
    let columns = litColumns(try #require(asciiFrames(result.stdout).first))
    #expect((columns.last ?? 0) > 88 && (columns.first ?? 0) > 48, "\(columns)")
    let bad = try BinaryRunner.run(["--text-direction", "up", "x"])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("Invalid value for '--text-direction <auto|ltr|rtl>': 'up' is not one of auto, ltr, rtl"))
  }

  @Test func lettersNoFontCanJoinAreNamedAtTheStart() throws {
    // The built-in font has no Arabic at all; with Unifont after it the letters join.
    let result = try BinaryRunner.run(["--font", "5x7", "--frames", "1", "--output", "ascii", "سلام"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("Warning: no font has the joined forms of س (U+0633), ل (U+0644), ا (U+0627), م (U+0645)"), "\(result.stderr)")
    #expect(result.stderr.contains("--font 5x7,unifont"))
    let joined = try BinaryRunner.run(["--font", "5x7,unifont", "--height", "16", "--frames", "1", "--output", "ascii", "سلام"])
    #expect(joined.status == 0)
    #expect(!joined.stderr.contains("Warning"), "\(joined.stderr)")
  }

  @Test func fitShrinkTakesTheLargestFontThatFits() throws {
    let tall = try BinaryRunner.run(["--font", "unifont,5x7", "--fit", "shrink", "--height", "16", "--frames", "1", "--output", "ascii", "Hi"])
    let short = try BinaryRunner.run(["--font", "unifont,5x7", "--fit", "shrink", "--height", "8", "--frames", "1", "--output", "ascii", "Hi"])
    #expect(tall.status == 0 && short.status == 0, "\(tall.stderr)\(short.stderr)")
    let tallRows = try #require(asciiFrames(tall.stdout).first).filter { $0.contains("#") }.count
    let shortRows = try #require(asciiFrames(short.stdout).first).filter { $0.contains("#") }.count
    // Unifont's "Hi" lights 10 rows or more; the 5x7 font's at most 7.
    #expect(tallRows >= 10 && shortRows <= 7, "\(tallRows) \(shortRows)")
    let unfitted = try BinaryRunner.run(["--font", "unifont,5x7", "--height", "8", "--frames", "1", "--output", "ascii", "Hi"])
    #expect(unfitted.status == 1)
  }
}

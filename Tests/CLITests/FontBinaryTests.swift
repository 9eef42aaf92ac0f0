import Foundation
import Testing

@Suite(.offThePool) struct FontBinaryTests {
  static let unifont = "/usr/share/unifont/unifont.hex"

  @Test(.enabled(if: FileManager.default.fileExists(atPath: unifont), "needs the Debian package unifont"))
  func chineseFromUnifontIsTheHexBitmap() throws {
    let result = try BinaryRunner.run([
      "--font", "unifont", "--width", "32", "--height", "16", "--align", "left", "--frames", "1",
      "--output", "ascii", "中",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let frame = try #require(asciiFrames(result.stdout).first)
    let hex = try String(contentsOfFile: FontBinaryTests.unifont, encoding: .utf8)
    let line = try #require(hex.split(separator: "\n").first { $0.hasPrefix("4E2D:") })
    let digits = Array(line.dropFirst(5))
    for row in 0..<16 {
      let value = Int(String(digits[(row * 4)..<(row * 4 + 4)]), radix: 16)!
      let expected = (0..<16).map { value & (0x8000 >> $0) != 0 ? "#" : "." }.joined()
      #expect(String(frame[row].prefix(16)) == expected, "row \(row)")
      #expect(!frame[row].dropFirst(16).contains("#"))
    }
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: unifont), "needs the Debian package unifont"))
  func aFontTallerThanTheSignIsReported() throws {
    let result = try BinaryRunner.run(["--font", "unifont", "--height", "8", "--frames", "1", "--output", "ascii", "中"])
    #expect(result.status == 1)
    #expect(result.stderr == "Error: the text is 16 pixels tall but the sign is 8 pixels tall; use a smaller font or a taller sign\n")
  }

  @Test func fontsListsTheBuiltInsAndWhatIsInstalledUnderAHeader() throws {
    let result = try BinaryRunner.run(["fonts"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first?.hasPrefix("NAME ") == true)
    #expect(lines.dropFirst().first?.hasPrefix("5x7 ") == true)
    #expect(result.stdout.contains("\n3x5 "))
    if FileManager.default.fileExists(atPath: FontBinaryTests.unifont) {
      #expect(result.stdout.contains("\nunifont "))
      #expect(result.stdout.contains(" 57086 "))
    }
    #expect(!result.stdout.contains("unreadable"))
  }

  @Test func aPatternKeepsTheFontsWhoseNamesContainIt() throws {
    let result = try BinaryRunner.run(["fonts", "X7"])
    let names = result.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" }
    #expect(names.contains("5x7"))
    #expect(names.allSatisfy { $0.lowercased().contains("x7") }, "\(names)")
    let none = try BinaryRunner.run(["fonts", "no-such-font-name"])
    #expect(none.status == 0 && none.stdout.contains("No font name contains 'no-such-font-name'."))
    #expect(try BinaryRunner.run(["fonts", "a", "b"]).status == 64)
  }

  @Test func namesAreMatchedWithoutRegardToCase() throws {
    let bold = try BinaryRunner.run(["--font", "BOLD", "--frames", "1", "--output", "ascii", "--width", "16", "Hi"])
    #expect(bold.status == 0)
    let lower = try BinaryRunner.run(["--font", "bold", "--frames", "1", "--output", "ascii", "--width", "16", "Hi"])
    #expect(bold.stdout == lower.stdout)
    let effect = try BinaryRunner.run(["--mode", "cycle", "--in", "Scroll-Up", "--frames", "1", "--output", "ascii", "A", "B"])
    #expect(effect.status == 0, "\(effect.stderr)")
  }

  @Test func anUnknownFontIsAUsageErrorWithTheClosestNameAndABrokenFileARuntimeError() throws {
    let missing = try BinaryRunner.run(["--font", "8x9", "--frames", "1", "X"])
    #expect(missing.status == 64)
    #expect(missing.stderr.hasPrefix("Error: No font named '8x9'. Did you mean '8x8'?"))
    let path = NSTemporaryDirectory() + "marquee-broken-\(getpid()).bdf"
    try "STARTFONT 2.1\nFONTBOUNDINGBOX 8 x\n".write(toFile: path, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let broken = try BinaryRunner.run(["--font", path, "--frames", "1", "X"])
    #expect(broken.status == 1)
    #expect(broken.stderr == "Error: \(path):2: FONTBOUNDINGBOX needs four integers\n")
  }

  @Test func tinyFontFitsASixRowSign() throws {
    let result = try BinaryRunner.run(["--font", "3x5", "--height", "6", "--width", "20", "--frames", "1", "--output", "ascii", "OK"])
    #expect(result.status == 0)
    #expect(asciiFrames(result.stdout).first?.count == 6)
  }
}

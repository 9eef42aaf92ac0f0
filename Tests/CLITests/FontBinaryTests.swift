import Foundation
import Testing

@Suite struct FontBinaryTests {
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

  @Test func fontsListsTheBuiltInsAndWhatIsInstalled() throws {
    let result = try BinaryRunner.run(["fonts"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("5x7 "))
    #expect(result.stdout.contains("3x5 "))
    if FileManager.default.fileExists(atPath: FontBinaryTests.unifont) {
      #expect(result.stdout.contains("unifont "))
      #expect(result.stdout.contains("57086 glyphs"))
    }
    #expect(!result.stdout.contains("unreadable"))
  }

  @Test func unknownFontsAndBrokenFilesAreRuntimeErrors() throws {
    let missing = try BinaryRunner.run(["--font", "nosuchfont", "--frames", "1", "X"])
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("Error: nosuchfont: no such font"))
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

import BitmapFonts
import Foundation
import TestSupport
import Testing

/// The bidirectional algorithm and normalisation against the conformance tests the Unicode
/// Consortium publishes with the character database (Debian's `unicode-data`), and the
/// generated tables against the script that makes them.
@Suite struct UnicodeConformanceTests {
  static let folder = "/usr/share/unicode"
  static let available = FileManager.default.fileExists(atPath: folder + "/BidiCharacterTest.txt")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/bzip2")

  func ucdFile(_ name: String) throws -> String {
    try String(contentsOfFile: "\(UnicodeConformanceTests.folder)/\(name)", encoding: .utf8)
  }

  @Test(.enabled(if: available, "needs the Debian packages unicode-data and bzip2"))
  func tablesAreWhatTheGeneratorWritesFromTheInstalledDatabase() throws {
    _ = try ucdFile("UnicodeData.txt")
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let script = root.appendingPathComponent("Sources/BitmapFonts/Writing/Generator/unicode_tables.py").path
    let result = try ChildProcess.run("/usr/bin/env", ["python3", script], timeout: 300)
    #expect(result.status == 0, "\(result.stderr)")
    let committed = try String(contentsOf: root.appendingPathComponent("Sources/BitmapFonts/Writing/Unicode+Tables.swift"), encoding: .utf8)
    let same = result.stdout == committed
    #expect(same, Comment(rawValue: "Unicode+Tables.swift differs from what the generator writes: run it again"))
    #expect(committed.contains("Character Database \(UnicodeTables.unicodeVersion) "))
  }

  /// BidiCharacterTest.txt: code points, paragraph direction, resolved paragraph level,
  /// the level of each scalar (`x` for removed ones) and the visual order.
  @Test(.enabled(if: available, "needs the Debian packages unicode-data and bzip2"))
  func bidiCharacterTest() throws {
    let text = try ucdFile("BidiCharacterTest.txt")
    var cases = 0, failures: [String] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: ";", omittingEmptySubsequences: false)
      guard fields.count == 5 else { continue }
      let scalars = fields[0].split(separator: " ").map { Unicode.Scalar(UInt32($0, radix: 16)!)! }
      let direction: TextDirection = fields[1] == "0" ? .ltr : fields[1] == "1" ? .rtl : .auto
      let paragraph = BidiParagraph(scalars, direction: direction)
      let levels = paragraph.levels.map { $0 == BidiParagraph.removed ? "x" : String($0) }.joined(separator: " ")
      let order = paragraph.visualOrder.map(String.init).joined(separator: " ")
      cases += 1
      if String(paragraph.baseLevel) != fields[2] || levels != fields[3] || order != fields[4] {
        if failures.count < 20 {
          failures.append("\(fields[0]) dir \(fields[1]): level \(paragraph.baseLevel) levels \(levels) order \(order); want \(fields[2]);\(fields[3]);\(fields[4])")
        } else {
          failures.append("")
        }
      }
    }
    #expect(cases > 90_000)
    #expect(failures.isEmpty, Comment(rawValue: "\(failures.count) of \(cases) differ:\n" + failures.prefix(20).joined(separator: "\n")))
  }

  /// One line of BidiTest.txt: a sequence of classes (a scalar standing for each), the
  /// directions it is tested with (bit set: 1 auto, 2 LTR, 4 RTL), and the levels and visual
  /// order expected (levels `removed` for x).
  struct BidiCase: Sendable {
    var classes: Substring
    var scalars: [Unicode.Scalar]
    var directions: Int
    var levels: [UInt8]
    var order: [Int]
  }

  /// BidiTest.txt read once (the parts below share it), its bytes scanned without making a
  /// string of each line.
  static let bidiCases: [BidiCase] = {
    guard let text = try? String(contentsOfFile: "\(folder)/BidiTest.txt", encoding: .utf8) else { return [] }
    // A scalar of each class stands for it.
    var representative: [Substring: Unicode.Scalar] = [:]
    for code in 0..<0x11_0000 {
      guard let scalar = Unicode.Scalar(code) else { continue }
      let name = Substring(UnicodeTables.bidiClass(scalar).shortName)
      if representative[name] == nil, UnicodeTables.bracket(scalar) == nil { representative[name] = scalar }
      if representative.count == BidiClass.allCases.count { break }
    }
    var cases: [BidiCase] = []
    var levels: [UInt8] = [], order: [Int] = []
    var sequences: [Substring: [Unicode.Scalar]] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      if line.hasPrefix("@Levels:") {
        levels = line.dropFirst(8).split(whereSeparator: \.isWhitespace).map { $0 == "x" ? BidiParagraph.removed : UInt8($0)! }
        continue
      }
      if line.hasPrefix("@Reorder:") {
        order = line.dropFirst(9).split(whereSeparator: \.isWhitespace).map { Int($0)! }
        continue
      }
      guard let semicolon = line.firstIndex(of: ";"), let bits = Int(line[line.index(after: semicolon)...].filter { !$0.isWhitespace }) else { continue }
      let classes = line[..<semicolon]
      let scalars = sequences[classes] ?? classes.split(separator: " ").map { representative[$0]! }
      sequences[classes] = scalars
      cases.append(BidiCase(classes: classes, scalars: scalars, directions: bits, levels: levels, order: order))
    }
    return cases
  }()

  /// BidiTest.txt: every sequence of classes in every direction it names gives the levels
  /// and the visual order expected. In four parts (every fourth sequence each) so that the
  /// half-million cases spread over the cores.
  @Test(.enabled(if: available, "needs the Debian packages unicode-data and bzip2"), arguments: 0..<4)
  func bidiTestByClass(part: Int) throws {
    let all = UnicodeConformanceTests.bidiCases
    var cases = 0, failures: [String] = []
    for index in stride(from: part, to: all.count, by: 4) {
      let test = all[index]
      for (bit, direction) in [(1, TextDirection.auto), (2, .ltr), (4, .rtl)] where test.directions & bit != 0 {
        let paragraph = BidiParagraph(test.scalars, direction: direction)
        cases += 1
        if paragraph.levels != test.levels || paragraph.visualOrder != test.order {
          if failures.count < 20 {
            failures.append("\(test.classes) (\(direction)): \(paragraph.levels) \(paragraph.visualOrder); want \(test.levels) \(test.order)")
          } else {
            failures.append("")
          }
        }
      }
    }
    #expect(cases > 100_000)
    #expect(failures.isEmpty, Comment(rawValue: "\(failures.count) of \(cases) differ:\n" + failures.prefix(20).joined(separator: "\n")))
  }

  /// NormalizationTest.txt: for each line c1;c2;c3;c4;c5, NFC(c1) = NFC(c2) = NFC(c3) = c2
  /// and NFC(c4) = NFC(c5) = c4; every other code point is its own NFC.
  @Test(.enabled(if: available, "needs the Debian packages unicode-data and bzip2"))
  func normalizationTest() throws {
    let path = "\(UnicodeConformanceTests.folder)/NormalizationTest.txt.bz2"
    let result = try ChildProcess.run("/usr/bin/env", ["bzip2", "-dc", path], timeout: 120)
    #expect(result.status == 0, "bzip2 -dc \(path): \(result.stderr)")
    func codes(_ field: Substring) -> [Unicode.Scalar] {
      field.split(separator: " ").map { Unicode.Scalar(UInt32($0, radix: 16)!)! }
    }
    var cases = 0, failures: [String] = []
    var listed = Set<UInt32>()
    var inPart1 = false
    for line in result.stdout.split(separator: "\n") where !line.hasPrefix("#") {
      if line.hasPrefix("@Part") {
        inPart1 = line.hasPrefix("@Part1")
        continue
      }
      let fields = line.split(separator: ";", omittingEmptySubsequences: false)
      guard fields.count >= 5 else { continue }
      let columns = (0..<5).map { codes(fields[$0]) }
      if inPart1, columns[0].count == 1 { listed.insert(columns[0][0].value) }
      cases += 1
      for (input, expected) in [(0, 1), (1, 1), (2, 1), (3, 3), (4, 3)] where Normalization.nfc(columns[input]) != columns[expected] {
        if failures.count < 20 {
          failures.append("NFC(\(fields[input])) = \(Normalization.nfc(columns[input]).map { String($0.value, radix: 16) }); want \(fields[expected])")
        } else {
          failures.append("")
        }
      }
    }
    for code in UInt32(0)..<0x11_0000 where !listed.contains(code) {
      guard let scalar = Unicode.Scalar(code), Normalization.nfc([scalar]) != [scalar] else { continue }
      failures.append("NFC(\(String(code, radix: 16))) changes it")
    }
    #expect(cases > 19_000)
    #expect(failures.isEmpty, Comment(rawValue: "\(failures.count) differ:\n" + failures.prefix(20).joined(separator: "\n")))
  }
}

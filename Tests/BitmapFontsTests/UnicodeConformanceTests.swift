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
    let script = root.appendingPathComponent("Sources/FontCore/Writing/Generator/unicode_tables.py").path
    let result = try ChildProcess.run("/usr/bin/env", ["python3", script], timeout: 300)
    #expect(result.status == 0, "\(result.stderr)")
    let committed = try String(contentsOf: root.appendingPathComponent("Sources/FontCore/Writing/Unicode+Tables.swift"), encoding: .utf8)
    let same = result.stdout == committed
    #expect(same, Comment(rawValue: "Unicode+Tables.swift differs from what the generator writes: run it again"))
    #expect(committed.contains("Character Database \(UnicodeTables.unicodeVersion) "))
  }

  /// BidiCharacterTest.txt: code points, paragraph direction, resolved paragraph level,
  /// the level of each scalar (`x` for removed ones) and the visual order. In two halves,
  /// side by side.
  @Test(.enabled(if: available, "needs the Debian packages unicode-data and bzip2"), arguments: 0..<2)
  func bidiCharacterTest(half: Int) throws {
    let bytes = [UInt8](try #require(FileManager.default.contents(atPath: "\(UnicodeConformanceTests.folder)/BidiCharacterTest.txt")))
    let lines = UCDBytes.lines(bytes)
    var cases = 0, failures: [String] = []
    for line in lines[(lines.count * half / 2)..<(lines.count * (half + 1) / 2)] where bytes[line.lowerBound] != UInt8(ascii: "#") {
      let fields = UCDBytes.fields(bytes, line)
      guard fields.count == 5 else { continue }
      let scalars = UCDBytes.numbers(bytes, fields[0], radix: 16).map { Unicode.Scalar(UInt32($0))! }
      let directionCode = UCDBytes.numbers(bytes, fields[1]).first
      let direction: TextDirection = directionCode == 0 ? .ltr : directionCode == 1 ? .rtl : .auto
      let paragraph = BidiParagraph(scalars, direction: direction)
      let levels = UCDBytes.numbers(bytes, fields[3]).map { UInt8($0) }
      let order = UCDBytes.numbers(bytes, fields[4])
      cases += 1
      if [Int(paragraph.baseLevel)] != UCDBytes.numbers(bytes, fields[2]) || paragraph.levels != levels || paragraph.visualOrder != order {
        if failures.count < 20 {
          failures.append(
            "\(String(decoding: bytes[line], as: UTF8.self)): got level \(paragraph.baseLevel) levels \(paragraph.levels) order \(paragraph.visualOrder)")
        } else {
          failures.append("")
        }
      }
    }
    #expect(cases > 45_000)
    #expect(failures.isEmpty, Comment(rawValue: "\(failures.count) of \(cases) differ:\n" + failures.prefix(20).joined(separator: "\n")))
  }

  /// The UCD's test files read as bytes: lines, fields and numbers without a string each (a
  /// debug build spends seconds on strings of half a million lines).
  enum UCDBytes {
    /// The lines of `bytes`, without their line feeds; empty lines left out.
    static func lines(_ bytes: [UInt8]) -> [Range<Int>] {
      var lines: [Range<Int>] = [], start = 0, index = 0
      while index <= bytes.count {
        if index == bytes.count || bytes[index] == 0x0A {
          if index > start { lines.append(start..<index) }
          start = index + 1
        }
        index += 1
      }
      return lines
    }

    /// The `;`-separated fields of a line.
    static func fields(_ bytes: [UInt8], _ line: Range<Int>) -> [Range<Int>] {
      var fields: [Range<Int>] = [], start = line.lowerBound, index = start
      while index <= line.upperBound {
        if index == line.upperBound || bytes[index] == UInt8(ascii: ";") {
          fields.append(start..<index)
          start = index + 1
        }
        index += 1
      }
      return fields
    }

    /// The numbers in `range` (decimal or hexadecimal), `x` read as ``BidiParagraph/removed``.
    static func numbers(_ bytes: [UInt8], _ range: Range<Int>, radix: Int = 10) -> [Int] {
      var values: [Int] = [], value = -1, index = range.lowerBound
      while index < range.upperBound {
        let byte = bytes[index]
        index += 1
        let digit: Int? =
          switch byte {
          case 0x30...0x39: Int(byte - 0x30)
          case 0x41...0x46 where radix == 16: Int(byte - 0x41 + 10)
          case 0x61...0x66 where radix == 16: Int(byte - 0x61 + 10)
          default: nil
          }
        if let digit {
          value = max(value, 0) * radix + digit
        } else if byte == UInt8(ascii: "x") {
          value = Int(BidiParagraph.removed)
        } else if value >= 0 {
          values.append(value)
          value = -1
        }
      }
      if value >= 0 { values.append(value) }
      return values
    }
  }

  /// One line of BidiTest.txt: a sequence of classes (a scalar standing for each), the
  /// directions it is tested with (bit set: 1 auto, 2 LTR, 4 RTL), and the levels and visual
  /// order expected (levels `removed` for x).
  struct BidiCase: Sendable {
    /// Where the class names are in ``bidiText``.
    var classes: Range<Int>
    var scalars: [Unicode.Scalar]
    var directions: Int
    var levels: [UInt8]
    var order: [Int]

    var classNames: String { String(decoding: UnicodeConformanceTests.bidiText[classes], as: UTF8.self) }
  }

  static let bidiText: [UInt8] = FileManager.default.contents(atPath: "\(folder)/BidiTest.txt").map { [UInt8]($0) } ?? []

  /// A scalar of each class, keyed by the class's short name packed into an integer.
  static let representatives: [UInt32: Unicode.Scalar] = {
    var representative: [UInt32: Unicode.Scalar] = [:]
    for code in 0..<0x11_0000 {
      guard let scalar = Unicode.Scalar(code) else { continue }
      let name = key(UnicodeTables.bidiClass(scalar).shortName.utf8)
      if representative[name] == nil, UnicodeTables.bracket(scalar) == nil { representative[name] = scalar }
      if representative.count == BidiClass.allCases.count { break }
    }
    return representative
  }()

  /// A class's short name packed into an integer.
  static func key(_ name: some Collection<UInt8>) -> UInt32 { name.reduce(0) { $0 << 8 | UInt32($1) } }

  /// The cases of one of `parts` stretches of BidiTest.txt, its bytes scanned without making
  /// a string of each line. Each part reads only its stretch (after the `@Levels` and
  /// `@Reorder` lines in force where it starts), so the parts neither wait for one reader
  /// nor read the whole file each.
  static func bidiCases(part: Int, of parts: Int) -> [BidiCase] {
    let bytes = bidiText
    func lineStart(atOrAfter offset: Int) -> Int {
      var index = offset
      while index > 0 && index < bytes.count && bytes[index - 1] != 0x0A { index += 1 }
      return min(index, bytes.count)
    }
    let stretch = lineStart(atOrAfter: bytes.count * part / parts)..<lineStart(atOrAfter: bytes.count * (part + 1) / parts)
    func starts(_ at: Int, _ prefix: String) -> Bool {
      var index = at
      for byte in prefix.utf8 {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
      }
      return true
    }
    func lineEnd(_ start: Int) -> Int {
      var end = start
      while end < bytes.count && bytes[end] != 0x0A { end += 1 }
      return end
    }
    // The levels and order in force at the stretch's start: the last such lines before it.
    var levels: [UInt8] = [], order: [Int] = []
    var foundLevels = false, foundOrder = false
    var back = stretch.lowerBound
    while back > 0 && !(foundLevels && foundOrder) {
      back -= 1
      guard back == 0 || bytes[back - 1] == 0x0A else { continue }
      if !foundLevels && starts(back, "@Levels:") {
        levels = UCDBytes.numbers(bytes, (back + 8)..<lineEnd(back)).map { UInt8($0) }
        foundLevels = true
      } else if !foundOrder && starts(back, "@Reorder:") {
        order = UCDBytes.numbers(bytes, (back + 9)..<lineEnd(back))
        foundOrder = true
      }
    }
    let representative = representatives
    var cases: [BidiCase] = []
    cases.reserveCapacity(500_000 / parts)
    for line in UCDBytes.lines(Array(bytes[stretch])) where bytes[stretch.lowerBound + line.lowerBound] != UInt8(ascii: "#") {
      let line = (stretch.lowerBound + line.lowerBound)..<(stretch.lowerBound + line.upperBound)
      let lineStart = line.lowerBound
      if bytes[lineStart] == UInt8(ascii: "@") && starts(lineStart, "@Levels:") {
        levels = UCDBytes.numbers(bytes, (lineStart + 8)..<line.upperBound).map { UInt8($0) }
        continue
      }
      if bytes[lineStart] == UInt8(ascii: "@") && starts(lineStart, "@Reorder:") {
        order = UCDBytes.numbers(bytes, (lineStart + 9)..<line.upperBound)
        continue
      }
      // The classes, then one `;` and the bit set of directions.
      var scalars: [Unicode.Scalar] = []
      var word = 0 as UInt32, index = lineStart
      while index < line.upperBound && bytes[index] != UInt8(ascii: ";") {
        if bytes[index] != 0x20 {
          word = word << 8 | UInt32(bytes[index])
        } else if word != 0 {
          scalars.append(representative[word]!)
          word = 0
        }
        index += 1
      }
      if word != 0 { scalars.append(representative[word]!) }
      let semicolon = index
      guard semicolon < line.upperBound, !bytes[(semicolon + 1)..<line.upperBound].contains(UInt8(ascii: ";")),
        let bits = UCDBytes.numbers(bytes, (semicolon + 1)..<line.upperBound).first
      else { continue }
      cases.append(BidiCase(classes: lineStart..<semicolon, scalars: scalars, directions: bits, levels: levels, order: order))
    }
    return cases
  }

  /// BidiTest.txt: every sequence of classes in every direction it names gives the levels
  /// and the visual order expected. In four parts (a quarter of the file each) so that the
  /// half-million cases spread over the cores.
  @Test(.enabled(if: available, "needs the Debian packages unicode-data and bzip2"), arguments: 0..<4)
  func bidiTestByClass(part: Int) throws {
    var cases = 0, failures: [String] = []
    for test in UnicodeConformanceTests.bidiCases(part: part, of: 4) {
      // `auto` is the direction rules P2 and P3 find (left to right if none), then the same
      // resolution as that direction given: when the line names that direction too (with the
      // same levels), auto's resolution checks it as well, and a third of the half-million
      // resolutions is saved.
      var resolvedByAuto = 0
      for bit in [1, 2, 4] where test.directions & bit != 0 {
        cases += 1
        if bit == resolvedByAuto { continue }
        let direction: TextDirection = bit == 1 ? .auto : bit == 2 ? .ltr : .rtl
        let paragraph = BidiParagraph(test.scalars, direction: direction)
        if bit == 1 { resolvedByAuto = paragraph.isRightToLeft ? 4 : 2 }
        if paragraph.levels != test.levels || paragraph.visualOrder != test.order {
          if failures.count < 20 {
            failures.append("\(test.classNames) (\(direction)): \(paragraph.levels) \(paragraph.visualOrder); want \(test.levels) \(test.order)")
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
  /// and NFC(c4) = NFC(c5) = c4; every other assigned code point is its own NFC.
  @Test(.enabled(if: available, "needs the Debian packages unicode-data and bzip2"))
  func normalizationTest() throws {
    let path = "\(UnicodeConformanceTests.folder)/NormalizationTest.txt.bz2"
    let result = try ChildProcess.run("/usr/bin/env", ["bzip2", "-dc", path], timeout: 120)
    #expect(result.status == 0, "bzip2 -dc \(path): \(result.stderr)")
    let bytes = [UInt8](result.stdoutData)
    func codes(_ field: Range<Int>) -> [Unicode.Scalar] {
      UCDBytes.numbers(bytes, field, radix: 16).map { Unicode.Scalar(UInt32($0))! }
    }
    func text(_ field: Range<Int>) -> String { String(decoding: bytes[field], as: UTF8.self) }
    var cases = 0, failures: [String] = []
    var listed = Set<UInt32>()
    var inPart1 = false
    for line in UCDBytes.lines(bytes) where bytes[line.lowerBound] != UInt8(ascii: "#") {
      if bytes[line.lowerBound] == UInt8(ascii: "@") {
        inPart1 = text(line).hasPrefix("@Part1")
        continue
      }
      let fields = UCDBytes.fields(bytes, line)
      guard fields.count >= 5 else { continue }
      let columns = [codes(fields[0]), codes(fields[1]), codes(fields[2]), codes(fields[3]), codes(fields[4])]
      if inPart1, columns[0].count == 1 { listed.insert(columns[0][0].value) }
      cases += 1
      for (input, expected) in [(0, 1), (1, 1), (2, 1), (3, 3), (4, 3)] where Normalization.nfc(columns[input]) != columns[expected] {
        if failures.count < 20 {
          failures.append("NFC(\(text(fields[input]))) = \(Normalization.nfc(columns[input]).map { String($0.value, radix: 16) }); want \(text(fields[expected]))")
        } else {
          failures.append("")
        }
      }
    }
    // The file's rule: every assigned code point not listed in Part 1 is its own NFC
    // (assigned as the standard library's newer database says: a superset of Debian's).
    // All of them at once, each after a space: nothing composes with a space, either side,
    // so the line is its own NFC exactly when each of them is; one by one only if not.
    var unlisted: [Unicode.Scalar] = []
    for code in UInt32(0)..<0x11_0000 where !listed.contains(code) {
      guard let scalar = Unicode.Scalar(code), scalar.properties.generalCategory != .unassigned else { continue }
      unlisted.append(scalar)
    }
    let spaced = unlisted.flatMap { [" ", $0] as [Unicode.Scalar] }
    if Normalization.nfc(spaced) != spaced {
      for scalar in unlisted where Normalization.nfc([scalar]) != [scalar] {
        failures.append("NFC(\(String(scalar.value, radix: 16))) changes it")
      }
    }
    #expect(cases > 19_000)
    #expect(failures.isEmpty, Comment(rawValue: "\(failures.count) differ:\n" + failures.prefix(20).joined(separator: "\n")))
  }
}

import Platform
import Foundation
import MarqueeTesting
import MatrixCore
import TestSupport
import Testing

@testable import BitmapFonts
@testable import FontCore
@testable import Deflate

@Suite struct GzipTests {
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/bin/gzip"), "needs the Debian package gzip"),
        arguments: ["-1", "-6", "-9"])
  func matchesTheGzipTool(level: String) throws {
    var random = SplitMix64(seed: 5)
    // Text-like and random data, so every block type appears.
    var data = [UInt8]()
    for _ in 0..<40_000 { data.append(UInt8(ascii: "a") + UInt8(random.next() % 6)) }
    for _ in 0..<20_000 { data.append(UInt8(truncatingIfNeeded: random.next())) }
    let compressed = try DebianFonts.run("/bin/gzip", [level, "-c"], input: Data(data))
    #expect(try Gzip.decompress([UInt8](compressed)) == data)
  }

  /// Stored blocks right after coded ones, as zlib writes them: a sync flush ends a coded
  /// block with an empty stored one, and random bytes are stored as they are. Short pieces
  /// get the fixed code, whose short end-of-block code leaves the decoder at every bit of a
  /// byte when the stored block begins.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/bin/gzip") && ChildProcess.commandExists("python3"), "needs the Debian packages gzip and python3"))
  func storedBlocksAfterCodedOnes() throws {
    let script = """
      import random, sys, zlib
      r = random.Random(3)
      text = bytes(97 + r.randrange(6) for _ in range(40000))
      noise = bytes(r.randrange(256) for _ in range(20000))
      c = zlib.compressobj(6, zlib.DEFLATED, 31)
      out = c.compress(text) + c.flush(zlib.Z_SYNC_FLUSH) + c.compress(noise) + c.flush(zlib.Z_SYNC_FLUSH) + c.compress(text)
      for length in range(1, 40):
          out += c.compress(text[:length]) + c.flush(zlib.Z_SYNC_FLUSH)
      sys.stdout.buffer.write(out + c.flush())
      """
    let compressed = try DebianFonts.run("/usr/bin/env", ["python3", "-c", script])
    let expected = try DebianFonts.run("/bin/gzip", ["-dc"], input: compressed)
    #expect(expected.count == 100_780)
    #expect(try Gzip.decompress([UInt8](compressed)) == [UInt8](expected))
  }

  @Test(.enabled(if: DebianFonts.exists(DebianFonts.fixed6x13), "needs the Debian package xfonts-base"))
  func decompressesARealFontLikeGunzip() throws {
    let compressed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: DebianFonts.fixed6x13)))
    let expected = try DebianFonts.run("/bin/gzip", ["-dc", DebianFonts.fixed6x13])
    #expect(try Gzip.decompress(compressed) == [UInt8](expected))
  }

  @Test func corruptStreamsAreErrorsNotCrashes() throws {
    let good = try DebianFonts.run("/bin/gzip", ["-c"], input: Data(repeating: 65, count: 5000))
    var bytes = [UInt8](good)
    #expect(throws: GzipError.self) { try Gzip.decompress(Array(bytes.prefix(bytes.count - 5))) }
    bytes[bytes.count - 8] ^= 0xFF  // CRC
    #expect(throws: GzipError(reason: "gzip CRC mismatch (the file is corrupt)")) { try Gzip.decompress(bytes) }
    var random = SplitMix64(seed: 9)
    for _ in 0..<300 {
      var junk = [UInt8](good)
      for _ in 0..<4 { junk[10 + Int(random.next() % UInt64(junk.count - 10))] = UInt8(truncatingIfNeeded: random.next()) }
      _ = try? Gzip.decompress(junk, limit: 1 << 20)
    }
    #expect(throws: GzipError.self) { try Gzip.decompress([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 0xFF, 0xFF] + Array(repeating: 0, count: 10)) }
  }

  @Test func outputIsCapped() throws {
    let bomb = try DebianFonts.run("/bin/gzip", ["-c"], input: Data(repeating: 0, count: 3 << 20))
    #expect(throws: GzipError.self) { try Gzip.decompress([UInt8](bomb), limit: 1 << 20) }
  }
}


@Suite struct HexFontTests {
  @Test(.enabled(if: DebianFonts.exists(DebianFonts.unifontHex), "needs the Debian package unifont"))
  func unifontLoadsAndDrawsTheHexBitmap() throws {
    let loaded = try FontFile.load(path: DebianFonts.unifontHex)
    #expect(loaded.format == .hex)
    #expect(loaded.glyphCount > 57_000)
    let glyph = try #require(loaded.font.glyph(for: "中"))
    #expect(glyph.advance == 16 && glyph.bitmap.height == 16)
    // 4E2D:0100 0100 0100 0100 3FF8 2108 …
    #expect(glyph.bitmap.rowStrings[0] == ".......#........")
    #expect(glyph.bitmap.rowStrings[4] == "..###########...")
    #expect(loaded.font.glyph(for: "A")?.advance == 8)
  }

  @Test(.enabled(if: DebianFonts.exists(DebianFonts.unifontHex) && DebianFonts.exists(DebianFonts.hex2bdf),
                 "needs the Debian packages unifont and unifont-bin"))
  func sameCharacterFromHexAndFromHex2bdfIsIdentical() throws {
    let codes = ["0041", "0067", "00E9", "4E2D", "6587", "AC00", "3042", "FF01", "0301"]
    let all = try String(contentsOfFile: DebianFonts.unifontHex, encoding: .utf8)
    let lines = all.split(separator: "\n").filter { line in codes.contains { line.hasPrefix($0 + ":") } }
    let hex = lines.joined(separator: "\n") + "\n"
    let bdfText = String(decoding: try DebianFonts.run(DebianFonts.hex2bdf, [], input: Data(hex.utf8)), as: UTF8.self)
    let fromHex = try HexFont(data: Array(hex.utf8), name: "subset", path: "subset.hex")
    let fromBDF = try BDFFont(text: Array(bdfText.utf8), name: "subset", path: "subset.bdf")
    #expect(fromBDF.ascent == fromHex.ascent && fromBDF.descent == fromHex.descent)
    for code in codes {
      let scalar = Unicode.Scalar(UInt32(code, radix: 16)!)!
      let a = try #require(fromHex.glyph(for: scalar)), b = try #require(fromBDF.glyph(for: scalar))
      // Same pixels on the same baseline, at the same advance.
      #expect(a.bitmap == b.bitmap, "U+\(code)")
      #expect(a.top == b.top && a.xOffset == b.xOffset && a.advance == b.advance, "U+\(code)")
      // And the minimal BDF reader of the tests agrees.
      let raw = try #require(DebianFonts.bdfGlyph(bdfText, encoding: Int(code, radix: 16)!))
      #expect(raw.rows == a.bitmap.rowStrings)
    }
  }

  @Test func malformedLinesAreSkippedWithTheirLineNumbers() throws {
    let text = "0041:00000000000000000000000000000000\nzz:00\n0042:0000\n0043:00000000000000000000000000000000\n"
    let font = try HexFont(data: Array(text.utf8), name: "t", path: "t.hex")
    #expect(font.glyphCount == 2)
    #expect(font.warnings == [
      "t.hex:2: not a 'CODE:BITMAP' line, skipped",
      "t.hex:3: bitmap of U+42 is not 32, 64, 96 or 128 hex digits, skipped",
    ])
    #expect(throws: FontLoadError(path: "e.hex", reason: "no glyphs (not a Unifont .hex file?)")) {
      try HexFont(data: Array("nonsense\n".utf8), name: "e", path: "e.hex")
    }
  }

  @Test func eightBytesAtATimeHexCheckAgreesWithTheByteByByteOne() {
    var random = SplitMix64(seed: 21)
    let digits = Array("0123456789abcdefABCDEF".utf8)
    for position in 0..<8 {
      for byte in 0...255 {
        var bytes = (0..<8).map { _ in digits.randomElement(using: &random)! }
        bytes[position] = UInt8(byte)
        let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        #expect(HexFont.allHexDigits(word) == (HexDigit.value(UInt8(byte)) != nil), "byte \(byte) at \(position)")
      }
    }
  }

  @Test func markOffsetsAreReadLikeUnifontWritesThem() {
    let text = "0300:-8\r\n0488 : -16\n1AB0:+2\nzz:3\n0301:\n0302:x\n\n10FFFF:0\n"
    #expect(HexFont.markOffsets(from: Array(text.utf8)) == [0x300: -8, 0x488: -16, 0x1AB0: 2, 0x10FFFF: 0])
  }

  @Test(.enabled(if: DebianFonts.exists("/usr/share/unifont/plane00-combining.txt"), "needs the Debian package unifont"))
  func unifontsMarkOffsetFileIsReadWhole() throws {
    let path = "/usr/share/unifont/plane00-combining.txt"
    let bytes = try FileBytes.read(path, limit: 1 << 20)
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    let offsets = HexFont.markOffsets(from: bytes)
    #expect(offsets.count == lines.count)
    for line in lines {
      let parts = line.split(separator: ":")
      #expect(offsets[UInt32(parts[0], radix: 16)!] == Int(parts[1]), "\(line)")
    }
  }

  @Test func unsortedFilesAndFiveDigitCodesWork() throws {
    let zeros = String(repeating: "0", count: 30)
    let text = "2A6B2:\(zeros)FF\n0041:\(zeros)01\n"
    let font = try HexFont(data: Array(text.utf8), name: "t", path: "t.hex")
    #expect(font.glyph(for: Unicode.Scalar(0x2A6B2)!)?.bitmap.rowStrings[15] == "########")
    #expect(font.glyph(for: "A")?.bitmap.rowStrings[15] == ".......#")
  }
}

@Suite struct PCFFontTests {
  static func compare(_ pcfPath: String, encodings: [Int]) throws {
    let loaded = try FontFile.load(path: pcfPath)
    #expect(loaded.format == .pcf)
    let bdf = String(decoding: try DebianFonts.run(DebianFonts.pcf2bdf, [pcfPath]), as: UTF8.self)
    #expect(bdf.contains("FONT_ASCENT \(loaded.font.ascent)\n"))
    #expect(bdf.contains("FONT_DESCENT \(loaded.font.descent)\n"))
    for encoding in encodings {
      let expected = try #require(DebianFonts.bdfGlyph(bdf, encoding: encoding), "pcf2bdf has \(encoding)")
      let glyph = try #require(loaded.font.glyph(for: Unicode.Scalar(UInt32(encoding))!))
      #expect(glyph.bitmap.rowStrings == expected.rows || (expected.rows.isEmpty && glyph.bitmap.height == 0), "\(encoding)")
      #expect(glyph.bitmap.width == expected.width && glyph.bitmap.height == expected.height, "\(encoding)")
      #expect(glyph.xOffset == expected.xOffset && glyph.top == expected.height + expected.yOffset, "\(encoding)")
      #expect(glyph.advance == expected.advance, "\(encoding)")
    }
  }

  @Test(.enabled(if: DebianFonts.exists(DebianFonts.wqy12) && DebianFonts.exists(DebianFonts.pcf2bdf),
                 "needs the Debian packages xfonts-wqy and pcf2bdf"))
  func wenQuanYiGlyphsMatchPcf2bdf() throws {
    try PCFFontTests.compare(DebianFonts.wqy12, encodings: [0x4E2D, 0x6587, 0x41, 0x67, 0x2C, 0x3002, 0xFF0C, 0xAC00])
  }

  @Test(.enabled(if: DebianFonts.exists(DebianFonts.fixed6x13) && DebianFonts.exists(DebianFonts.pcf2bdf),
                 "needs the Debian packages xfonts-base and pcf2bdf"))
  func miscFixedGlyphsMatchPcf2bdf() throws {
    try PCFFontTests.compare(DebianFonts.fixed6x13, encodings: [0x41, 0x67, 0xE9, 0x301, 0x20AC, 0x2588, 0x3B1])
  }
}

/// PCF files in every bit order, byte order, glyph padding and scan unit bdftopcf writes,
/// made from one real BDF font, read back pixel for pixel.
@Suite struct PCFLayoutTests {
  static let bdftopcf = "/usr/bin/bdftopcf"
  static let fixed9x15 = "/usr/share/fonts/X11/misc/9x15.pcf.gz"
  static let available = DebianFonts.exists(bdftopcf) && DebianFonts.exists(DebianFonts.pcf2bdf) && DebianFonts.exists(fixed9x15)

  /// `-m`/`-l` bit order, `-M`/`-L` byte order, `-p` glyph padding, `-u` scan unit.
  static let layouts: [[String]] = ["-m", "-l"].flatMap { bitOrder in
    ["-M", "-L"].flatMap { byteOrder in
      ["-p1", "-p2", "-p4", "-p8"].flatMap { pad in ["-u1", "-u2", "-u4"].map { [bitOrder, byteOrder, pad, $0] } }
    }
  }

  /// Whether the first `limit` rows of `bitmap` are `want`'s, pixel for pixel (a bitmap
  /// without columns has no rows).
  static func sameRows(_ bitmap: Framebuffer, _ want: Framebuffer, limit: Int) -> Bool {
    let have = min(limit, bitmap.width == 0 ? 0 : bitmap.height)
    guard have == min(limit, want.width == 0 ? 0 : want.height) else { return false }
    guard have > 0 else { return true }
    guard bitmap.width == want.width else { return false }
    let words = have * bitmap.wordsPerRow
    return bitmap.words.withUnsafeBytes { read in want.words.withUnsafeBytes { memcmp(read.baseAddress!, $0.baseAddress!, words * 8) == 0 } }
  }

  /// The glyph padding and scan unit a PCF file records for its bitmaps.
  static func recordedLayout(_ bytes: [UInt8]) -> (pad: Int, unit: Int)? {
    func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
    for table in 0..<u32(4) where u32(8 + table * 16) == 8 {
      let format = u32(u32(8 + table * 16 + 12))
      return (1 << (format & 3), 1 << ((format >> 4) & 3))
    }
    return nil
  }

  @Test(.enabled(if: available, "needs the Debian packages xfonts-utils (bdftopcf), pcf2bdf and xfonts-base"))
  func everyLayoutBdftopcfWritesReadsAsTheOriginalBDF() throws {
    #expect(PCFLayoutTests.layouts.count == 48)
    let folder = NSTemporaryDirectory() + "marquee-pcf-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bdfData = try DebianFonts.run(DebianFonts.pcf2bdf, [PCFLayoutTests.fixed9x15])
    let bdfPath = folder + "/9x15.bdf"
    try bdfData.write(to: URL(fileURLWithPath: bdfPath))
    let bdf = String(decoding: bdfData, as: UTF8.self)
    // Every glyph of the original (Latin, Greek, Cyrillic, box drawing, ...).
    let glyphs = DebianFonts.bdfGlyphs(bdf[...])
    let encodings = glyphs.keys.filter { $0 > 0 && $0 < 0x110000 && !(0xD800..<0xE000).contains($0) }.sorted()
    #expect(encodings.count > 4000)
    let expected = encodings.map { glyphs[$0]! }
    var exact = 0
    for layout in PCFLayoutTests.layouts {
      let pcf = folder + "/9x15\(layout.joined()).pcf"
      let made = try ChildProcess.run(PCFLayoutTests.bdftopcf, layout + ["-o", pcf, bdfPath])
      try #require(made.status == 0, "bdftopcf \(layout): \(made.stderr)")
      let (pad, unit) = try #require(PCFLayoutTests.recordedLayout(Array(try Data(contentsOf: URL(fileURLWithPath: pcf)))))
      if layout[2] == "-p8" && pad != 8 {
        // bdftopcf 1.1 records pad 1 for -p8 but stores rows padded to 8 bytes, cut to the
        // pad-1 length: the file contradicts itself, and pcf2bdf cannot read it either.
        continue
      }
      let font = try FontFile.load(path: pcf).font
      var wrong: [Int] = []
      for (index, encoding) in encodings.enumerated() {
        let glyph = expected[index]
        guard let read = font.glyph(for: Unicode.Scalar(UInt32(encoding))!) else {
          wrong.append(encoding)
          continue
        }
        var limit = Int.max
        if unit > pad && glyph.bitmap.height > 0 {
          // bdftopcf swaps whole units past a glyph's end, losing its last partial unit:
          // compare the rows it kept.
          let rowBytes = ((glyph.width + 7) / 8 + pad - 1) / pad * pad
          limit = (rowBytes * glyph.height) / unit * unit / rowBytes
        }
        if !PCFLayoutTests.sameRows(read.bitmap, glyph.bitmap, limit: limit) || read.xOffset != glyph.xOffset
          || read.advance != glyph.advance
        {
          wrong.append(encoding)
        }
      }
      #expect(wrong.count == 0, "bdftopcf \(layout.joined(separator: " ")): \(wrong.count) glyphs differ from the BDF, the first \(wrong.prefix(5))")
      if unit <= pad { exact += 1 }
    }
    // 2 bit orders x 2 byte orders x (pad 1: unit 1; pad 2: units 1, 2; pad 4: units 1, 2, 4).
    #expect(exact == 24)
  }
}

@Suite struct PSFFontTests {
  /// Decodes a glyph with Python, from the file's bytes, as an independent reader.
  static func pythonGlyph(_ path: String, character: String) throws -> [String] {
    let script = """
      import gzip, struct, sys
      data = gzip.open(sys.argv[1]).read()
      magic, version, headersize, flags, length, charsize, height, width = struct.unpack('<8I', data[:32])
      table = data[headersize + length * charsize:]
      glyph, i, want = 0, 0, sys.argv[2].encode()
      while i < len(table):
          end = table.index(b'\\xff', i)
          entry = table[i:end].split(b'\\xfe')[0]
          if want in [entry[j:j+len(want)] for j in range(len(entry))]: break
          glyph, i = glyph + 1, end + 1
      row = (width + 7) // 8
      bits = data[headersize + glyph * charsize: headersize + (glyph + 1) * charsize]
      for y in range(height):
          value = int.from_bytes(bits[y * row:(y + 1) * row], 'big')
          print(''.join('#' if value >> (row * 8 - 1 - x) & 1 else '.' for x in range(width)))
      """
    let out = try DebianFonts.run("/usr/bin/env", ["python3", "-c", script, path, character])
    return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Every glyph of console fonts 6, 11, 14 and 16 pixels wide (rows of one and two bytes,
  /// padded or not) against Python's reading of the file's bytes: for each glyph, the first
  /// code point of its table entry that no glyph before it has.
  @Test(
    .enabled(if: DebianFonts.exists(DebianFonts.terminus32), "needs the Debian package console-setup-linux"),
    arguments: ["Lat15-Terminus12x6", "Lat15-Terminus22x11", "Lat15-Terminus28x14", "Lat15-Terminus32x16"])
  func everyGlyphMatchesPython(font name: String) throws {
    let path = "/usr/share/consolefonts/\(name).psf.gz"
    let script = """
      import gzip, struct, sys
      data = gzip.open(sys.argv[1]).read()
      magic, version, headersize, flags, length, charsize, height, width = struct.unpack('<8I', data[:32])
      table = data[headersize + length * charsize:].split(b'\\xff')
      row, seen = (width + 7) // 8, set()
      for glyph in range(length):
          codes = [c for c in table[glyph].split(b'\\xfe')[0].decode('utf-8') if ord(c) not in seen]
          if not codes: continue
          seen.update(ord(c) for c in table[glyph].split(b'\\xfe')[0].decode('utf-8'))
          bits = data[headersize + glyph * charsize: headersize + (glyph + 1) * charsize]
          rows = [int.from_bytes(bits[y * row:(y + 1) * row], 'big') for y in range(height)]
          print('%x' % ord(codes[0]), ','.join(''.join('#' if v >> (row * 8 - 1 - x) & 1 else '.' for x in range(width)) for v in rows))
      """
    let out = String(decoding: try DebianFonts.run("/usr/bin/env", ["python3", "-c", script, path]), as: UTF8.self)
    let font = try FontFile.load(path: path).font
    var checked = 0, wrong: [String] = []
    for line in out.split(separator: "\n") {
      let parts = line.split(separator: " ")
      guard parts.count == 2, let code = UInt32(parts[0], radix: 16), let scalar = Unicode.Scalar(code) else { continue }
      let rows = parts[1].split(separator: ",").map(String.init)
      if font.glyph(for: scalar)?.bitmap.rowStrings != rows { wrong.append(String(parts[0])) }
      checked += 1
    }
    #expect(checked > 200)
    #expect(wrong.isEmpty, "\(wrong.count) of \(checked) glyphs differ, the first \(wrong.prefix(5))")
  }

  @Test(.enabled(if: DebianFonts.exists(DebianFonts.terminus32), "needs the Debian package console-setup-linux"))
  func terminusAMatchesItsPSF2Bitmap() throws {
    let loaded = try FontFile.load(path: DebianFonts.terminus32)
    let font = try #require(loaded.font as? PSFFont)
    #expect(font.version == 2 && font.width == 16 && font.height == 32)
    for character in ["A", "g", "é", "€"] {
      let expected = try PSFFontTests.pythonGlyph(DebianFonts.terminus32, character: character)
      let glyph = try #require(font.glyph(for: character.unicodeScalars.first!), "\(character)")
      #expect(glyph.bitmap.rowStrings == expected, "\(character)")
    }
    // The baseline sits under the capital H: 'A' stands on it, 'g' goes below.
    let a = font.glyph(for: "A")!.bitmap
    #expect((a.height - font.descent..<a.height).allSatisfy { y in (0..<a.width).allSatisfy { !a[$0, y] } })
  }

  @Test(.enabled(if: DebianFonts.exists(DebianFonts.terminus16), "needs the Debian package console-setup-linux"))
  func psf1WithUnicodeTableLoads() throws {
    let loaded = try FontFile.load(path: DebianFonts.terminus16)
    let font = try #require(loaded.font as? PSFFont)
    #expect(font.version == 1 && font.width == 8 && font.height == 16)
    #expect(font.glyph(for: "é") != nil && font.glyph(for: "A") != font.glyph(for: "B"))
  }

  @Test func truncatedAndAbsurdPSFAreErrors() throws {
    #expect(throws: FontLoadError(path: "a.psf", reason: "truncated: 256 glyphs of 16 bytes do not fit in the file")) {
      try PSFFont(data: [0x36, 0x04, 0x00, 16, 1, 2, 3], name: "a", path: "a.psf")
    }
    var header: [UInt8] = [0x72, 0xB5, 0x4A, 0x86]
    for value: UInt32 in [0, 32, 0, 1, 100_000 * 12_500, 100_000, 1] {
      header += withUnsafeBytes(of: value.littleEndian, Array.init)
    }
    #expect(throws: FontLoadError.self) { try PSFFont(data: header, name: "b", path: "b.psf") }
  }
}

@Suite struct BDFQuirkTests {
  /// A BDF with the quirks real files have.
  static let quirky = [
    "COMMENT licence text before STARTFONT",
    "STARTFONT 2.1",
    "FONT -test-quirky",
    "SIZE 8 75 75",
    "FONTBOUNDINGBOX 8 8 -1 -2",
    "STARTPROPERTIES 2",
    "FONT_ASCENT 6",
    "FONT_DESCENT 2",
    "ENDPROPERTIES",
    "CHARS 99",
    "STARTCHAR A",
    "ENCODING 65",
    "SWIDTH 500 0",
    "DWIDTH 6 0",
    "BBX 5 6 0 0",
    "BITMAP ",
    "70", "88", "f8", "88", "88", "88",
    "ENDCHAR",
    "STARTCHAR j-without-dwidth",
    "ENCODING 106",
    "BBX 3 8 -1 -2",
    "BITMAP",
    "20", "00", "20", "20", "20", "20", "a0", "40",
    "ENDCHAR",
    "STARTCHAR wide",
    "ENCODING 87",
    "DWIDTH 4 0",
    "BBX 7 2 0 0",
    "BITMAP",
    "FE", "FE",
    "ENDCHAR",
    "STARTCHAR unencoded",
    "ENCODING -1 300",
    "BBX 1 1 0 0",
    "BITMAP", "80",
    "ENDCHAR",
    "STARTCHAR broken",
    "ENCODING 66",
    "DWIDTH 6 0",
    "BBX 5 1 0 0",
    "BITMAP",
    "G0",
    "ENDCHAR",
    "ENDFONT",
  ].joined(separator: "\r\n") + "\r\n"

  @Test func realWorldQuirksAreAccepted() throws {
    let font = try BDFFont(text: Array(BDFQuirkTests.quirky.utf8), name: "q", path: "q.bdf")
    #expect(font.ascent == 6 && font.descent == 2)
    let a = try #require(font.glyph(for: "A"))
    #expect(a.bitmap.rowStrings == [".###.", "#...#", "#####", "#...#", "#...#", "#...#"])
    #expect(a.top == 6 && a.advance == 6)
    let j = try #require(font.glyph(for: "j"))
    #expect(j.advance == 3 && j.xOffset == -1 && j.top == 6 && j.descent == 2)
    #expect(font.glyph(for: "W")?.advance == 4 && font.glyph(for: "W")?.bitmap.width == 7)
    #expect(font.glyph(for: "B") == nil)
    #expect(font.warnings.contains("q.bdf:56: glyph skipped: 'G' is not a hex digit"))
    #expect(font.glyphs.count == 3)
  }

  @Test func aGlyphReachingLeftOfThePenWidensTheStripInsteadOfBeingCut() throws {
    let font = try BDFFont(text: Array(BDFQuirkTests.quirky.utf8), name: "q", path: "q.bdf")
    let renderer = TextRenderer(fonts: FontChain(font), letterSpacing: 0)
    let strip = renderer.render("jA")
    // j's ink starts one column left of the pen: the strip grows by that column.
    #expect(strip.width == 1 + 3 + 6 - 1 + 1)
    #expect(strip.litCount == renderer.render("j").litCount + renderer.render("A").litCount)
  }

  @Test(arguments: [
    ("", "q.bdf:1: empty file (not a BDF font)"),
    ("FONT x\n", "q.bdf:1: not a BDF file (expected STARTFONT, found 'FONT')"),
    ("STARTFONT 2.1\nFONTBOUNDINGBOX 8 x\n", "q.bdf:2: FONTBOUNDINGBOX needs four integers"),
    ("STARTFONT 2.1\nSTARTCHAR a\nENCODING 65\nBBX 1 1 0 0\nBITMAP\n80\n", "q.bdf:6: the file ends inside the glyph that starts at line 2"),
    ("STARTFONT 2.1\nENDFONT\n", "q.bdf:2: no glyphs could be read"),
  ])
  func brokenFilesAreErrorsWithTheLine(text: String, message: String) {
    do {
      _ = try BDFFont(text: Array(text.utf8), name: "q", path: "q.bdf")
      Issue.record("accepted")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func absurdGlyphSizesAreSkippedNotAllocated() throws {
    let text = "STARTFONT 2.1\nSTARTCHAR big\nENCODING 65\nBBX 100000 100000 0 0\nBITMAP\n00\nENDCHAR\nSTARTCHAR b\nENCODING 66\nBBX 1 1 0 0\nBITMAP\n80\nENDCHAR\nENDFONT\n"
    let font = try BDFFont(text: Array(text.utf8), name: "q", path: "q.bdf")
    #expect(font.glyph(for: "A") == nil && font.glyph(for: "B") != nil)
    #expect(font.warnings.first?.contains("out of range") == true)
  }
}

@Suite struct FontFileTests {
  @Test func randomBytesAndTruncationsOfEveryFormatAreErrorsNotCrashes() throws {
    var samples: [[UInt8]] = [Array(BDFQuirkTests.quirky.utf8), Array("0041:\(String(repeating: "0", count: 32))\n".utf8)]
    for path in [DebianFonts.terminus16, DebianFonts.fixed6x13] where DebianFonts.exists(path) {
      samples.append(try Gzip.decompress([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
    }
    var random = SplitMix64(seed: 77)
    for sample in samples {
      for cut in stride(from: 0, to: sample.count, by: max(1, sample.count / 40)) {
        _ = try? FontFile.load(bytes: Array(sample.prefix(cut)), path: "cut")
      }
      for _ in 0..<40 {
        var damaged = sample
        for _ in 0..<8 { damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next()) }
        if let loaded = try? FontFile.load(bytes: damaged, path: "damaged") {
          for code in [0x41, 0x67, 0x4E2D] { _ = loaded.font.glyph(for: Unicode.Scalar(UInt32(code))!) }
        }
      }
    }
    let noise = (0..<5000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    #expect(throws: FontLoadError.self) { try FontFile.load(bytes: noise, path: "noise") }
    #expect(throws: FontLoadError(path: "empty", reason: "empty file (not a font)")) { try FontFile.load(bytes: [], path: "empty") }
  }

  @Test func missingFilesNameThePath() {
    #expect(throws: FontLoadError(path: "/nonexistent/font.bdf", reason: "No such file or directory")) {
      try FontFile.load(path: "/nonexistent/font.bdf")
    }
    #expect(throws: FontLocator.UnknownFont(name: "no-such-font-anywhere", suggestion: nil)) {
      try FontLocator.font(named: "no-such-font-anywhere")
    }
    #expect(throws: FontLocator.UnknownFont(name: "bolt", suggestion: "bold")) { try FontLocator.font(named: "bolt") }
  }

  @Test(.enabled(if: DebianFonts.exists(DebianFonts.unifontHex), "needs the Debian package unifont"))
  func fontsAreFoundByName() throws {
    #expect(FontLocator.path(named: "unifont") == DebianFonts.unifontHex)
    #expect(try FontLocator.font(named: "3x5").font.name == "3x5")
  }
}

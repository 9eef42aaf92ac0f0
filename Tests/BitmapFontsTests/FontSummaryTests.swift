import BitmapFonts
import Foundation
import Testing

/// `FontSummary` reads only a font file's header: checked against the full readers on the
/// real font files of Debian's packages (one in five, to keep the suite quick).
@Suite struct FontSummaryTests {
  static let files: [String] = FontLocator.searchFolders.prefix(3).flatMap { FontLocator.fontFiles(in: $0) }

  @Test(.enabled(if: !files.isEmpty, "needs Debian's font packages (unifont, console-setup-linux, xfonts-base, xfonts-wqy; .ci/run installs them)"))
  func theHeaderSaysWhatTheFullReaderFinds() throws {
    var checked = 0
    for (index, path) in FontSummaryTests.files.enumerated() where index % 5 == 0 || path.contains("unifont.hex") || path.contains("wenquanyi") {
      let summary = try FontSummary.read(path: path)
      let loaded = try FontFile.load(path: path)
      #expect(summary.format == loaded.format, "\(path)")
      #expect(summary.lineHeight == loaded.font.lineHeight, "\(path)")
      switch summary.format {
      case .hex, .bdf: #expect(summary.glyphCount == loaded.glyphCount, "\(path)")
      // PCF glyphs without a code make the file's count a little larger than the codes.
      case .pcf: #expect(summary.glyphCount >= loaded.glyphCount && summary.glyphCount * 19 <= loaded.glyphCount * 20, "\(path): \(summary.glyphCount) for \(loaded.glyphCount)")
      // A PSF's slots: 256 or 512 (PSF1), or its header's count (PSF2); one glyph may serve
      // several codes of its Unicode table.
      case .psf: #expect(summary.glyphCount >= 256 && summary.glyphCount <= loaded.glyphCount + 512, "\(path)")
      }
      checked += 1
    }
    #expect(checked > 50, "only \(checked) files")
  }

  @Test func aBDFFromItsHeaderAndAGzippedCopyAlike() throws {
    let bdf = """
      STARTFONT 2.1
      FONT -test-
      SIZE 8 75 75
      FONTBOUNDINGBOX 6 9 0 -2
      STARTPROPERTIES 1
      FONT_ASCENT 8
      ENDPROPERTIES
      CHARS 1
      STARTCHAR A
      ENCODING 65
      SWIDTH 500 0
      DWIDTH 6 0
      BBX 6 9 0 -2
      BITMAP
      00
      00
      00
      00
      00
      00
      00
      00
      00
      ENDCHAR
      ENDFONT

      """
    let folder = NSTemporaryDirectory() + "marquee-summary-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try bdf.write(toFile: folder + "/t.bdf", atomically: true, encoding: .utf8)
    // FONT_ASCENT from the properties, the descent from the bounding box, as the reader does.
    #expect(try FontSummary.read(path: folder + "/t.bdf") == FontSummary(format: .bdf, lineHeight: 10, glyphCount: 1))
    #expect(try FontFile.load(path: folder + "/t.bdf").font.lineHeight == 10)
  }
}

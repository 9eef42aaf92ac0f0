import BitmapFonts
import SignService

/// `marquee fonts [PATTERN]`: the fonts found, with their format, height and glyph count.
///
/// Names are matched before anything is read (a pattern is a part of the name, in any
/// letter case), and each font is summarised from its header (``FontSummary``), never
/// loaded whole: the listing is quick even where hundreds of font files are installed.
enum FontListing {
  /// Writes the header, then one line per font whose name contains `pattern`.
  static func write(matching pattern: String?, _ emit: (String) throws -> Void) throws {
    let wanted = pattern?.lowercased()
    func matches(_ name: String) -> Bool { wanted.map { name.lowercased().contains($0) } ?? true }
    try emit(row(name: "NAME", format: "FORMAT", height: "HEIGHT", glyphs: "GLYPHS", path: "FILE"))
    var found = 0
    for builtin in FontLocator.builtins where builtin.names.contains(where: matches) {
      let font = builtin.font
      try emit(row(
        name: builtin.names[0], format: "built-in", height: "\(font.lineHeight)px",
        glyphs: "\(FontLocator.builtinGlyphCount(font))", path: "(built in)"))
      found += 1
    }
    for folder in FontLocator.searchFolders {
      for path in FontLocator.fontFiles(in: folder) where matches(FontFile.fontName(fromPath: path)) {
        let name = FontFile.fontName(fromPath: path)
        do {
          let summary = try FontSummary.read(path: path)
          try emit(row(
            name: name, format: summary.format.rawValue, height: "\(summary.lineHeight)px",
            glyphs: "\(summary.glyphCount)", path: path))
        } catch {
          try emit(name.padding(to: 24) + "unreadable: \(error)")
        }
        found += 1
      }
    }
    if found == 0, let pattern {
      try emit("No font name contains '\(pattern)'.")
    }
  }

  static func row(name: String, format: String, height: String, glyphs: String, path: String) -> String {
    name.padding(to: 24) + format.padding(to: 12) + height.padding(to: 7) + glyphs.padding(to: 8) + path
  }
}

import BitmapFonts

/// `marquee fonts`: every font found, with its format, height and glyph count.
enum FontListing {
  static func listing() -> String {
    var lines: [String] = []
    for builtin in FontLocator.builtins {
      let font = builtin.font
      let count = FontLocator.builtinGlyphCount(font)
      lines.append(row(name: builtin.names[0], format: "built-in", height: font.lineHeight, glyphs: count, path: "(built in)"))
    }
    for folder in FontLocator.searchFolders {
      for path in FontLocator.fontFiles(in: folder) {
        do {
          let loaded = try FontFile.load(path: path)
          lines.append(row(
            name: FontFile.fontName(fromPath: path), format: loaded.format.rawValue,
            height: loaded.font.lineHeight, glyphs: loaded.glyphCount, path: path))
        } catch {
          lines.append(FontFile.fontName(fromPath: path).padding(to: 24) + "unreadable: \(error.reason)")
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func row(name: String, format: String, height: Int, glyphs: Int, path: String) -> String {
    name.padding(to: 24) + format.padding(to: 12) + "\(height)px".padding(to: 7)
      + "\(glyphs) glyphs".padding(to: 15) + path
  }
}

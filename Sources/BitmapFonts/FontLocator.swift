import MatrixCore
import Platform

/// Finds fonts by name: the built-in fonts, paths, and files in the standard font folders.
public enum FontLocator {
  /// The built-in fonts by name.
  public static let builtins: [(names: [String], font: any Font)] = [
    (["5x7", "builtin", "default"], BuiltinFont5x7()),
    (["3x5", "tiny"], BuiltinFont3x5()),
    (["8x8", "bold"], BuiltinFont8x8()),
  ]

  /// The number of glyphs of a built-in font.
  public static func builtinGlyphCount(_ font: any Font) -> Int {
    (font as? BuiltinFont5x7)?.scalars.count ?? (font as? BuiltinFont3x5)?.scalars.count
      ?? (font as? BuiltinFont8x8)?.scalars.count ?? 0
  }

  /// The folders searched, in order: Unifont's, the console fonts, X11's misc fonts, and
  /// `$XDG_DATA_HOME/fonts` (or `~/.local/share/fonts`).
  public static var searchFolders: [String] {
    var folders = ["/usr/share/unifont", "/usr/share/consolefonts", "/usr/share/fonts/X11/misc"]
    if let xdg = Environment.nonEmpty("XDG_DATA_HOME") {
      folders.append(xdg + "/fonts")
    } else if let home = Environment.value("HOME") {
      folders.append(home + "/.local/share/fonts")
    }
    return folders
  }

  /// The file extensions of font files.
  static let extensions = [".hex", ".bdf", ".pcf", ".psf", ".psfu"]

  /// Whether a file name looks like a font file.
  public static func isFontFile(_ name: String) -> Bool {
    let base = name.hasSuffix(".gz") ? String(name.dropLast(3)) : name
    return extensions.contains { base.hasSuffix($0) }
  }

  /// The font files in a folder (not recursive), sorted.
  public static func fontFiles(in folder: String) -> [String] {
    FileBytes.entries(of: folder).filter(isFontFile).map { folder + "/" + $0 }
  }

  /// The path of the font file called `name` (in any letter case) in the search folders.
  public static func path(named name: String) -> String? {
    let wanted = name.lowercased()
    for folder in searchFolders {
      if let match = fontFiles(in: folder).first(where: { FontFile.fontName(fromPath: $0).lowercased() == wanted }) {
        return match
      }
    }
    return nil
  }

  /// Every font name `--font` takes: the built-in names and the files in the search folders
  /// (found by name only, nothing loaded).
  public static var names: [String] {
    builtins.flatMap(\.names) + searchFolders.flatMap { fontFiles(in: $0) }.map(FontFile.fontName(fromPath:))
  }

  /// A font name that is neither built in, nor a file, nor in the search folders.
  public struct UnknownFont: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name asked for.
    public var name: String
    /// The closest name there is, if any is close.
    public var suggestion: String?

    /// An unknown `name`, with the closest known name if any is close.
    public init(name: String, suggestion: String?) {
      self.name = name
      self.suggestion = suggestion
    }

    public var description: String {
      "No font named '\(name)'." + (suggestion.map { " Did you mean '\($0)'?" } ?? "")
        + " See 'marquee fonts' for the names, or give a path."
    }
  }

  /// A font by built-in name, path, or name in the search folders (names in any case).
  ///
  /// - Throws: ``UnknownFont`` for a name found nowhere; ``FontLoadError`` for a file that
  ///   cannot be read.
  public static func font(named name: String) throws -> FontFile.Loaded {
    if let builtin = builtin(named: name) {
      let count = builtinGlyphCount(builtin.font)
      return FontFile.Loaded(font: builtin.font, format: .bdf, glyphCount: count, warnings: [])
    }
    guard let path = file(named: name) else {
      throw UnknownFont(name: name, suggestion: closestName(to: name, among: names))
    }
    return try FontFile.load(path: path)
  }

  /// The built-in font `name` calls (in any case), if it calls one.
  public static func builtin(named name: String) -> (names: [String], font: any Font)? {
    builtins.first { $0.names.contains(name.lowercased()) }
  }

  /// The file `name` means when it is not built in: a path (anything with a `/`, or a file
  /// that exists as named), else the font of that name in the search folders.
  public static func file(named name: String) -> String? {
    name.contains("/") || FileBytes.exists(name) ? name : path(named: name)
  }
}

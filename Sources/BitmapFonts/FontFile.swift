import Platform
import MatrixCore

/// Loading fonts from files of any supported format, gzip-compressed or not.
public enum FontFile {
  /// The formats recognised.
  public enum Format: String, Sendable {
    case bdf = "BDF", hex = "Unifont hex", psf = "PSF", pcf = "PCF"
  }

  /// A loaded font and what there is to know about it.
  public struct Loaded: Sendable {
    /// The font.
    public var font: any Font
    /// The file's format.
    public var format: Format
    /// The number of glyphs.
    public var glyphCount: Int
    /// Glyphs skipped and other problems (line numbers included).
    public var warnings: [String]
  }

  /// Reads a whole file, refusing files larger than ``FontLimits/maximumFileSize`` and
  /// anything but a regular file (a FIFO or `/dev/stdin` would block the reader).
  public static func readBytes(_ path: String) throws(FontLoadError) -> [UInt8] {
    do {
      return try FileBytes.read(path, limit: FontLimits.maximumFileSize, regularOnly: true)
    } catch {
      throw FontLoadError(path: path, reason: error.reason == "is a folder, not a file" ? "is a folder, not a font file" : error.reason)
    }
  }

  /// Loads a font file, detecting the format from its content (after gunzipping).
  public static func load(path: String) throws(FontLoadError) -> Loaded {
    var bytes = try readBytes(path)
    if Gzip.isGzip(bytes) {
      do {
        bytes = try Gzip.decompress(bytes, limit: FontLimits.maximumFileSize)
      } catch {
        throw FontLoadError(path: path, reason: "cannot decompress: \(error)")
      }
    }
    return try load(bytes: bytes, path: path)
  }

  /// Loads a font from (decompressed) bytes; `path` names it in errors.
  public static func load(bytes: [UInt8], path: String) throws(FontLoadError) -> Loaded {
    let name = fontName(fromPath: path)
    guard !bytes.isEmpty else { throw FontLoadError(path: path, reason: "empty file (not a font)") }
    if PSFFont.isPSF(bytes) {
      let font = try PSFFont(data: bytes, name: name, path: path)
      return Loaded(font: font, format: .psf, glyphCount: font.glyphs.count, warnings: font.warnings)
    }
    if PCFFont.isPCF(bytes) {
      let font = try PCFFont(data: bytes, name: name, path: path)
      return Loaded(font: font, format: .pcf, glyphCount: font.glyphCount, warnings: font.warnings)
    }
    if looksLikeBDF(bytes) {
      let font = try BDFFont(text: bytes, name: name, path: path)
      return Loaded(font: font, format: .bdf, glyphCount: font.glyphs.count, warnings: font.warnings)
    }
    if looksLikeHex(bytes) {
      let font = try HexFont(data: bytes, name: name, path: path, markOffsets: combiningOffsets(besides: path))
      return Loaded(font: font, format: .hex, glyphCount: font.glyphCount, warnings: font.warnings)
    }
    throw FontLoadError(path: path, reason: "not a font in a known format (BDF, Unifont hex, PSF, PCF, or one of them gzipped)")
  }

  /// Whether the text starts (after COMMENT lines and blanks) with STARTFONT.
  static func looksLikeBDF(_ bytes: [UInt8]) -> Bool {
    let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
    for line in head.split(whereSeparator: \.isNewline) {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.isEmpty || trimmed.hasPrefix("COMMENT") { continue }
      return trimmed.hasPrefix("STARTFONT")
    }
    return false
  }

  /// Whether the first line looks like `CODE:HEX`.
  static func looksLikeHex(_ bytes: [UInt8]) -> Bool {
    guard let colon = bytes.prefix(8).firstIndex(of: UInt8(ascii: ":")), (4...6).contains(colon) else { return false }
    return bytes[..<colon].allSatisfy { HexDigit.value($0) != nil }
  }

  /// Unifont's mark offsets, read from `plane00-combining.txt` beside the hex file.
  static func combiningOffsets(besides path: String) -> [UInt32: Int] {
    let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    guard let bytes = try? readBytes(folder + "/plane00-combining.txt") else { return [:] }
    return HexFont.markOffsets(from: bytes)
  }

  /// The font's name from its path: the file name without folders and font extensions.
  public static func fontName(fromPath path: String) -> String {
    var name = path.split(separator: "/").last.map(String.init) ?? path
    for suffix in [".gz", ".hex", ".bdf", ".pcf", ".psfu", ".psf"] where name.hasSuffix(suffix) {
      name.removeLast(suffix.count)
    }
    for suffix in [".hex", ".bdf", ".pcf", ".psfu", ".psf"] where name.hasSuffix(suffix) {
      name.removeLast(suffix.count)
    }
    return name
  }
}


/// A font file that could not be read, with the file and, where it helps, the line.
public struct FontLoadError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file's path.
  public var path: String
  /// The 1-based line (text formats) or `nil` (binary formats, whole-file problems).
  public var line: Int?
  /// What is wrong.
  public var reason: String

  /// Creates an error.
  public init(path: String, line: Int? = nil, reason: String) {
    self.path = path
    self.line = line
    self.reason = reason
  }

  public var description: String {
    line.map { "\(path):\($0): \(reason)" } ?? "\(path): \(reason)"
  }
}

/// Limits that keep a hostile or broken font file from costing unbounded memory or time.
public enum FontLimits {
  /// The widest or tallest glyph accepted, in pixels.
  public static let maximumGlyphSize = 512
  /// The largest font file read, after decompression.
  public static let maximumFileSize = 64 << 20
}

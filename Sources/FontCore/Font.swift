/// A bitmap font: a set of glyphs on a common baseline.
///
/// Fonts may decode glyphs lazily (a 57,000-glyph Unifont is indexed, not decoded, at load),
/// so lookups go through ``glyph(for:)``; implementations must be safe to call from any
/// thread.
public protocol Font: AnyObject, Sendable {
  /// A human-readable name (`5x7`, `unifont`, a file name).
  var name: String { get }
  /// The rows above the baseline that the font's tallest glyphs use.
  var ascent: Int { get }
  /// The rows below the baseline that the font's descenders use.
  var descent: Int { get }
  /// The glyph for a Unicode scalar, or `nil` if the font lacks it.
  func glyph(for scalar: Unicode.Scalar) -> Glyph?
  /// Whether the font has a glyph for a Unicode scalar, without drawing it (the built-in
  /// fonts draw a glyph at each lookup).
  func hasGlyph(for scalar: Unicode.Scalar) -> Bool
}

extension Font {
  /// Whether the font has a glyph for a Unicode scalar: whether ``glyph(for:)`` finds one.
  public func hasGlyph(for scalar: Unicode.Scalar) -> Bool { glyph(for: scalar) != nil }

  /// The height of one line of text: ascent plus descent.
  public var lineHeight: Int { ascent + descent }
}

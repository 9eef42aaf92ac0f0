/// An HT16K33 matrix backpack: which LED each of the chip's row and common outputs drives.
///
/// The chip has 16 row outputs (ROW0-15) and 8 commons (COM0-7); the LED at row `r` and
/// common `c` is display RAM byte `2c + r / 8`, bit `r % 8` (Holtek datasheet, display RAM
/// map). Positions are as the backpack is seen in its reference orientation (the way
/// Adafruit's libraries draw at rotation 0, except the 16x8, seen lying: 16 wide): x from
/// the left, y from the top.
public enum HT16K33Module: String, Sendable, CaseIterable {
  /// Adafruit's 8x8 backpacks: common `c` drives row `c`, and the columns are wired one
  /// place round (ROW `r` lights column `(r + 1) % 8`).
  case matrix8x8 = "8x8"
  /// Adafruit's 16x8 (1.2" dual) backpack lying flat: common `c` drives row `c`, ROW `r`
  /// column `r`.
  case matrix16x8 = "16x8"
  /// The same 16x8 backpack standing up, 8 wide and 16 tall, as Adafruit's library draws it
  /// by default.
  case matrix8x16 = "8x16"
  /// Adafruit's bicolor 8x8: common `c` drives row `c`; ROW `r` < 8 is the green LED of
  /// column `r`, ROW `r + 8` the red one.
  case bicolor8x8 = "bicolor-8x8"

  /// The colour a bicolor backpack lights: one LED of each pixel, or both (yellow).
  public enum Color: String, Sendable, CaseIterable {
    case green, red, yellow
  }

  /// Pixels across, in the reference orientation.
  public var width: Int { self == .matrix16x8 ? 16 : 8 }
  /// Pixels down, in the reference orientation.
  public var height: Int { self == .matrix8x16 ? 16 : 8 }

  /// The pixel the LED at `row` (0...15) and `common` (0...7) lights, or `nil` for an
  /// output this backpack leaves unconnected (or a colour the board does not use).
  public func pixel(row: Int, common: Int, color: Color = .green) -> (x: Int, y: Int)? {
    switch self {
    case .matrix8x8:
      return row < 8 ? ((row + 1) % 8, common) : nil
    case .matrix16x8:
      return (row, common)
    case .matrix8x16:
      // Lying, the LED is at (row, common); standing, that pixel turns a quarter clockwise.
      return (7 - common, row)
    case .bicolor8x8:
      let isRed = row >= 8
      switch color {
      case .green where isRed, .red where !isRed: return nil
      default: return (row % 8, common)
      }
    }
  }
}

/// An 8x8 block of pixels in one 64-bit word, and the symmetries of the square on it.
///
/// Row `r` is byte `r` counted from the most significant end; within a byte, bit 7 is the
/// leftmost pixel. A MAX7219 encoder reads a module's block out of the framebuffer with
/// eight shifts, turns it into the chip's digit order with at most three of these
/// operations, and has every digit register's byte.
public enum BitBlock {
  /// Mirrors left to right: reverses the bits of every byte.
  @inline(__always)
  public static func flipHorizontally(_ x: UInt64) -> UInt64 {
    var x = x
    x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1)
    x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2)
    x = ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4)
    return x
  }

  /// Mirrors top to bottom: reverses the byte order.
  @inline(__always)
  public static func flipVertically(_ x: UInt64) -> UInt64 {
    x.byteSwapped
  }

  /// Swaps rows and columns (the main diagonal stays).
  @inline(__always)
  public static func transpose(_ x: UInt64) -> UInt64 {
    var x = x
    var t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA
    x = x ^ t ^ (t << 7)
    t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC
    x = x ^ t ^ (t << 14)
    t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0
    x = x ^ t ^ (t << 28)
    return x
  }

  /// Whether the pixel at (`x`, `y`) is set.
  public static func pixel(_ block: UInt64, x: Int, y: Int) -> Bool {
    block & (1 << UInt64(63 - (y * 8 + x))) != 0
  }

  /// The block with only (`x`, `y`) set.
  public static func single(x: Int, y: Int) -> UInt64 {
    1 << UInt64(63 - (y * 8 + x))
  }

  /// One of the eight symmetries of the square: transpose first (if set), then the flips.
  public struct Symmetry: Sendable, Hashable, CaseIterable {
    public var transposes: Bool
    public var flipsHorizontally: Bool
    public var flipsVertically: Bool

    public static let allCases: [Symmetry] = [false, true].flatMap { t in
      [false, true].flatMap { h in [false, true].map { v in
        Symmetry(transposes: t, flipsHorizontally: h, flipsVertically: v)
      } }
    }

    /// Applies the symmetry.
    @inline(__always)
    public func apply(_ block: UInt64) -> UInt64 {
      var x = block
      if transposes { x = BitBlock.transpose(x) }
      if flipsHorizontally { x = BitBlock.flipHorizontally(x) }
      if flipsVertically { x = BitBlock.flipVertically(x) }
      return x
    }
  }
}

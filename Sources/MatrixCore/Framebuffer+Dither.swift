extension Framebuffer {
  /// The rank of (`x`, `y`) in the 8x8 Bayer ordered-dither matrix, 0..<64: keeping the
  /// pixels of rank below n lights n/64 of an area, spread as evenly as a grid allows.
  public static func ditherRank(x: Int, y: Int) -> Int {
    Int(bayer8[(y & 7) << 3 | (x & 7)])
  }

  /// The 8x8 Bayer matrix, row by row, built from the 2x2 one by the usual recursion.
  static let bayer8: [UInt8] = {
    var matrix = [0, 2, 3, 1]
    var size = 2
    while size < 8 {
      var next = [Int](repeating: 0, count: size * size * 4)
      for y in 0..<(size * 2) {
        for x in 0..<(size * 2) {
          let base = matrix[(y % size) * size + (x % size)] * 4
          let quadrant = [0, 2, 3, 1][(y / size) * 2 + (x / size)]
          next[y * size * 2 + x] = base + quadrant
        }
      }
      matrix = next
      size *= 2
    }
    return matrix.map { UInt8($0) }
  }()

  /// For each row of the matrix (8) and each count 0...64, the row's pixels of rank below
  /// the count, as a byte (most significant bit: column 0).
  static let ditherRows: [UInt8] = (0..<8).flatMap { row in
    (0...64).map { count in
      (0..<8).reduce(UInt8(0)) { byte, x in bayer8[row << 3 | x] < count ? byte | UInt8(0x80 >> x) : byte }
    }
  }

  /// Keeps the pixels whose dither rank is below `level` (0...64; with `inverted`, those at
  /// or above it) and darkens the others: a word operation per 64 pixels, since the pattern
  /// repeats every 8 columns.
  public mutating func keepDithered(below level: Double, inverted: Bool = false) {
    let stride = wordsPerRow, height = self.height
    guard stride > 0 else { return }
    // Integer ranks below `level` are exactly those below its ceiling.
    let count = Int(Swift.max(0, Swift.min(64, level.rounded(.up))))
    Framebuffer.ditherRows.withUnsafeBufferPointer { rows in
      words.withUnsafeMutableBufferPointer { words in
        for y in 0..<height {
          var pattern = UInt64(rows[(y & 7) * 65 + count]) &* 0x0101_0101_0101_0101
          if inverted { pattern = ~pattern }
          let row = words.baseAddress! + y * stride
          for index in 0..<stride { row[index] &= pattern }
        }
      }
    }
  }
}

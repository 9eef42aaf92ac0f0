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

  /// Keeps the pixels whose dither rank is below `level` (0...64; with `inverted`, those at
  /// or above it) and darkens the others: a word operation per 64 pixels, since the pattern
  /// repeats every 8 columns.
  public mutating func keepDithered(below level: Double, inverted: Bool = false) {
    let stride = wordsPerRow
    guard stride > 0 else { return }
    let ranks = Framebuffer.bayer8
    words.withUnsafeMutableBufferPointer { words in
      for y in 0..<height {
        var pattern: UInt64 = 0
        for x in 0..<8 where (Double(ranks[(y & 7) << 3 | x]) < level) != inverted {
          pattern |= 0x80 >> UInt64(x)
        }
        pattern &*= 0x0101_0101_0101_0101
        let row = words.baseAddress! + y * stride
        for index in 0..<stride { row[index] &= pattern }
      }
    }
  }
}

extension Framebuffer {
  /// The bit each of eight lanes stands for in a byte, first lane most significant.
  static let laneWeights = SIMD8<Int32>(128, 64, 32, 16, 8, 4, 2, 1)

  /// Sets this framebuffer to the pixels of `pixels` where `coverage` is lit and `hidden`
  /// (if given) is not, in one pass over the words; returns whether any pixel is lit. All
  /// four are the same size.
  @discardableResult
  public mutating func assign(_ pixels: Framebuffer, maskedBy coverage: Framebuffer, except hidden: Framebuffer? = nil) -> Bool {
    precondition(
      pixels.width == width && pixels.height == height && coverage.width == width && coverage.height == height
        && (hidden.map { $0.width == width && $0.height == height } ?? true), "sizes differ")
    var any: UInt64 = 0
    pixels.words.withUnsafeBufferPointer { pixels in
      coverage.words.withUnsafeBufferPointer { coverage in
        words.withUnsafeMutableBufferPointer { result in
          if let hidden {
            hidden.words.withUnsafeBufferPointer { hidden in
              for index in result.indices {
                result[index] = pixels[index] & coverage[index] & ~hidden[index]
                any |= result[index]
              }
            }
          } else {
            for index in result.indices {
              result[index] = pixels[index] & coverage[index]
              any |= result[index]
            }
          }
        }
      }
    }
    return any != 0
  }

  /// Keeps the pixels of the columns whose bit is set in `pattern`, read as 64 columns
  /// (most significant bit first) repeating across the width, and darkens the others.
  public mutating func keepColumns(repeating pattern: UInt64) {
    words.withUnsafeMutableBufferPointer { words in
      for index in words.indices { words[index] &= pattern }
    }
  }

  /// Lights the columns whose bit is set in `pattern`, read as 64 columns (most
  /// significant bit first) repeating across the width.
  public mutating func lightColumns(repeating pattern: UInt64) {
    let stride = wordsPerRow, lastMask = lastWordMask
    guard stride > 0 else { return }
    words.withUnsafeMutableBufferPointer { words in
      for index in words.indices {
        words[index] |= index % stride == stride - 1 ? pattern & lastMask : pattern
      }
    }
  }

  /// Keeps the columns `range` (clipped) and darkens the others.
  public mutating func keepColumns(_ range: Range<Int>) {
    let low = Swift.max(0, Swift.min(width, range.lowerBound)), high = Swift.max(low, Swift.min(width, range.upperBound))
    fill(x: 0, y: 0, width: low, height: height, lit: false)
    fill(x: high, y: 0, width: width - high, height: height, lit: false)
  }

  /// Calls `body` with which columns have a lit pixel: bit `x % 64` (most significant
  /// first) of word `x / 64`, in temporary storage.
  public func withLitColumns<R>(_ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
    let stride = wordsPerRow
    return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: stride) { columns in
      columns.initialize(repeating: 0)
      words.withUnsafeBufferPointer { words in
        for y in 0..<height {
          for index in 0..<stride { columns[index] |= words[y * stride + index] }
        }
      }
      return body(UnsafeBufferPointer(columns))
    }
  }

  /// Keeps the pixels whose rank in `ranks` (one per pixel, row by row) is below
  /// `threshold` (with `inverted`, at or above it) and darkens the others, building each
  /// 64-pixel mask word in registers.
  public mutating func keepRanked(_ ranks: [Int32], below threshold: Double, inverted: Bool = false) {
    precondition(ranks.count == width * height, "one rank per pixel")
    // Integer ranks below `threshold` are exactly those below its ceiling.
    let limit = Int32(clamping: Int(max(-1, min(Double(Int32.max), threshold.rounded(.up)))))
    let stride = wordsPerRow, width = self.width, height = self.height
    let limits = SIMD8<Int32>(repeating: limit)
    ranks.withUnsafeBufferPointer { ranks in
      words.withUnsafeMutableBufferPointer { words in
        for y in 0..<height {
          let rowRanks = ranks.baseAddress! + y * width
          for word in 0..<stride {
            let start = word << 6, count = Swift.min(64, width - start)
            var below: UInt64 = 0
            var x = 0
            // Eight ranks compared at once; each lane weighs its bit, the sum is the byte.
            while x + 8 <= count {
              let ranks = UnsafeRawPointer(rowRanks + start + x).loadUnaligned(as: SIMD8<Int32>.self)
              let byte = SIMD8<Int32>.zero.replacing(with: Framebuffer.laneWeights, where: ranks .< limits).wrappedSum()
              below = below << 8 | UInt64(truncatingIfNeeded: byte)
              x += 8
            }
            while x < count {
              below = below << 1 | (rowRanks[start + x] < limit ? 1 : 0)
              x += 1
            }
            below <<= UInt64(64 - count)
            words[y * stride + word] &= inverted ? ~below : below
          }
        }
      }
    }
  }

  /// The source column (or row) that position `x` of an axis `size` long reads when the
  /// axis is scaled by `factor` about its centre (nearest neighbour); outside `0..<size`
  /// it reads dark.
  @inline(__always)
  static func scaledSource(_ x: Int, size: Int, factor: Double) -> Int {
    let centre = Double(size) / 2
    let position = (Double(x) + 0.5 - centre) / factor + centre
    // Rounded down without a call into libm (positions are far inside Int's range).
    guard position > -1e15, position < 1e15 else { return position < 0 ? -1 : size }
    let truncated = Int(position)
    return Double(truncated) > position ? truncated - 1 : truncated
  }

  /// Replaces this framebuffer with `source` (the same size) scaled by `factor` about the
  /// centre, nearest neighbour: each pixel takes the source pixel its centre maps to, dark
  /// outside the source. Each row's column map is worked out once and a destination row
  /// that reads the same source row as the one above is copied.
  public mutating func drawScaled(_ source: Framebuffer, by factor: Double) {
    precondition(source.width == width && source.height == height, "sizes differ")
    precondition(factor > 0, "a scale factor is positive")
    let width = self.width, height = self.height, stride = wordsPerRow
    guard stride > 0, height > 0 else { return }
    withUnsafeTemporaryAllocation(of: Int.self, capacity: width) { columns in
      var firstInside = width, endInside = 0
      for x in 0..<width {
        let sx = Framebuffer.scaledSource(x, size: width, factor: factor)
        columns[x] = sx
        if sx >= 0 && sx < width {
          firstInside = Swift.min(firstInside, x)
          endInside = x + 1
        }
      }
      source.words.withUnsafeBufferPointer { source in
        words.withUnsafeMutableBufferPointer { destination in
          var previousRow = -1, previousSource = -1
          for y in 0..<height {
            let sy = Framebuffer.scaledSource(y, size: height, factor: factor)
            let row = destination.baseAddress! + y * stride
            if sy < 0 || sy >= height {
              row.update(repeating: 0, count: stride)
              continue
            }
            if sy == previousSource {
              row.update(from: destination.baseAddress! + previousRow * stride, count: stride)
              previousRow = y
              continue
            }
            let from = source.baseAddress! + sy * stride
            for word in 0..<stride {
              var bits: UInt64 = 0
              let start = word << 6
              // Only the columns that read inside the source (a run, the map being monotonic).
              for x in Swift.max(start, firstInside)..<Swift.max(Swift.max(start, firstInside), Swift.min(start + 64, endInside)) {
                let sx = columns[x]
                bits |= ((from[sx &>> 6] &<< UInt64(sx & 63)) &>> 63) &<< UInt64(63 &- (x &- start))
              }
              row[word] = bits
            }
            (previousRow, previousSource) = (y, sy)
          }
        }
      }
    }
  }

  /// Lights exactly the pixels that read inside the area when it is scaled by `factor`
  /// about its centre, and darkens the rest: what ``drawScaled(_:by:)`` makes of a fully
  /// lit framebuffer, as one rectangle.
  public mutating func fillScaledExtent(by factor: Double) {
    precondition(factor > 0, "a scale factor is positive")
    // The source position grows with the position (factor > 0), so the positions that read
    // inside are one run: from the first that reads at or past 0 to the first that reads
    // at or past the size, each found by binary search.
    func inside(_ size: Int) -> (first: Int, end: Int) {
      func firstReading(atLeast bound: Int) -> Int {
        var low = 0, high = size
        while low < high {
          let middle = (low + high) / 2
          if Framebuffer.scaledSource(middle, size: size, factor: factor) >= bound { high = middle } else { low = middle + 1 }
        }
        return low
      }
      let first = firstReading(atLeast: 0)
      return (first, Swift.max(first, firstReading(atLeast: size)))
    }
    let columns = inside(width), rows = inside(height)
    clear()
    fill(x: columns.first, y: rows.first, width: columns.end - columns.first, height: rows.end - rows.first, lit: true)
  }
}

extension Framebuffer {
  /// A picture with a third of its pixels lit in slanted stripes, about as many as a line
  /// of text lights: what a panel's refresh is measured on (`marquee doctor`, `marquee-bench`).
  public static func textLikeStripes(width: Int, height: Int) -> Framebuffer {
    var pixels = Framebuffer(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width where (x / 3 + y / 2) % 3 == 0 { pixels[x, y] = true }
    }
    return pixels
  }
}

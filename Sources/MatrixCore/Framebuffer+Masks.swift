extension Framebuffer {
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
    ranks.withUnsafeBufferPointer { ranks in
      words.withUnsafeMutableBufferPointer { words in
        for y in 0..<height {
          let rowRanks = ranks.baseAddress! + y * width
          for word in 0..<stride {
            var below: UInt64 = 0
            let start = word << 6
            // Branch-free: the sign of rank - limit is the bit.
            for x in start..<Swift.min(width, start + 64) {
              let sign = UInt64(truncatingIfNeeded: UInt32(bitPattern: rowRanks[x] &- limit) >> 31)
              below |= sign << UInt64(63 - (x - start))
            }
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
    func inside(_ size: Int) -> (first: Int, end: Int) {
      var first = size, end = 0
      for x in 0..<size {
        let source = Framebuffer.scaledSource(x, size: size, factor: factor)
        if source >= 0 && source < size {
          first = Swift.min(first, x)
          end = x + 1
        }
      }
      return (first, end)
    }
    let columns = inside(width), rows = inside(height)
    clear()
    fill(x: columns.first, y: rows.first, width: columns.end - columns.first, height: rows.end - rows.first, lit: true)
  }
}

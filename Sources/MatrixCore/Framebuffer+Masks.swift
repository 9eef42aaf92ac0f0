extension Framebuffer {
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
            var keep: UInt64 = 0
            let start = word << 6
            for x in start..<Swift.min(width, start + 64) where (rowRanks[x] < limit) != inverted {
              keep |= 0x8000_0000_0000_0000 >> UInt64(x - start)
            }
            words[y * stride + word] &= keep
          }
        }
      }
    }
  }

  /// Replaces this framebuffer with `source` (the same size) scaled by `factor` about the
  /// centre, nearest neighbour: each pixel takes the source pixel its centre maps to, dark
  /// outside the source. Built a destination word at a time.
  public mutating func drawScaled(_ source: Framebuffer, by factor: Double) {
    precondition(source.width == width && source.height == height, "sizes differ")
    let cx = Double(width) / 2, cy = Double(height) / 2
    let width = self.width, height = self.height, stride = wordsPerRow
    source.words.withUnsafeBufferPointer { source in
      words.withUnsafeMutableBufferPointer { destination in
        for y in 0..<height {
          let sy = Int(((Double(y) + 0.5 - cy) / factor + cy).rounded(.down))
          let row = destination.baseAddress! + y * stride
          guard sy >= 0, sy < height else {
            row.update(repeating: 0, count: stride)
            continue
          }
          let from = source.baseAddress! + sy * stride
          for word in 0..<stride {
            var bits: UInt64 = 0
            let start = word << 6
            for x in start..<Swift.min(width, start + 64) {
              let sx = Int(((Double(x) + 0.5 - cx) / factor + cx).rounded(.down))
              guard sx >= 0, sx < width else { continue }
              bits |= ((from[sx >> 6] << UInt64(sx & 63)) >> 63) << UInt64(63 - (x - start))
            }
            row[word] = bits
          }
        }
      }
    }
  }
}

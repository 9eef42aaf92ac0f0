extension Framebuffer {
  /// Moves every pixel by (`dx`, `dy`) in place: what moves past an edge is lost and what
  /// is uncovered is dark.
  public mutating func shift(dx: Int, dy: Int) {
    guard dx != 0 || dy != 0 else { return }
    guard abs(dx) < width, abs(dy) < height else {
      clear()
      return
    }
    let stride = wordsPerRow
    let lastMask = lastWordMask
    let height = self.height
    words.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress!
      // Rows first: a move of whole rows, the uncovered ones cleared.
      if dy > 0 {
        (base + dy * stride).update(from: base, count: (height - dy) * stride)
        base.update(repeating: 0, count: dy * stride)
      } else if dy < 0 {
        base.update(from: base + -dy * stride, count: (height + dy) * stride)
        (base + (height + dy) * stride).update(repeating: 0, count: -dy * stride)
      }
      guard dx != 0 else { return }
      // Then each row by dx bits: whole words, then the bits within a word.
      let wordShift = abs(dx) >> 6, bitShift = UInt64(abs(dx) & 63)
      for y in 0..<height {
        let row = base + y * stride
        if dx > 0 {
          // Towards the right: walk from the last word so sources are read before written.
          var index = stride - 1
          while index >= 0 {
            let from = index - wordShift
            let high = from >= 0 ? row[from] : 0
            let low = from - 1 >= 0 ? row[from - 1] : 0
            row[index] = bitShift == 0 ? high : high >> bitShift | low << (64 - bitShift)
            index -= 1
          }
        } else {
          for index in 0..<stride {
            let from = index + wordShift
            let high = from < stride ? row[from] : 0
            let low = from + 1 < stride ? row[from + 1] : 0
            row[index] = bitShift == 0 ? high : high << bitShift | low >> (64 - bitShift)
          }
        }
        row[stride - 1] &= lastMask
      }
    }
  }
}

/// How source pixels combine with the pixels already in the destination.
public enum BlitMode: Sendable, Hashable {
  /// The destination rectangle takes the source pixels, lit and dark.
  case copy
  /// Lit source pixels light the destination; dark ones leave it as it was.
  case or
  /// Lit source pixels flip the destination.
  case xor
  /// Lit source pixels darken the destination (a mask that erases).
  case clear
  /// Dark source pixels darken the destination (a mask that keeps).
  case and
}

extension Framebuffer {
  /// Draws `source` with its top-left corner at (`x`, `y`), clipped to this framebuffer.
  ///
  /// Offsets may be negative or past the edges: only the overlapping part is drawn.
  public mutating func draw(_ source: Framebuffer, atX x: Int, y: Int, mode: BlitMode = .copy) {
    draw(
      source, sourceX: 0, sourceY: 0, width: source.width, height: source.height,
      atX: x, y: y, mode: mode)
  }

  /// Draws the `width` x `height` rectangle of `source` whose top-left corner is
  /// (`sourceX`, `sourceY`) with its top-left corner at (`x`, `y`), clipped on both sides.
  public mutating func draw(
    _ source: Framebuffer, sourceX: Int, sourceY: Int, width: Int, height: Int,
    atX x: Int, y: Int, mode: BlitMode = .copy
  ) {
    // Clip the source rectangle to the source, then the destination to self.
    var sx = sourceX, sy = sourceY, dx = x, dy = y, w = width, h = height
    if sx < 0 { w += sx; dx -= sx; sx = 0 }
    if sy < 0 { h += sy; dy -= sy; sy = 0 }
    if dx < 0 { w += dx; sx -= dx; dx = 0 }
    if dy < 0 { h += dy; sy -= dy; dy = 0 }
    w = min(w, source.width - sx, self.width - dx)
    h = min(h, source.height - sy, self.height - dy)
    guard w > 0, h > 0 else { return }

    let sourceStride = source.wordsPerRow
    let stride = wordsPerRow
    if sx == 0, dx == 0, w == self.width, w == source.width {
      // Whole rows onto whole rows of the same width: word by word, no bit arithmetic (both
      // sides keep their padding bits dark, so every mode keeps it dark too).
      drawRows(of: source, from: sy, to: dy, count: h, mode: mode)
      return
    }
    source.words.withUnsafeBufferPointer { src in
      words.withUnsafeMutableBufferPointer { dst in
        let sourceRows = src.baseAddress! + sy * sourceStride
        let destinationRows = dst.baseAddress! + dy * stride
        // Column by column of destination words: each step takes up to 64 source bits at
        // the same offsets in every row, so its arithmetic is done once for all rows.
        var remaining = w, s = sx, d = dx
        while remaining > 0 {
          let dw = d >> 6, db = UInt64(d & 63)
          let n = Swift.min(64 - Int(db), remaining)
          let sw = s >> 6, sb = UInt64(s & 63)
          let mask = (n == 64 ? ~0 : ~((~0 as UInt64) >> UInt64(n))) >> db
          let hasNext = sb != 0 && sw + 1 < sourceStride
          Framebuffer.combineColumn(
            from: sourceRows + sw, sourceStride: sourceStride, readsNext: hasNext, shift: sb,
            into: destinationRows + dw, stride: stride, rows: h, destinationShift: db, mask: mask, mode: mode)
          s += n
          d += n
          remaining -= n
        }
      }
    }
  }

  /// Combines `count` whole rows of `source` (as wide as this framebuffer), from row `from`,
  /// into this framebuffer's rows from `to`.
  private mutating func drawRows(of source: Framebuffer, from: Int, to: Int, count: Int, mode: BlitMode) {
    let stride = wordsPerRow
    source.words.withUnsafeBufferPointer { src in
      words.withUnsafeMutableBufferPointer { dst in
        let s = src.baseAddress! + from * stride, d = dst.baseAddress! + to * stride
        let total = count * stride
        switch mode {
        case .copy: d.update(from: s, count: total)
        case .or: for index in 0..<total { d[index] |= s[index] }
        case .xor: for index in 0..<total { d[index] ^= s[index] }
        case .clear: for index in 0..<total { d[index] &= ~s[index] }
        case .and: for index in 0..<total { d[index] &= s[index] }
        }
      }
    }
  }

  /// Combines one destination word of each of `rows` rows with the source bits that land
  /// there: the source word at `source` (and the next one, if `readsNext`) shifted left by
  /// `shift`, then right by `destinationShift`, under `mask`.
  @inline(__always)
  static func combineColumn(
    from source: UnsafePointer<UInt64>, sourceStride: Int, readsNext: Bool, shift: UInt64,
    into destination: UnsafeMutablePointer<UInt64>, stride: Int, rows: Int, destinationShift: UInt64,
    mask: UInt64, mode: BlitMode
  ) {
    @inline(__always) func each(_ combine: (inout UInt64, UInt64) -> Void) {
      var from = source, to = destination
      for _ in 0..<rows {
        var bits = from[0] &<< shift
        if readsNext { bits |= from[1] &>> (64 &- shift) }
        combine(&to[0], (bits &>> destinationShift) & mask)
        from += sourceStride
        to += stride
      }
    }
    switch mode {
    case .copy: each { $0 = ($0 & ~mask) | $1 }
    case .or: each { $0 |= $1 }
    case .xor: each { $0 ^= $1 }
    case .clear: each { $0 &= ~$1 }
    case .and: each { $0 &= ~(mask & ~$1) }
    }
  }

  /// Sets every pixel of a rectangle, clipped to the framebuffer.
  public mutating func fill(x: Int, y: Int, width: Int, height: Int, lit: Bool) {
    let x0 = max(0, x), y0 = max(0, y)
    let x1 = min(self.width, x + width), y1 = min(self.height, y + height)
    guard x0 < x1, y0 < y1 else { return }
    let stride = wordsPerRow
    words.withUnsafeMutableBufferPointer { buffer in
      // Word by word across the span, each word's mask worked out once for all rows.
      var bit = x0
      while bit < x1 {
        let db = bit & 63
        let n = Swift.min(64 - db, x1 - bit)
        let mask = (n == 64 ? ~0 : ~((~0 as UInt64) >> UInt64(n))) >> UInt64(db)
        var word = buffer.baseAddress! + (y0 * stride + (bit >> 6))
        for _ in y0..<y1 {
          if lit { word.pointee |= mask } else { word.pointee &= ~mask }
          word += stride
        }
        bit += n
      }
    }
  }

  /// Returns the `width` x `height` part of this framebuffer at (`x`, `y`); parts outside are dark.
  public func cropped(x: Int, y: Int, width: Int, height: Int) -> Framebuffer {
    var result = Framebuffer(width: width, height: height)
    result.draw(self, sourceX: x, sourceY: y, width: width, height: height, atX: 0, y: 0)
    return result
  }

  /// Copies all pixels of `other`, which must have the same size, without reallocating.
  public mutating func assign(_ other: Framebuffer) {
    precondition(other.width == width && other.height == height, "sizes differ")
    words.withUnsafeMutableBufferPointer { dst in
      other.words.withUnsafeBufferPointer { src in
        guard let d = dst.baseAddress, let s = src.baseAddress else { return }
        d.update(from: s, count: src.count)
      }
    }
  }
}

extension Framebuffer {
  /// Fills rows `y ..< y + rows` of this framebuffer, across its whole width, with the
  /// pixels of `source` starting at column `sourceX` of row `sourceY` onwards: a window
  /// sliding along a wider strip. Source columns past the strip's end read as dark.
  ///
  /// The fast path of a scrolling ribbon: each destination word is one or two source word
  /// reads and a shift, with no clipping arithmetic per row.
  @_optimize(size)
  public mutating func copyWindow(of source: Framebuffer, sourceX: Int, sourceY: Int, toY y: Int, rows: Int) {
    precondition(sourceX >= 0 && sourceY >= 0 && y >= 0 && rows >= 0, "window out of range")
    precondition(sourceY + rows <= source.height && y + rows <= height, "window out of range")
    let perRow = wordsPerRow, sourcePerRow = source.wordsPerRow
    guard perRow > 0, rows > 0 else { return }
    let lastMask = lastWordMask
    let firstWord = sourceX >> 6, shift = UInt64(sourceX & 63)
    // Destination words whose source word lies inside the strip's row, and of those, the
    // ones whose following source word does too (the rest read dark).
    let inside = min(perRow, max(0, sourcePerRow - firstWord))
    let pairs = min(perRow, max(0, sourcePerRow - firstWord - 1))
    source.words.withUnsafeBufferPointer { src in
      words.withUnsafeMutableBufferPointer { dst in
        // Pointers and wrapping arithmetic: the ranges were checked above, and a source
        // pointer past its row is never read (`inside` is then 0).
        let d = dst.baseAddress! + (y &* perRow)
        guard let sourceBase = src.baseAddress, sourcePerRow > 0 else {
          d.update(repeating: 0, count: rows &* perRow)  // an empty strip: all dark
          return
        }
        let s = sourceBase + (sourceY &* sourcePerRow &+ min(firstWord, sourcePerRow))
        // Column by column, each down all rows: a short loop per column with nothing to
        // set up, as fast for one-word rows as for wide ones. The two-step right shift is
        // zero when `shift` is 0, so no branch is needed for it.
        let back = 63 &- shift
        var column = 0
        while column < perRow {
          var from = s + column, to = d + column
          let mask = column == perRow &- 1 ? lastMask : ~0
          if column < pairs {
            for _ in 0..<rows {
              to.pointee = (from[0] &<< shift | (from[1] &>> 1) &>> back) & mask
              from += sourcePerRow
              to += perRow
            }
          } else if column < inside {
            for _ in 0..<rows {
              to.pointee = from[0] &<< shift & mask
              from += sourcePerRow
              to += perRow
            }
          } else {
            for _ in 0..<rows {
              to.pointee = 0
              to += perRow
            }
          }
          column &+= 1
        }
      }
    }
  }
}

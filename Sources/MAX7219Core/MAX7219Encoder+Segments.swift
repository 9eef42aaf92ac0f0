import MatrixCore

/// The fast path, for wirings whose digit registers drive rows (FC-16, Parola, ICStation, in
/// any half turn): digit n of a chip is one byte of one pixel row, possibly bit-reversed.
///
/// Each transaction is cut into segments: runs of chips, consecutive in the chain, whose
/// modules sit side by side in one 64-bit word of the same pixel row. A segment of up to
/// eight chips is gathered from one word and written as (register, data) pairs, eight
/// bytes at a time; whether its row changed is one masked compare with the last frame's
/// word.
extension MAX7219Encoder {
  /// A run of up to eight chips whose digit bytes come from one framebuffer word.
  struct Segment: Sendable {
    /// Byte offset of the run in each transaction.
    var offset: Int
    /// The number of chips in the run, 1...8.
    var count: Int
    /// Word index for digit 0, and the step per digit (negative for reversed rows).
    var firstWord: Int
    var wordStep: Int
    /// Modules are sent left to right (else right to left).
    var ascending: Bool
    /// For `ascending`, the left shift bringing the first module to the top byte; otherwise
    /// the right shift bringing it to the bottom byte.
    var shift: UInt64
    /// The bit order within each byte is reversed (bit 0 is the leftmost pixel).
    var reversesBits: Bool
    /// The bits of the framebuffer word that the run's modules show.
    var pixels: UInt64

    /// The run's bytes, first chip sent in the top byte.
    @inline(__always)
    func gather(_ word: UInt64) -> UInt64 {
      let bytes = ascending ? word &<< shift : (word &>> shift).byteSwapped
      return reversesBits ? BitBlock.flipHorizontally(bytes) : bytes
    }
  }

  /// The segments of a board whose modules' symmetry does not transpose.
  static func segments(board: MAX7219Board, symmetry: BitBlock.Symmetry, stride: Int) -> [Segment] {
    precondition(!symmetry.transposes, "digits that drive columns take the block path")
    let chain = board.chain
    var segments: [Segment] = []
    // Chips in the order their words are sent: the farthest first.
    var position = 0
    while position < chain.count {
      let chip = chain.count - 1 - position
      let module = chain[chip]
      // Extend the run while the next chip sent is the neighbour in the same word and row.
      var length = 1
      var ascending = true
      while position + length < chain.count, length < 8 {
        let next = chain[chip - length]
        let step = next.column - chain[chip - length + 1].column
        guard next.row == module.row, abs(step) == 1,
          (next.column * 8) >> 6 == (module.column * 8) >> 6
        else { break }
        if length == 1 { ascending = step == 1 } else if (step == 1) != ascending { break }
        length += 1
      }
      let wordColumn = (module.column * 8) >> 6
      let top = module.row * 8 * stride + wordColumn
      let byteInWord = module.column & 7
      let runMask = (~0 as UInt64) << UInt64(64 - 8 * length)
      segments.append(Segment(
        offset: 2 * position,
        count: length,
        firstWord: symmetry.flipsVertically ? top + 7 * stride : top,
        wordStep: symmetry.flipsVertically ? -stride : stride,
        ascending: ascending,
        shift: UInt64(ascending ? 8 * byteInWord : 8 * (7 - byteInWord)),
        reversesBits: symmetry.flipsHorizontally,
        pixels: runMask >> UInt64(8 * (ascending ? byteInWord : byteInWord - length + 1))))
      position += length
    }
    return segments
  }

  /// Appends one transaction per digit row that changed between `before` and `now` (every
  /// row if `everything`), each carrying every chip's row; `before` then holds `now`'s
  /// pixels.
  static func encodeSegments(
    _ segments: UnsafeBufferPointer<Segment>, now: UnsafePointer<UInt64>, before: UnsafeMutablePointer<UInt64>,
    chips: Int, everything: Bool, into output: inout SPITransactions
  ) {
    // First which rows changed (one masked compare per run and row), remembering the new
    // pixels; then only those rows are written, each straight into its place.
    var changedRows: UInt8 = everything ? 0xFF : 0
    for segment in segments {
      var index = segment.firstWord
      for digit in 0..<8 {
        let previous = before[index]
        let difference = (now[index] ^ previous) & segment.pixels
        // 1 if any of the run's pixels changed, without a branch.
        changedRows |= UInt8(truncatingIfNeeded: (difference | (0 &- difference)) &>> 63) &<< UInt8(digit)
        // Only the run's own bits: another run may read the rest of this word.
        before[index] = previous ^ difference
        index &+= segment.wordStep
      }
    }
    guard changedRows != 0 else { return }
    let rowCount = changedRows.nonzeroBitCount
    output.write(maxCount: rowCount, length: 2 * chips) { writer in
      let length = writer.length
      let rows = UnsafeMutableRawPointer(writer.next)
      for segment in segments {
        var target = rows + segment.offset
        for digit in 0..<8 where changedRows & (1 &<< UInt8(digit)) != 0 {
          let register = UInt64(digit &+ 1) &* 0x0001_0001_0001_0001
          let word = now[segment.firstWord &+ digit &* segment.wordStep]
          store(segment.gather(word), chips: segment.count, register: register, at: target)
          target += length
        }
      }
      for _ in 0..<rowCount { writer.commit() }
    }
  }

  /// Writes the (register, data) pairs of `count` chips whose bytes are `bytes`, first chip
  /// in the top byte, at `target`: exactly 2 x `count` bytes.
  @inline(__always)
  static func store(_ bytes: UInt64, chips count: Int, register: UInt64, at target: UnsafeMutableRawPointer) {
    let high = interleave(UInt32(truncatingIfNeeded: bytes &>> 32)) &<< 8 | register
    if count == 8 {
      target.storeBytes(of: high.littleEndian, as: UInt64.self)
      let low = interleave(UInt32(truncatingIfNeeded: bytes)) &<< 8 | register
      target.storeBytes(of: low.littleEndian, toByteOffset: 8, as: UInt64.self)
    } else if count == 4 {
      target.storeBytes(of: high.littleEndian, as: UInt64.self)
    } else {
      var pairs = bytes
      for chip in 0..<count {
        let pair = UInt16(truncatingIfNeeded: register) | UInt16(truncatingIfNeeded: pairs &>> 56) &<< 8
        target.storeBytes(of: pair.littleEndian, toByteOffset: 2 &* chip, as: UInt16.self)
        pairs &<<= 8
      }
    }
  }

  /// Spreads four bytes (first in the top byte) to the low byte of four 16-bit lanes, the
  /// first in the lowest lane: the order they take in memory, little-endian.
  @inline(__always)
  static func interleave(_ bytes: UInt32) -> UInt64 {
    var x = UInt64(bytes.byteSwapped)
    x = (x | x &<< 16) & 0x0000_FFFF_0000_FFFF
    x = (x | x &<< 8) & 0x00FF_00FF_00FF_00FF
    return x
  }
}

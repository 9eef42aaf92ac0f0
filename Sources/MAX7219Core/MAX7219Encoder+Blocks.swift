import MatrixCore

/// The general path, for wirings whose digit registers drive columns (a transposed block):
/// each chip's 8x8 block is read out of the frame as one word and turned into digit order.
extension MAX7219Encoder {
  /// The per-chip state of the block path.
  struct BlockPlan: Sendable {
    /// The symmetry from a module's block on the sign to its chip's digit block.
    var symmetry: BitBlock.Symmetry
    /// Per chip: the index of the word holding its top row, and the shift that brings its
    /// 8 pixels to the low byte.
    var firstWords: [Int]
    var shifts: [UInt64]
    /// Per chip: the digit block last sent, and the one being encoded.
    var sent: [UInt64]
    var current: [UInt64]
  }

  static func blockPlan(board: MAX7219Board, symmetry: BitBlock.Symmetry, stride: Int) -> BlockPlan {
    BlockPlan(
      symmetry: symmetry,
      firstWords: board.chain.map { $0.row * 8 * stride + (($0.column * 8) >> 6) },
      shifts: board.chain.map { UInt64(56 - (($0.column * 8) & 63)) },
      sent: [UInt64](repeating: 0, count: board.chipCount),
      current: [UInt64](repeating: 0, count: board.chipCount))
  }
}

extension MAX7219Encoder.BlockPlan {
  /// Appends one transaction per digit row that changed (every row if `everything`), each
  /// carrying every chip's row.
  mutating func encode(
    _ words: UnsafeBufferPointer<UInt64>, stride: Int, everything: Bool, into output: inout SPITransactions
  ) {
    let chips = current.count
    readBlocks(words, stride: stride)
    output.write(maxCount: 8, length: 2 * chips) { writer in
      current.withUnsafeBufferPointer { now in
        sent.withUnsafeBufferPointer { before in
          for digit in 0..<8 {
            let shift = UInt64(56 &- digit &* 8)
            let register = UInt8(digit &+ 1)
            var out = writer.next
            var changed = everything
            var chip = chips &- 1
            while chip >= 0 {
              let block = now[chip]
              changed = changed || ((block ^ before[chip]) &>> shift) & 0xFF != 0
              out[0] = register
              out[1] = UInt8(truncatingIfNeeded: block &>> shift)
              out += 2
              chip = chip &- 1
            }
            if changed { writer.commit() }
          }
        }
      }
    }
    swap(&sent, &current)
  }

  /// Reads each chip's 8x8 block into `current`, in digit order (all dark without `words`).
  mutating func readBlocks(_ words: UnsafeBufferPointer<UInt64>, stride: Int) {
    let symmetry = self.symmetry
    firstWords.withUnsafeBufferPointer { firstWords in
      shifts.withUnsafeBufferPointer { shifts in
        current.withUnsafeMutableBufferPointer { current in
          for chip in 0..<current.count {
            var block: UInt64 = 0
            var index = firstWords[chip]
            let shift = shifts[chip]
            for _ in 0..<8 {
              block = (block &<< 8) | ((words[index] &>> shift) & 0xFF)
              index = index &+ stride
            }
            current[chip] = symmetry.apply(block)
          }
        }
      }
    }
  }

  /// Records that every chip shows nothing.
  mutating func markBlank() {
    for index in sent.indices { sent[index] = 0 }
  }
}

import MatrixCore

extension MAX7219Encoder {
  /// Reads each chip's 8x8 block into `current` (in digit order) and returns the bits that
  /// differ from what was sent, all chips OR-ed together.
  mutating func readBlocks(_ pixels: Framebuffer, dark: Bool) -> UInt64 {
    var changedRows: UInt64 = 0
    let stride = self.stride
    let firstWords = self.firstWords, shifts = self.shifts, symmetries = self.symmetries, sent = self.sent
    pixels.words.withUnsafeBufferPointer { words in
      firstWords.withUnsafeBufferPointer { firstWords in
        shifts.withUnsafeBufferPointer { shifts in
          symmetries.withUnsafeBufferPointer { symmetries in
            sent.withUnsafeBufferPointer { sent in
              current.withUnsafeMutableBufferPointer { current in
                for chip in 0..<current.count {
                  var block: UInt64 = 0
                  if !dark {
                    var index = firstWords[chip]
                    let shift = shifts[chip]
                    for _ in 0..<8 {
                      block = (block &<< 8) | ((words[index] &>> shift) & 0xFF)
                      index = index &+ stride
                    }
                    block = symmetries[chip].apply(block)
                  }
                  current[chip] = block
                  changedRows |= block ^ sent[chip]
                }
              }
            }
          }
        }
      }
    }
    return changedRows
  }

  /// Writes one transaction per digit row set in `rows` (bit n: digit register n+1): the
  /// chips' words in chain order from the farthest, a no-op for a chip whose row did not
  /// change (unless `everything`).
  func writeRows(_ rows: UInt8, count: Int, everything: Bool, into output: inout SPITransactions) {
    // Only the two arrays go into the closure (capturing self would copy the encoder).
    let current = self.current, sent = self.sent
    let chips = current.count
    output.appendTransactions(count: count, length: 2 * chips) { raw in
      var out = raw.assumingMemoryBound(to: UInt8.self)
      current.withUnsafeBufferPointer { now in
        sent.withUnsafeBufferPointer { before in
          for digit in 0..<8 where (rows &>> UInt8(digit)) & 1 != 0 {
            let shift = UInt64(56 &- digit &* 8)
            let register = UInt8(digit &+ 1)
            var chip = chips &- 1
            while chip >= 0 {
              let block = now[chip]
              let changed = everything || ((block ^ before[chip]) &>> shift) & 0xFF != 0
              out[0] = changed ? register : 0
              out[1] = changed ? UInt8(truncatingIfNeeded: block &>> shift) : 0
              out += 2
              chip = chip &- 1
            }
          }
        }
      }
    }
  }
}

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
                      block = (block << 8) | ((words[index] >> shift) & 0xFF)
                      index += stride
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

  /// Writes one transaction per digit row that has a slot (`slots[digit] >= 0`): the chips'
  /// words in chain order from the farthest, a no-op for a chip whose row did not change.
  func writeRows(slots: SIMD8<Int>, count: Int, everything: Bool, into output: inout SPITransactions) {
    // Only the two arrays go into the closure (capturing self would copy the encoder).
    let current = self.current, sent = self.sent
    let chips = current.count
    let length = 2 * chips
    output.appendTransactions(count: count, length: length) { bytes in
      current.withUnsafeBufferPointer { now in
        sent.withUnsafeBufferPointer { before in
          // Chip by chip: a chip's word sits at the same place in every row's transaction.
          for chip in 0..<chips {
            let block: UInt64 = now[chip]
            let difference: UInt64 = everything ? UInt64.max : block ^ before[chip]
            let position: Int = 2 * (chips - 1 - chip)
            for digit in 0..<8 {
              let slot: Int = slots[digit]
              if slot < 0 { continue }
              let shift = UInt64(56 - digit * 8)
              let changed: Bool = (difference >> shift) & 0xFF != 0
              let register: UInt8 = changed ? UInt8(digit + 1) : 0
              let data: UInt8 = changed ? UInt8(truncatingIfNeeded: block >> shift) : 0
              let offset: Int = slot * length + position
              bytes.storeBytes(of: register, toByteOffset: offset, as: UInt8.self)
              bytes.storeBytes(of: data, toByteOffset: offset + 1, as: UInt8.self)
            }
          }
        }
      }
    }
  }
}

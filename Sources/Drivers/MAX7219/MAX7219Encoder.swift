import MatrixCore

/// Turns frames into the register writes of a chain of MAX7219s: a pure function of the
/// frame, the board and what was sent before.
///
/// Each module's 8x8 block is read from the framebuffer as one 64-bit word and turned into
/// the chip's digit order by a precomputed symmetry of the square (derived from the board's
/// wiring and rotation by checking all 64 pixels), so a frame costs a few word operations
/// per chip. Only digit rows that changed are sent, as one transaction each with no-ops for
/// chips whose row did not change; a frame equal to the last sends nothing.
public struct MAX7219Encoder: Sendable {
  /// The board being driven.
  public let board: Board
  /// Per chip: the symmetry from the sign's block to the chip's digit block.
  let symmetries: [BitBlock.Symmetry]
  /// Per chip: the digit block last sent.
  var sent: [UInt64]
  /// Per chip: the digit block of the frame being encoded (kept to avoid allocating).
  var current: [UInt64]
  /// Per chip: the index of the word holding its top row in the frame, and the shift that
  /// brings its 8 pixels to the low byte.
  let firstWords: [Int]
  let shifts: [UInt64]
  /// Words per row of the board's frames.
  let stride: Int
  var hasSent = false
  var sentIntensity = -1

  /// Prepares an encoder for `board`.
  public init(board: Board) {
    self.board = board
    symmetries = (0..<board.chipCount).map { MAX7219Encoder.symmetry(board: board, chip: $0) }
    sent = [UInt64](repeating: 0, count: board.chipCount)
    current = sent
    let wordsPerRow = (board.width + 63) >> 6
    stride = wordsPerRow
    firstWords = board.chain.map { $0.row * 8 * wordsPerRow + (($0.column * 8) >> 6) }
    shifts = board.chain.map { UInt64(56 - (($0.column * 8) & 63)) }
  }

  /// Finds the symmetry that takes the sign's 8x8 block of `chip` to its digit block
  /// (byte n = digit register n+1, bit b = the chip's bit b).
  static func symmetry(board: Board, chip: Int) -> BitBlock.Symmetry {
    let origin = board.chain[chip]
    for candidate in BitBlock.Symmetry.allCases {
      var matches = true
      for digit in 0..<8 where matches {
        for bit in 0..<8 {
          let pixel = board.pixel(chip: chip, digit: digit, bit: bit)
          let block = BitBlock.single(x: pixel.x - origin.column * 8, y: pixel.y - origin.row * 8)
          // In the digit block, digit n is row n and bit b sits at column 7 - b.
          if candidate.apply(block) != BitBlock.single(x: 7 - bit, y: digit) {
            matches = false
            break
          }
        }
      }
      if matches { return candidate }
    }
    preconditionFailure("no symmetry of the square matches this wiring and rotation")
  }

  /// The start-up sequence: display test off, scan limit 7, no decode, intensity, all
  /// digits dark, shutdown off. Each register is written to every chip in one transaction.
  public mutating func startUp(into output: inout SPITransactions) {
    writeAll(.displayTest, 0, into: &output)
    writeAll(.scanLimit, 7, into: &output)
    writeAll(.decodeMode, 0, into: &output)
    writeAll(.intensity, UInt8(board.brightness), into: &output)
    for digit in 0..<8 { writeAll(.digit0, 0, digitOffset: digit, into: &output) }
    writeAll(.shutdown, 1, into: &output)
    for index in sent.indices { sent[index] = 0 }
    hasSent = true
    sentIntensity = board.brightness
  }

  /// The resting state on exit: all digits dark, then shutdown on every chip.
  public mutating func blankAndShutDown(into output: inout SPITransactions) {
    for digit in 0..<8 { writeAll(.digit0, 0, digitOffset: digit, into: &output) }
    writeAll(.shutdown, 0, into: &output)
    for index in sent.indices { sent[index] = 0 }
  }

  /// Writes one register with the same value to every chip.
  public func writeAll(
    _ register: MAX7219Register, _ value: UInt8, digitOffset: Int = 0, into output: inout SPITransactions
  ) {
    let chips = board.chipCount
    let address = register.rawValue + UInt8(digitOffset)
    output.appendTransactions(count: 1, length: 2 * chips) { bytes in
      for chip in 0..<chips {
        bytes.storeBytes(of: address, toByteOffset: 2 * chip, as: UInt8.self)
        bytes.storeBytes(of: value, toByteOffset: 2 * chip + 1, as: UInt8.self)
      }
    }
  }

  /// The intensity register value for a frame brightness, or `nil` for dark.
  public func intensity(for brightness: Double) -> Int? {
    guard brightness > 0 else { return nil }
    let steps = Double(board.brightness + 1)
    return max(0, min(board.brightness, Int((brightness * steps).rounded(.up)) - 1))
  }

  /// Appends the transactions that make the chain show `frame` (nothing if it already does).
  ///
  /// At most one intensity transaction and eight digit transactions of 2 x N bytes.
  public mutating func encode(_ frame: Frame, into output: inout SPITransactions) {
    precondition(frame.width == board.width && frame.height == board.height, "frame size is not the board's")
    let level = intensity(for: frame.brightness)
    if let level, level != sentIntensity {
      writeAll(.intensity, UInt8(level), into: &output)
      sentIntensity = level
    }
    // Read every module's block and turn it into its chip's digit order.
    let changedRows = readBlocks(frame.pixels, dark: level == nil)
    let everything = !hasSent
    var rows: UInt8 = 0
    var rowCount = 0
    for digit in 0..<8 where everything || (changedRows >> UInt64(56 - digit * 8)) & 0xFF != 0 {
      rows |= 1 << UInt8(digit)
      rowCount += 1
    }
    if rowCount > 0 { writeRows(rows, count: rowCount, everything: everything, into: &output) }
    swap(&sent, &current)
    hasSent = true
  }
}

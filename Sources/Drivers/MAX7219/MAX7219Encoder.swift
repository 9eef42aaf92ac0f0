import MatrixCore

/// Latched SPI transactions: the bytes in the order sent, and where each transaction ends
/// (chip select rises there, latching every chip of the chain).
public struct SPITransactions: Sendable, Equatable {
  /// All bytes, transaction after transaction.
  public var bytes: [UInt8] = []
  /// The end offset of each transaction in ``bytes``.
  public var ends: [Int] = []

  /// Creates an empty list.
  public init() {}

  /// The number of transactions.
  public var count: Int { ends.count }

  /// The bytes of transaction `index`.
  public func transaction(_ index: Int) -> ArraySlice<UInt8> {
    bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
  }

  /// Empties the list, keeping its storage.
  public mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
  }
}

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
  /// Per chip (chain order): the module's grid cell in pixels.
  let origins: [(x: Int, y: Int)]
  /// Per chip: the symmetry from the sign's block to the chip's digit block.
  let symmetries: [BitBlock.Symmetry]
  /// Per chip: the digit block last sent.
  var sent: [UInt64]
  /// Per chip: the digit block of the frame being encoded (kept to avoid allocating).
  var current: [UInt64]
  var hasSent = false
  var sentIntensity = -1

  /// Prepares an encoder for `board`.
  public init(board: Board) {
    self.board = board
    origins = board.chain.map { ($0.column * 8, $0.row * 8) }
    symmetries = (0..<board.chipCount).map { MAX7219Encoder.symmetry(board: board, chip: $0) }
    sent = [UInt64](repeating: 0, count: board.chipCount)
    current = sent
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
    for _ in 0..<board.chipCount {
      output.bytes.append(register.rawValue + UInt8(digitOffset))
      output.bytes.append(value)
    }
    output.ends.append(output.bytes.count)
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
    let stride = frame.pixels.wordsPerRow
    var changedRows: UInt64 = 0
    frame.pixels.words.withUnsafeBufferPointer { words in
      for chip in 0..<origins.count {
        var block: UInt64 = 0
        if level != nil {
          let (x, y) = origins[chip]
          let shift = UInt64(56 - (x & 63))
          let column = x >> 6
          for row in 0..<8 {
            block = (block << 8) | ((words[(y + row) * stride + column] >> shift) & 0xFF)
          }
          block = symmetries[chip].apply(block)
        }
        current[chip] = block
        changedRows |= block ^ sent[chip]
      }
    }
    for digit in 0..<8 {
      let shift = UInt64(56 - digit * 8)
      guard !hasSent || (changedRows >> shift) & 0xFF != 0 else { continue }
      // The first word clocked out ends in the farthest chip: send the chain back to front.
      for chip in (0..<origins.count).reversed() {
        let byte = UInt8(truncatingIfNeeded: current[chip] >> shift)
        if hasSent && byte == UInt8(truncatingIfNeeded: sent[chip] >> shift) {
          output.bytes.append(MAX7219Register.noOp.rawValue)
          output.bytes.append(0)
        } else {
          output.bytes.append(MAX7219Register.digit0.rawValue + UInt8(digit))
          output.bytes.append(byte)
        }
      }
      output.ends.append(output.bytes.count)
    }
    swap(&sent, &current)
    hasSent = true
  }
}

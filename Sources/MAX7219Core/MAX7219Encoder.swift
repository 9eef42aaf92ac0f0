import MatrixCore

/// Turns frames into the register writes of a chain of MAX7219s: a pure function of the
/// frame, the board and what was sent before.
///
/// The symmetry of the square from a module's 8x8 block on the sign to its chip's digit
/// registers is derived once from the board's wiring and rotation, by checking all 64
/// pixels (every module is wired and turned alike). Boards whose
/// digits drive rows are encoded straight from the framebuffer's words, up to eight chips
/// per word operation (``Segment``); the others read each chip's block as one word and
/// transpose it. Only digit rows that changed are sent, one transaction each carrying every
/// chip's row (a no-op word would cost the same two bytes, and resending repairs a register
/// that noise on the line corrupted); a frame equal to the last sends nothing.
public struct MAX7219Encoder: FrameEncoder, Sendable {
  /// The board being driven.
  public let board: MAX7219Board
  /// Words per row of the board's frames.
  let stride: Int
  /// The row-driven fast path's runs of chips (empty: the block path).
  let segments: [Segment]
  /// The board's size in pixels and its number of chips, kept as plain values so the frame
  /// path does not go through `board` (whose computed properties copy it).
  public let width: Int, height: Int
  let chipCount: Int
  /// The block path's state (unused with segments).
  var blocks: BlockPlan
  /// The pixels last sent (the segment path compares with them).
  var sentPixels: [UInt64]
  /// An all-dark frame's words, encoded when the frame's brightness is zero.
  let darkPixels: [UInt64]
  var hasSent = false
  var sentIntensity = -1
  /// The last frame brightness seen and its intensity level (`nil`: dark).
  var lastBrightness = -1.0
  var lastLevel: Int?

  /// Prepares an encoder for `board`.
  public init(board: MAX7219Board) {
    self.init(board: board, rowSegments: true)
  }

  /// Prepares an encoder; without `rowSegments` every board takes the block path (tests
  /// check the two paths against each other).
  init(board: MAX7219Board, rowSegments: Bool) {
    self.board = board
    // Every module is wired and turned alike, so one symmetry serves every chip.
    let symmetry = MAX7219Encoder.symmetry(board: board)
    stride = (board.width + 63) >> 6
    segments = rowSegments && !symmetry.transposes
      ? MAX7219Encoder.segments(board: board, symmetry: symmetry, stride: stride) : []
    (width, height, chipCount) = (board.width, board.height, board.chipCount)
    blocks = MAX7219Encoder.blockPlan(board: board, symmetry: symmetry, stride: stride)
    darkPixels = [UInt64](repeating: 0, count: stride * board.height)
    sentPixels = darkPixels
  }

  /// Finds the symmetry that takes a module's 8x8 block on the sign to its chip's digit
  /// block (byte n = digit register n+1, bit b = the chip's bit b), by checking all 64
  /// pixels of the board's wiring and rotation.
  static func symmetry(board: MAX7219Board) -> BitBlock.Symmetry {
    for candidate in BitBlock.Symmetry.allCases {
      var matches = true
      for digit in 0..<8 where matches {
        for bit in 0..<8 {
          let local = board.wiring.pixel(digit: digit, bit: bit)
          let pixel = board.rotation.apply(x: local.x, y: local.y)
          // In the digit block, digit n is row n and bit b sits at column 7 - b.
          if candidate.apply(BitBlock.single(x: pixel.x, y: pixel.y)) != BitBlock.single(x: 7 - bit, y: digit) {
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
    writeAll(.intensity, UInt8(board.intensity), into: &output)
    for digit in 0..<8 { writeAll(.digit0, 0, digitOffset: digit, into: &output) }
    writeAll(.shutdown, 1, into: &output)
    markBlank()
    hasSent = true
    sentIntensity = board.intensity
  }

  /// The resting state on exit: all digits dark, then shutdown on every chip.
  public mutating func shutDown(into output: inout SPITransactions) {
    blankAndShutDown(into: &output)
  }

  /// All digits dark, then shutdown on every chip.
  public mutating func blankAndShutDown(into output: inout SPITransactions) {
    for digit in 0..<8 { writeAll(.digit0, 0, digitOffset: digit, into: &output) }
    writeAll(.shutdown, 0, into: &output)
    markBlank()
  }

  /// Records that every chip shows nothing.
  mutating func markBlank() {
    sentPixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    blocks.markBlank()
  }

  /// Writes one register with the same value to every chip.
  public func writeAll(
    _ register: MAX7219Register, _ value: UInt8, digitOffset: Int = 0, into output: inout SPITransactions
  ) {
    let chips = board.chipCount
    let address = register.rawValue + UInt8(digitOffset)
    output.write(maxCount: 1, length: 2 * chips) { writer in
      for chip in 0..<chips {
        writer.next[2 * chip] = address
        writer.next[2 * chip + 1] = value
      }
      writer.commit()
    }
  }

  /// The intensity register value for a frame brightness, or `nil` for dark.
  public func intensity(for brightness: Double) -> Int? {
    dimmingStep(for: brightness, fullStep: board.intensity)
  }

  /// Appends the transactions that make the chain show `frame` (nothing if it already does).
  ///
  /// At most one intensity transaction and eight digit transactions of 2 x N bytes.
  public mutating func encode(_ frame: Frame, into output: inout SPITransactions) {
    precondition(frame.pixels.width == width && frame.pixels.height == height, "frame size is not the board's")
    if frame.brightness != lastBrightness {
      lastBrightness = frame.brightness
      lastLevel = intensity(for: frame.brightness)
    }
    if let level = lastLevel {
      if level != sentIntensity {
        writeAll(.intensity, UInt8(level), into: &output)
        sentIntensity = level
      }
      encode(words: frame.pixels.words, into: &output)
    } else {
      encode(words: darkPixels, into: &output)
    }
  }

  /// Appends the digit transactions that make the chain show these framebuffer words.
  @inline(__always)
  private mutating func encode(words: [UInt64], into output: inout SPITransactions) {
    let everything = !hasSent
    hasSent = true
    let chips = chipCount
    words.withUnsafeBufferPointer { now in
      if segments.isEmpty {
        blocks.encode(now, stride: stride, everything: everything, into: &output)
        return
      }
      segments.withUnsafeBufferPointer { segments in
        sentPixels.withUnsafeMutableBufferPointer { before in
          MAX7219Encoder.encodeSegments(
            segments, now: now.baseAddress!, before: before.baseAddress!, chips: chips,
            everything: everything, into: &output)
        }
      }
    }
  }
}

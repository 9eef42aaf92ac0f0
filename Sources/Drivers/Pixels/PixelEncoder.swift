import MatrixCore

/// Turns frames into the SPI bytes of a chain of addressable RGB LEDs: WS2812/SK6812 as
/// timed pulses on the data line, APA102/SK9822 as clocked 32-bit frames.
///
/// Each frame is one SPI transaction holding the whole chain (the LEDs keep no state a
/// partial update could rely on). Lit pixels take their colour (the sign's, or their zone's),
/// scaled by the board's brightness and the frame's, and dimmed together when the chain
/// would draw more than the board's current limit.
public struct PixelEncoder: FrameEncoder, Sendable {
  /// The board being driven.
  public let board: PixelBoard
  var levels: PixelLevels
  /// Canonical channel (0 red, 1 green, 2 blue, 3 white) of each byte on the wire.
  let order: [Int]
  /// WS2812: the coding, and each byte value's SPI bytes.
  let timing: WS2812Timing?
  let table: [UInt8]
  public let width: Int, height: Int
  /// The estimated current of the last frame encoded, in milliamps.
  public private(set) var lastMilliamps = 0.0
  /// Whether the last frame was dimmed to stay within the current limit.
  public private(set) var lastFrameLimited = false

  /// Prepares an encoder: the sign in `base`, each region in its own colour (later regions
  /// win where they overlap).
  public init(board: PixelBoard, color base: RGBColor, regions: [ColorRegion] = []) {
    self.board = board
    levels = PixelLevels(board: board, colors: regions, base: base)
    order = board.channelOrder.map { ["r": 0, "g": 1, "b": 2, "w": 3][$0]! }
    timing = board.chip.isClocked ? nil : WS2812Timing(speedHz: board.speedHz)
    table = timing?.table ?? []
    (width, height) = (board.width, board.height)
  }

  /// Bytes of one frame on the wire.
  public var frameLength: Int {
    let data = board.ledCount * order.count
    if let timing { return 2 * timing.resetBytes + data * timing.bitsPerBit }
    return 4 + board.ledCount * 4 + endFrameLength
  }

  /// APA102: zero bytes after the LED frames, at least one clock edge per two LEDs (the
  /// data moves half a clock per LED) plus 32 zero bits that SK9822s need to latch.
  var endFrameLength: Int { 4 + (board.ledCount + 15) / 16 }

  /// Appends the transaction that makes the chain show `frame`.
  public mutating func encode(_ frame: Frame, into output: inout SPITransactions) {
    precondition(frame.pixels.width == width && frame.pixels.height == height, "frame size is not the board's")
    encode(frame.pixels.words, fade: frame.brightness, into: &output)
  }

  /// Appends the transaction that darkens every LED.
  public mutating func encodeDark(into output: inout SPITransactions) {
    encode([UInt64](), fade: 0, into: &output)
  }

  /// The LEDs power up showing whatever they like: the start is a dark frame.
  public mutating func startUp(into output: inout SPITransactions) {
    encodeDark(into: &output)
  }

  /// The resting state on exit: every LED dark.
  public mutating func shutDown(into output: inout SPITransactions) {
    encodeDark(into: &output)
  }

  mutating func encode(_ words: [UInt64], fade: Double, into output: inout SPITransactions) {
    let length = frameLength
    let dark = fade <= 0 || words.isEmpty
    let clocked = timing == nil
    let bits = timing?.bitsPerBit ?? 1
    let reset = timing?.resetBytes ?? 0
    let sum = dark ? 0 : words.withUnsafeBufferPointer { words in
      levels.sources.withUnsafeBufferPointer { sources in
        levels.colors.withUnsafeBufferPointer { levels.litSum(words, sources, $0) }
      }
    }
    // The APA102 dims with its 5-bit global brightness; the current limit scales colours.
    let global = clocked ? max(1, min(31, Int((levels.boardFraction * fade * 31).rounded()))) : 31
    let extra = clocked ? Double(global) / 31 : 1
    let wanted = clocked ? 1 : levels.boardFraction * fade
    let scale = dark ? 0 : levels.scale(wanted, litSum: sum, extra: extra)
    lastMilliamps = levels.milliamps(ledCount: board.ledCount, litSum: sum, scale: scale, extra: extra)
    lastFrameLimited = !dark && scale < Int(min(1, wanted) * 65536)
    let ledCount = board.ledCount
    output.write(maxCount: 1, length: length) { writer in
      var at = writer.next
      func zeros(_ count: Int) {
        at.update(repeating: 0, count: count)
        at += count
      }
      if clocked { zeros(4) } else { zeros(reset) }
      table.withUnsafeBufferPointer { table in
        order.withUnsafeBufferPointer { order in
          words.withUnsafeBufferPointer { words in
            levels.sources.withUnsafeBufferPointer { sources in
              levels.colors.withUnsafeBufferPointer { colors in
                for led in 0..<ledCount {
                  let source = Int(sources[led])
                  let lit = !dark && (words[source >> 6] >> UInt64(source & 63)) & 1 != 0
                  if clocked {
                    at.pointee = 0xE0 | UInt8(lit ? global : 0)
                    at += 1
                  }
                  for channel in order {
                    let value = lit ? UInt8((Int(colors[4 * led + channel]) * scale + 32768) >> 16) : 0
                    if clocked {
                      at.pointee = value
                      at += 1
                    } else {
                      at.update(from: table.baseAddress! + Int(value) * bits, count: bits)
                      at += bits
                    }
                  }
                }
              }
            }
          }
        }
      }
      if clocked { zeros(endFrameLength) } else { zeros(reset) }
      writer.commit()
    }
  }
}

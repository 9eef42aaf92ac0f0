import MatrixCore

/// A colour of light, 8 bits a channel.
public struct RGBColor: Sendable, Hashable, CustomStringConvertible {
  public var red: UInt8, green: UInt8, blue: UInt8

  /// Creates a colour.
  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// Reads `#rrggbb` (the `#` optional), or returns `nil`.
  public init?(hex text: String) {
    let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
    guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
    self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
  }

  public var description: String {
    "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }
}

/// A rectangle of the sign lit in one colour (a zone's colour).
public struct ColorRegion: Sendable, Equatable {
  public var x: Int, y: Int, width: Int, height: Int
  public var color: RGBColor

  /// Creates a region.
  public init(x: Int, y: Int, width: Int, height: Int, color: RGBColor) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
    self.color = color
  }

  func contains(_ px: Int, _ py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
}

/// How bright each LED of a pixel board is for a frame: its colour where lit, scaled by the
/// board's brightness and the frame's, then dimmed as a whole if the LEDs would draw more
/// than the board's current limit.
///
/// The current model is conservative: 20 mA per channel at full value (the WS2812B and
/// APA102 datasheets give 12-20 mA) plus 1 mA per LED for the chip itself, lit or not.
/// A full-white 8x32 panel comes to 256 × 61 mA = 15.6 A.
struct PixelLevels: Sendable {
  /// Milliamps per channel at value 255.
  static let channelMilliamps = 20
  /// Milliamps every LED draws, dark or lit.
  static let idleMilliamps = 1

  /// For each LED: the framebuffer bit that lights it (word index × 64 + shift).
  let sources: [Int32]
  /// For each LED: red, green, blue (and white) at full value, 4 bytes a LED.
  var colors: [UInt8]
  /// The board's brightness as a fraction of full, times 65536.
  let boardScale: Int
  /// The milliamps left for lit channels once every LED's idle draw is counted.
  let budget: Int
  /// Whether the LEDs have a white channel (the white part of each colour goes to it).
  let hasWhite: Bool

  init(board: PixelBoard, colors regions: [ColorRegion], base: RGBColor) {
    let stride = (board.width + 63) >> 6
    let pixels = board.ledPixels
    sources = pixels.map { Int32(($0.y * stride + ($0.x >> 6)) * 64 + (63 - ($0.x & 63))) }
    hasWhite = board.chip == .sk6812RGBW
    boardScale = (board.intensity + 1) * 4096
    budget = board.maxMilliamps - PixelLevels.idleMilliamps * board.ledCount
    colors = []
    colors.reserveCapacity(pixels.count * 4)
    for pixel in pixels {
      let color = regions.last { $0.contains(pixel.x, pixel.y) }?.color ?? base
      var (red, green, blue, white) = (color.red, color.green, color.blue, UInt8(0))
      if hasWhite {
        white = min(red, green, blue)
        (red, green, blue) = (red - white, green - white, blue - white)
      }
      colors += [red, green, blue, white]
    }
  }

  /// The board's brightness as a fraction of full.
  var boardFraction: Double { Double(boardScale) / 65536 }

  /// The scale (× 65536) of every lit LED's full colour: `wanted` (0...1), lowered if the
  /// lit LEDs, whose channel values at full colour sum to `litSum`, would draw more than the
  /// current limit. `extra` (0...1) is a further factor the chip applies (the APA102's
  /// global brightness) that the current scales with too.
  func scale(_ wanted: Double, litSum: Int, extra: Double = 1) -> Int {
    var scale = wanted
    let perScale = Double(litSum) * Double(PixelLevels.channelMilliamps) / 255 * extra
    if perScale * scale > Double(budget) { scale = max(0, Double(budget)) / perScale }
    return Int(min(1, scale) * 65536)
  }

  /// The sum of the lit LEDs' channel values at full colour.
  func litSum(_ words: UnsafeBufferPointer<UInt64>, _ sources: UnsafeBufferPointer<Int32>, _ colors: UnsafeBufferPointer<UInt8>) -> Int {
    var sum = 0
    for led in 0..<sources.count {
      let source = Int(sources[led])
      if (words[source >> 6] >> UInt64(source & 63)) & 1 != 0 {
        sum += Int(colors[4 * led]) + Int(colors[4 * led + 1]) + Int(colors[4 * led + 2]) + Int(colors[4 * led + 3])
      }
    }
    return sum
  }

  /// The milliamps a frame draws with the lit LEDs' channel sum `litSum` at `scale` (× 65536).
  func milliamps(ledCount: Int, litSum: Int, scale: Int, extra: Double = 1) -> Double {
    Double(PixelLevels.idleMilliamps * ledCount)
      + Double(litSum) * Double(PixelLevels.channelMilliamps) / 255 * Double(scale) / 65536 * extra
  }
}

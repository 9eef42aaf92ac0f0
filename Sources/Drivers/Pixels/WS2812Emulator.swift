/// A chain of WS2812B LEDs modelled from the Worldsemi datasheet, fed with the SPI bytes
/// that drive their data line: for tests and for users without hardware.
///
/// The bytes become a waveform at the SPI clock (MSB first; the line is low between
/// transactions). Each high pulse is one data bit, read by its length: 0.25-0.55 µs is a 0,
/// 0.65-0.95 µs a 1, anything else is counted as a violation (and read as the nearer).
/// Bits shift into the chain: the first LED keeps the first 24 (or 32) bits after a reset
/// and passes the rest on. A low of at least 280 µs is a reset: every LED shows what it
/// kept. A low of 50-280 µs, which resets only the earliest parts, is counted as ambiguous.
public struct WS2812Emulator: Sendable {
  /// Bytes each LED keeps (3, or 4 for RGBW).
  public let bytesPerLED: Int
  /// What each LED shows, in wire order, `bytesPerLED` bytes each.
  public private(set) var shown: [UInt8]
  /// Resets (latches) seen.
  public private(set) var latches = 0
  /// High pulses outside both windows, and bit periods outside 1.25 µs ± 0.6 µs.
  public private(set) var violations = 0
  /// Lows long enough to reset early parts but not a WS2812B V5 (50-280 µs).
  public private(set) var ambiguousLows = 0
  /// Bits received since the last reset.
  public private(set) var bitsSinceReset = 0
  /// The shortest and longest high time of a 0 and of a 1 seen, in µs.
  public private(set) var zeroHighRange: ClosedRange<Double>?
  public private(set) var oneHighRange: ClosedRange<Double>?

  var received: [UInt8]
  var highRun = 0
  var lowRun = 0
  /// The high time of the bit whose low is running, in SPI bits (0: none).
  var pendingHigh = 0

  /// A chain of `ledCount` dark LEDs.
  public init(ledCount: Int, bytesPerLED: Int = 3) {
    self.bytesPerLED = bytesPerLED
    shown = [UInt8](repeating: 0, count: ledCount * bytesPerLED)
    received = []
  }

  /// The number of LEDs.
  public var ledCount: Int { shown.count / bytesPerLED }

  /// The bytes LED `index` shows, in wire order.
  public func led(_ index: Int) -> ArraySlice<UInt8> {
    shown[(index * bytesPerLED)..<((index + 1) * bytesPerLED)]
  }

  /// Drives the line with one SPI transaction's bytes at `speedHz`.
  public mutating func receive(_ bytes: some Sequence<UInt8>, speedHz: Int) {
    let bit = 1e6 / Double(speedHz)
    for byte in bytes {
      for index in stride(from: 7, through: 0, by: -1) {
        if (byte >> UInt8(index)) & 1 == 1 {
          if lowRun > 0 { endLow(bit: bit) }
          highRun += 1
        } else {
          if highRun > 0 {
            pendingHigh = highRun
            highRun = 0
          }
          lowRun += 1
        }
      }
    }
    // Between transactions the line rests low (MOSI idles low).
    if highRun > 0 {
      pendingHigh = highRun
      highRun = 0
    }
    // The chain latches as soon as the line has been low long enough, not at the next edge.
    if Double(lowRun) * bit >= WS2812Timing.resetMicroseconds { endLow(bit: bit) }
  }

  /// The line rests low for `microseconds` (the time between frames).
  public mutating func rest(microseconds: Double, speedHz: Int) {
    lowRun += Int(microseconds * Double(speedHz) / 1e6)
    endLow(bit: 1e6 / Double(speedHz))
  }

  /// A low run ends (a rising edge, or a rest): the pending bit is complete.
  mutating func endLow(bit: Double) {
    let low = Double(lowRun) * bit
    if pendingHigh > 0 {
      let high = Double(pendingHigh) * bit
      let one: Bool
      if WS2812Timing.zeroHigh.contains(high) {
        one = false
        zeroHighRange = zeroHighRange.map { min($0.lowerBound, high)...max($0.upperBound, high) } ?? high...high
      } else if WS2812Timing.oneHigh.contains(high) {
        one = true
        oneHighRange = oneHighRange.map { min($0.lowerBound, high)...max($0.upperBound, high) } ?? high...high
      } else {
        violations += 1
        one = high > 0.6
      }
      if low < 50, !WS2812Timing.period.contains(high + low) { violations += 1 }
      take(one)
      pendingHigh = 0
    }
    if low >= WS2812Timing.resetMicroseconds {
      latch()
    } else if low >= 50 {
      ambiguousLows += 1
    }
    lowRun = 0
  }

  mutating func take(_ one: Bool) {
    let index = bitsSinceReset / 8
    if index < shown.count {
      if received.count <= index { received.append(0) }
      if one { received[index] |= 0x80 >> UInt8(bitsSinceReset % 8) }
    }
    bitsSinceReset += 1
  }

  mutating func latch() {
    guard bitsSinceReset > 0 else { return }
    // Only LEDs that got all their bits show them; the rest keep what they showed.
    let complete = min(bitsSinceReset / (8 * bytesPerLED), ledCount)
    for index in 0..<(complete * bytesPerLED) { shown[index] = received[index] }
    received.removeAll(keepingCapacity: true)
    bitsSinceReset = 0
    latches += 1
  }
}

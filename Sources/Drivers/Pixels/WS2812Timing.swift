/// How WS2812 data bits are sent over SPI: each data bit becomes `bitsPerBit` SPI bits, the
/// first `highBits0` (for a 0) or `highBits1` (for a 1) of them high.
///
/// The windows are the WS2812B datasheet's: T0H 0.4 µs and T1H 0.8 µs, each ±0.15 µs, and a
/// bit period of 1.25 µs ±0.6 µs; the reset (latch) is a low of at least 280 µs, which every
/// WS2812B revision takes (the first ones needed 50 µs).
public struct WS2812Timing: Sendable, Equatable {
  /// SPI bits per data bit (3...8), which is also SPI bytes per data byte.
  public let bitsPerBit: Int
  /// High SPI bits for a 0 and for a 1.
  public let highBits0: Int, highBits1: Int
  /// The SPI clock it was chosen for, in hertz.
  public let speedHz: Int

  /// The high time of a 0, from 0.25 to 0.55 µs.
  public static let zeroHigh = 0.25...0.55
  /// The high time of a 1, from 0.65 to 0.95 µs.
  public static let oneHigh = 0.65...0.95
  /// The bit period, 1.25 µs ± 0.6 µs.
  public static let period = 0.65...1.85
  /// The low time that latches, in microseconds (sent with a margin).
  public static let resetMicroseconds = 280.0

  /// The shortest coding whose high times fall inside the windows at `speedHz`, the one
  /// nearest the nominal times among equals; `nil` when none does.
  public init?(speedHz: Int) {
    let bit = 1e6 / Double(speedHz)
    for bits in 3...8 where WS2812Timing.period.contains(bit * Double(bits)) {
      var best: (Int, Int, Double)?
      for zero in 1..<bits where WS2812Timing.zeroHigh.contains(bit * Double(zero)) {
        for one in (zero + 1)..<bits where WS2812Timing.oneHigh.contains(bit * Double(one)) {
          let error = abs(bit * Double(zero) - 0.4) + abs(bit * Double(one) - 0.8)
          if best.map({ error < $0.2 }) ?? true { best = (zero, one, error) }
        }
      }
      if let best {
        (bitsPerBit, highBits0, highBits1, self.speedHz) = (bits, best.0, best.1, speedHz)
        return
      }
    }
    return nil
  }

  /// Whether this coding's pulses stay inside the windows when the clock is really
  /// `speedHz` (a driver or a clock divider that gave another rate than asked).
  public func holds(atSpeedHz speedHz: Int) -> Bool {
    let bit = 1e6 / Double(speedHz)
    return WS2812Timing.zeroHigh.contains(bit * Double(highBits0)) && WS2812Timing.oneHigh.contains(bit * Double(highBits1))
      && WS2812Timing.period.contains(bit * Double(bitsPerBit))
  }

  /// The clocks this coding works at: its pulses inside the windows, in hertz.
  public var workingSpeeds: ClosedRange<Int> {
    var low = speedHz, high = speedHz
    while low > 1_000 && holds(atSpeedHz: low - 1_000) { low -= 1_000 }
    while holds(atSpeedHz: high + 1_000) { high += 1_000 }
    return low...high
  }

  /// Why no coding works at `speedHz`, or `nil` when one does.
  public static func problem(speedHz: Int) -> String? {
    guard WS2812Timing(speedHz: speedHz) == nil else { return nil }
    return "at \(speedHz) Hz no coding of 3 to 8 SPI bits per LED bit puts the high times inside the "
      + "WS2812B windows (0: 0.25-0.55 µs, 1: 0.65-0.95 µs); 2400000 or 6400000 work"
  }

  /// The zero bytes that hold the line low for the reset, with a 10 % margin.
  public var resetBytes: Int {
    Int((WS2812Timing.resetMicroseconds * 1.1 * Double(speedHz) / 8e6).rounded(.up))
  }

  /// For each byte value, its `bitsPerBit` SPI bytes (8 data bits × `bitsPerBit` SPI bits).
  public var table: [UInt8] {
    var table = [UInt8](repeating: 0, count: 256 * bitsPerBit)
    for value in 0..<256 {
      var bitIndex = 0
      for dataBit in stride(from: 7, through: 0, by: -1) {
        let high = (value >> dataBit) & 1 == 1 ? highBits1 : highBits0
        for spiBit in 0..<bitsPerBit {
          if spiBit < high { table[value * bitsPerBit + bitIndex / 8] |= 0x80 >> UInt8(bitIndex % 8) }
          bitIndex += 1
        }
      }
    }
    return table
  }
}

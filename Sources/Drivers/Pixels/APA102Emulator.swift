/// A chain of APA102 (or SK9822) LEDs modelled from the datasheet, fed with the SPI bytes
/// of data and clock: for tests and for users without hardware.
///
/// A transaction is read as 32-bit frames. A frame of 32 zero bits is a start frame: the
/// next LED frame (its first three bits `111`, then a 5-bit global brightness, blue, green,
/// red) goes to the first LED, the one after to the second, and so on. Each LED passes data
/// on half a clock late, so LED `k` only gets its frame if at least `k / 2` more clock
/// edges follow it: the end frame must be long enough. LED frames past the chain fall off.
public struct APA102Emulator: Sendable {
  /// One LED's latched frame: global brightness (0...31) and the three colour bytes in
  /// wire order.
  public struct LED: Sendable, Equatable {
    public var global: UInt8 = 0
    public var bytes: (UInt8, UInt8, UInt8) = (0, 0, 0)

    public static func == (a: LED, b: LED) -> Bool {
      a.global == b.global && a.bytes.0 == b.bytes.0 && a.bytes.1 == b.bytes.1 && a.bytes.2 == b.bytes.2
    }
  }

  /// What each LED shows.
  public private(set) var leds: [LED]
  /// Start frames seen.
  public private(set) var startFrames = 0
  /// LED frames that could not reach their LED because the clock stopped too soon.
  public private(set) var undelivered = 0
  /// Frames that were neither a start frame nor an LED frame (`111` missing), or LED
  /// frames with no start frame before them.
  public private(set) var badFrames = 0

  /// A chain of `count` dark LEDs.
  public init(ledCount count: Int) {
    leds = [LED](repeating: LED(), count: count)
  }

  /// Clocks one transaction's bytes through the chain.
  public mutating func receive(_ bytes: some Collection<UInt8>) {
    let data = Array(bytes)
    let totalBits = data.count * 8
    var next: Int?  // the LED the next LED frame goes to; nil before a start frame
    var offset = 0
    while offset + 4 <= data.count {
      let word = data[offset..<(offset + 4)]
      defer { offset += 4 }
      if word.allSatisfy({ $0 == 0 }) {
        startFrames += 1
        next = 0
        continue
      }
      guard let index = next, word.first! & 0xE0 == 0xE0 else {
        badFrames += 1
        continue
      }
      next = index + 1
      guard index < leds.count else { continue }
      let clocksAfter = totalBits - (offset + 4) * 8
      guard clocksAfter >= (index + 1) / 2 else {
        undelivered += 1
        continue
      }
      leds[index] = LED(global: word[offset] & 0x1F, bytes: (word[offset + 1], word[offset + 2], word[offset + 3]))
    }
  }
}

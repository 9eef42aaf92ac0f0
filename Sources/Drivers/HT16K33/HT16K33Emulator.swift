import MatrixCore

/// HT16K33 chips on an I2C bus, modelled from the Holtek datasheet, for tests and for users
/// without hardware: it takes each I2C write and reports what a person would see.
///
/// A write is a command byte, then (after a display data address pointer only) data bytes
/// stored in RAM from the pointer, which increments after each byte and wraps from 0x0F to
/// 0x00. At power-up the oscillator and display are off, RAM is undefined (zero here),
/// dimming is 16/16. A chip shows its RAM only with the oscillator and the display on.
public struct HT16K33Emulator: Sendable {
  /// One chip's state.
  public struct Chip: Sendable, Equatable {
    /// Display RAM: byte `2c + r / 8`, bit `r % 8` is the LED at ROW `r`, COM `c`.
    public var ram = [UInt8](repeating: 0, count: 16)
    /// System setup's S bit: the internal oscillator runs.
    public var oscillator = false
    /// Display setup's D bit.
    public var displayOn = false
    /// Display setup's blink bits: 0 off, 1 2 Hz, 2 1 Hz, 3 0.5 Hz.
    public var blink: UInt8 = 0
    /// Dimming set's step: duty (n+1)/16.
    public var dimming: UInt8 = 15
    /// Command bytes the datasheet does not define (a bug in the sender).
    public var unknownCommands = 0

    /// Whether the LED at ROW `row` and COM `common` is lit.
    public func isLit(row: Int, common: Int) -> Bool {
      oscillator && displayOn && ram[2 * common + row / 8] & (1 << UInt8(row % 8)) != 0
    }

    /// The duty of the lit LEDs, 1/16...16/16, or 0 when dark.
    public var duty: Double { oscillator && displayOn ? Double(dimming + 1) / 16 : 0 }

    mutating func receive(_ bytes: ArraySlice<UInt8>) {
      guard let command = bytes.first else { return }
      switch command >> 4 {
      case 0x0:
        var pointer = Int(command & 0x0F)
        for byte in bytes.dropFirst() {
          ram[pointer] = byte
          pointer = (pointer + 1) & 0x0F
        }
      case 0x2: oscillator = command & 1 != 0
      case 0x8:
        displayOn = command & 1 != 0
        blink = (command >> 1) & 3
      case 0xA: break  // ROW/INT set: the row outputs stay rows (the power-up default).
      case 0xE: dimming = command & 0x0F
      default: unknownCommands += 1
      }
    }
  }

  /// The chips that answer, by address.
  public private(set) var chips: [UInt8: Chip]
  /// Writes no chip acknowledged.
  public private(set) var unacknowledged = 0

  /// Chips at power-up at each of `addresses`.
  public init(addresses: some Sequence<UInt8>) {
    chips = Dictionary(uniqueKeysWithValues: addresses.map { ($0, Chip()) })
  }

  /// One I2C write; returns whether a chip acknowledged it.
  @discardableResult
  public mutating func receive(address: UInt8, _ bytes: ArraySlice<UInt8>) -> Bool {
    guard chips[address] != nil else {
      unacknowledged += 1
      return false
    }
    chips[address]!.receive(bytes)
    return true
  }

  /// Every write of a list, in order.
  public mutating func receive(_ writes: I2CWrites) {
    for index in 0..<writes.count { receive(address: writes.address(index), writes.bytes(index)) }
  }

  /// Draws what the chips light on `board` into `pixels` (the board's size).
  public func drawVisiblePixels(on board: HT16K33Board, into pixels: inout Framebuffer) {
    pixels.clear()
    for backpack in board.backpacks {
      guard let chip = chips[backpack.address] else { continue }
      for common in 0..<8 {
        for row in 0..<16 where chip.isLit(row: row, common: common) {
          // Any lit LED shows, in the colour the board uses or not: a stray one is a bug to see.
          if let pixel = backpack.pixel(row: row, common: common, color: .yellow) { pixels[pixel.x, pixel.y] = true }
        }
      }
    }
  }

  /// The duty of the first backpack's chip (every chip of a sign is dimmed alike).
  public func visibleBrightness(on board: HT16K33Board) -> Double {
    chips[board.backpacks[0].address]?.duty ?? 0
  }
}

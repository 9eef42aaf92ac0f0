import MatrixCore

/// A chain of MAX7219s modelled as the datasheet describes them, for tests and for users
/// without hardware: it takes the SPI byte stream with its latch points and reports what a
/// person would see.
///
/// Each chip has a 16-bit shift register. Bits enter the first chip (the one wired to the
/// host) MSB first; what falls out of a chip's register enters the next. When chip select
/// rises, every chip latches its register: the high byte's low nibble is the address, the low
/// byte the data. Digit, decode-mode, intensity, scan-limit, shutdown and display-test
/// registers are modelled; at power-up every chip is in shutdown with its registers at zero.
public struct MAX7219ChainEmulator: Sendable {
  /// One chip's state.
  public struct Chip: Sendable, Equatable {
    /// The 16-bit shift register.
    public var shiftRegister: UInt16 = 0
    /// Digit registers 1...8.
    public var digits = [UInt8](repeating: 0, count: 8)
    /// Decode mode: bit n set decodes digit n as Code B.
    public var decodeMode: UInt8 = 0
    /// Intensity, 0...15 (duty (2k+1)/32).
    public var intensity: UInt8 = 0
    /// Digits scanned: 0...scanLimit.
    public var scanLimit: UInt8 = 0
    /// Whether the chip is shut down (blank).
    public var isShutDown = true
    /// Whether display test lights every LED.
    public var displayTest = false

    /// The segments a digit drives, after decoding: bit 7 DP, bits 6...0 A...G.
    public func segments(ofDigit digit: Int) -> UInt8 {
      if displayTest { return 0xFF }
      if isShutDown || digit > Int(scanLimit) { return 0 }
      let value = digits[digit]
      guard decodeMode & (1 << UInt8(digit)) != 0 else { return value }
      return MAX7219ChainEmulator.codeB[Int(value & 0x0F)] | (value & 0x80)
    }
  }

  /// Code B font (datasheet Table 5): 0-9, '-', 'E', 'H', 'L', 'P', blank.
  static let codeB: [UInt8] = [
    0x7E, 0x30, 0x6D, 0x79, 0x33, 0x5B, 0x5F, 0x70, 0x7F, 0x7B, 0x01, 0x4F, 0x37, 0x0E, 0x67, 0x00,
  ]

  /// The chips, in chain order (element 0 is wired to the host).
  public private(set) var chips: [Chip]
  /// Bytes clocked in since the last latch.
  public private(set) var pendingBytes = 0
  /// Transactions latched so far.
  public private(set) var latchCount = 0

  /// The chips' shift registers while bits move through them (kept, so clocking allocates
  /// nothing: `--simulate` draws every frame through this emulator).
  private var registers: [UInt16]

  /// A chain of `count` chips at power-up.
  public init(chips count: Int) {
    chips = [Chip](repeating: Chip(), count: count)
    registers = [UInt16](repeating: 0, count: count)
  }

  /// Clocks bytes in, MSB first, without latching.
  public mutating func clock(_ bytes: some Sequence<UInt8>) {
    // The chain's shift registers apart from the chips' other state while bits move.
    var chip = 0
    while chip < chips.count {
      registers[chip] = chips[chip].shiftRegister
      chip += 1
    }
    for byte in bytes {
      // A byte's eight clocks at once: each register's top eight bits leave through DOUT into
      // the next chip's DIN, in the order they came, and the byte enters the first chip.
      var carry = UInt16(byte)
      chip = 0
      while chip < registers.count {
        let out = registers[chip] >> 8
        registers[chip] = (registers[chip] << 8) | carry
        carry = out
        chip += 1
      }
      pendingBytes += 1
    }
    chip = 0
    while chip < registers.count {
      chips[chip].shiftRegister = registers[chip]
      chip += 1
    }
  }

  /// Chip select rises: every chip executes the word in its shift register.
  public mutating func latch() {
    for index in chips.indices {
      let word = chips[index].shiftRegister
      let address = UInt8((word >> 8) & 0x0F)
      let data = UInt8(word & 0xFF)
      switch address {
      case 0x1...0x8: chips[index].digits[Int(address) - 1] = data
      case 0x9: chips[index].decodeMode = data
      case 0xA: chips[index].intensity = data & 0x0F
      case 0xB: chips[index].scanLimit = data & 0x07
      case 0xC: chips[index].isShutDown = data & 1 == 0
      case 0xF: chips[index].displayTest = data & 1 == 1
      default: break  // no-op (0x0) and the unused addresses 0xD, 0xE
      }
    }
    pendingBytes = 0
    latchCount += 1
  }

  /// Feeds latched transactions, as a transport would send them.
  public mutating func receive(_ transactions: SPITransactions) {
    var start = 0
    for end in transactions.ends {
      clock(transactions.bytes[start..<end])
      latch()
      start = end
    }
  }

  /// The pixels a person would see on `board`'s sign.
  public func visiblePixels(on board: MAX7219Board) -> Framebuffer {
    var pixels = Framebuffer(width: board.width, height: board.height)
    drawVisiblePixels(on: board, chain: board.chain, into: &pixels)
    return pixels
  }

  /// Draws what ``visiblePixels(on:)`` returns into `pixels` (the board's size), reusing
  /// it; `chain` is `board.chain`, computed once by the caller. Allocates nothing.
  public func drawVisiblePixels(on board: MAX7219Board, chain: [MAX7219Board.ModulePosition], into pixels: inout Framebuffer) {
    pixels.clear()
    for chip in chips.indices {
      for digit in 0..<8 {
        let segments = chips[chip].segments(ofDigit: digit)
        for bit in 0..<8 where segments & (1 << UInt8(bit)) != 0 {
          let pixel = board.pixel(module: chain[chip], digit: digit, bit: bit)
          pixels[pixel.x, pixel.y] = true
        }
      }
    }
  }

  /// The brightness a person would see, relative to `board`'s full brightness: 0 when every
  /// chip is shut down, else (intensity + 1) / (board brightness + 1) of the first chip lit.
  public func visibleBrightness(on board: MAX7219Board) -> Double {
    guard let chip = chips.first(where: { !$0.isShutDown || $0.displayTest }) else { return 0 }
    if chip.displayTest { return 1 }
    return min(1, Double(chip.intensity + 1) / Double(board.intensity + 1))
  }
}

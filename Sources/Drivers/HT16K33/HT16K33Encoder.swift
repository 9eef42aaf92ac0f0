import MatrixCore

/// The HT16K33's commands (Holtek datasheet, command summary): one byte each, the high
/// nibble naming the command.
public enum HT16K33Command {
  /// System setup, oscillator on (normal operation).
  public static let oscillatorOn: UInt8 = 0x21
  /// System setup, oscillator off (standby: the display is dark, RAM kept).
  public static let standby: UInt8 = 0x20
  /// Display setup, display on, blink off.
  public static let displayOn: UInt8 = 0x81
  /// Display setup, display off.
  public static let displayOff: UInt8 = 0x80
  /// Dimming set: OR the step, 0...15 (duty (n+1)/16).
  public static let dimming: UInt8 = 0xE0
  /// Display data address pointer: OR the address, 0...15; the bytes after it fill RAM.
  public static let ramAddress: UInt8 = 0x00
}

/// Turns frames into the I2C writes of a sign of HT16K33 backpacks: a pure function of the
/// frame, the board and what was sent before.
///
/// Each backpack's 16 bytes of display RAM are built from the frame through a table made
/// once from the backpack's wiring and turn; only the bytes that changed are sent, as one
/// write from the first changed byte to the last. A brightness change is one dimming
/// command per backpack; brightness zero sends dark RAM.
public struct HT16K33Encoder: FrameEncoder, Sendable {
  /// The board being driven.
  public let board: HT16K33Board
  /// For each backpack's 128 LEDs (RAM byte × 8 + bit): the framebuffer bit that lights
  /// it, as word index × 64 + shift, or -1 for none.
  let sources: [Int32]
  /// The backpacks' addresses, in board order.
  let addresses: [UInt8]
  /// RAM as built for the current frame, and as last sent: 16 bytes per backpack.
  var ram: [UInt8]
  var sentRAM: [UInt8]
  public let width: Int, height: Int
  var sentLevel = -1
  var hasSent = false

  /// Prepares an encoder for `board`.
  public init(board: HT16K33Board) {
    self.board = board
    (width, height) = (board.width, board.height)
    let stride = (board.width + 63) >> 6
    var sources = [Int32](repeating: -1, count: board.backpacks.count * 128)
    for (index, backpack) in board.backpacks.enumerated() {
      for common in 0..<8 {
        for row in 0..<16 {
          guard let pixel = backpack.pixel(row: row, common: common, color: board.color) else { continue }
          let led = index * 128 + (2 * common + row / 8) * 8 + row % 8
          sources[led] = Int32((pixel.y * stride + (pixel.x >> 6)) * 64 + (63 - (pixel.x & 63)))
        }
      }
    }
    self.sources = sources
    addresses = board.backpacks.map(\.address)
    ram = [UInt8](repeating: 0, count: board.backpacks.count * 16)
    sentRAM = ram
  }

  /// The start-up sequence of every backpack: oscillator on, dimming, RAM cleared, display
  /// on with blink off.
  public mutating func startUp(into output: inout I2CWrites) {
    sentLevel = board.intensity
    for address in addresses {
      output.append(address: address, CollectionOfOne(HT16K33Command.oscillatorOn))
      output.append(address: address, CollectionOfOne(HT16K33Command.dimming | UInt8(sentLevel)))
    }
    writeDarkRAM(into: &output)
    for address in addresses { output.append(address: address, CollectionOfOne(HT16K33Command.displayOn)) }
    hasSent = true
  }

  /// The resting state on exit: RAM cleared, display off, oscillator off (standby).
  public mutating func shutDown(into output: inout I2CWrites) {
    writeDarkRAM(into: &output)
    for address in addresses {
      output.append(address: address, CollectionOfOne(HT16K33Command.displayOff))
      output.append(address: address, CollectionOfOne(HT16K33Command.standby))
    }
  }

  mutating func writeDarkRAM(into output: inout I2CWrites) {
    for address in addresses {
      output.begin(address: address, capacity: 17)
      output.put(HT16K33Command.ramAddress)
      for _ in 0..<16 { output.put(0) }
      output.end()
    }
    sentRAM.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
  }

  /// The dimming step for a frame brightness, or `nil` for dark.
  public func dimming(for brightness: Double) -> Int? {
    dimmingStep(for: brightness, fullStep: board.intensity)
  }

  /// Appends the writes that make the backpacks show `frame` (nothing if they already do).
  public mutating func encode(_ frame: Frame, into output: inout I2CWrites) {
    precondition(frame.pixels.width == width && frame.pixels.height == height, "frame size is not the board's")
    let level = dimming(for: frame.brightness)
    if let level, level != sentLevel {
      for address in addresses { output.append(address: address, CollectionOfOne(HT16K33Command.dimming | UInt8(level))) }
      sentLevel = level
    }
    build(frame.pixels.words, dark: level == nil)
    let everything = !hasSent
    hasSent = true
    for index in addresses.indices {
      let base = index * 16
      var first = 16, last = -1
      for byte in 0..<16 where everything || ram[base + byte] != sentRAM[base + byte] {
        first = min(first, byte)
        last = byte
      }
      guard last >= 0 else { continue }
      output.begin(address: addresses[index], capacity: 2 + last - first)
      output.put(HT16K33Command.ramAddress | UInt8(first))
      for byte in first...last {
        output.put(ram[base + byte])
        sentRAM[base + byte] = ram[base + byte]
      }
      output.end()
    }
  }

  /// Fills ``ram`` from the framebuffer's words (all dark with `dark`).
  mutating func build(_ words: [UInt64], dark: Bool) {
    words.withUnsafeBufferPointer { words in
      sources.withUnsafeBufferPointer { sources in
        ram.withUnsafeMutableBufferPointer { ram in
          for byte in 0..<ram.count {
            var value: UInt8 = 0
            if !dark {
              for bit in 0..<8 {
                let source = Int(sources[byte * 8 + bit])
                if source >= 0 && (words[source >> 6] >> UInt64(source & 63)) & 1 != 0 { value |= 1 << UInt8(bit) }
              }
            }
            ram[byte] = value
          }
        }
      }
    }
  }
}

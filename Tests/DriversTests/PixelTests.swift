import MarqueeTesting
import MatrixCore
import TestSupport
import Testing

@testable import Drivers
@testable import MAX7219Core

/// WS2812/SK6812 and APA102/SK9822 panels: pulse timing and frames checked by emulators
/// written from the datasheets, panel wiring against hand-drawn orders, the current limit.
@Suite struct PixelTests {
  static let red = RGBColor(red: 255, green: 0, blue: 0)

  static func board(_ file: String) throws -> PixelBoard {
    guard let board = try boardFile(file).family as? PixelBoard else {
      throw InvalidBoardValue(field: "Boards/\(file).json", reason: "not a pixel board")
    }
    return board
  }

  /// The same board with a supply that never limits (to check colours exactly).
  static func unlimited(_ board: PixelBoard) throws -> PixelBoard {
    try PixelBoard(
      name: board.name, chip: board.chip, channelOrder: board.channelOrder, panels: board.panels, device: board.device,
      speedHz: board.speedHz, intensity: board.intensity, maxMilliamps: PixelBoard.currentRange.upperBound)
  }

  @Test func theSPIClockGivesPulsesInsideTheWS2812BWindows() throws {
    let standard = try #require(WS2812Timing(speedHz: 2_400_000))
    #expect((standard.bitsPerBit, standard.highBits0, standard.highBits1) == (3, 1, 2))
    #expect(standard.table[0xFF * 3..<0xFF * 3 + 3] == [0b1101_1011, 0b0110_1101, 0b1011_0110])
    #expect(standard.table[0..<3] == [0b1001_0010, 0b0100_1001, 0b0010_0100])
    // A Raspberry Pi 3's 250 MHz core divides 2.4 MHz down to 2.358 MHz: still inside.
    #expect(WS2812Timing(speedHz: 2_358_490) != nil)
    let fast = try #require(WS2812Timing(speedHz: 6_400_000))
    #expect(WS2812Timing.zeroHigh.contains(Double(fast.highBits0) / 6.4))
    #expect(WS2812Timing.oneHigh.contains(Double(fast.highBits1) / 6.4))
    #expect(WS2812Timing.problem(speedHz: 1_000_000)?.contains("2400000 or 6400000 work") == true)
    // 280 µs at 2.4 MHz is 84 bytes; with the margin, 93.
    #expect(standard.resetBytes == 93)
  }

  /// The 8x32 panel's LEDs run down the first column, up the second, and so on.
  @Test func panelsAreWiredAsTheBoardFilesSay() throws {
    let strip = try PixelTests.board("ws2812-8x32").ledPixels
    #expect(strip[0] == (0, 0) && strip[7] == (0, 7) && strip[8] == (1, 7) && strip[15] == (1, 0) && strip[255] == (31, 0))
    let square = try PixelTests.board("ws2812-16x16").ledPixels
    #expect(square[15] == (15, 0) && square[16] == (15, 1) && square[31] == (0, 1) && square[255] == (0, 15))
    let two = try PixelTests.board("ws2812-64x8-two-panels").ledPixels
    #expect(two.count == 512 && two[256] == (32, 0) && two[511] == (63, 0))
    let order = ChainOrder(start: .bottomRight, direction: .rows, serpentine: false)
    #expect(order.place(0, columns: 4, rows: 2) == (3, 1) && order.place(4, columns: 4, rows: 2) == (3, 0))
  }

  /// Random frames through the encoder and the WS2812B emulator: every LED shows its
  /// pixel's colour at the board's brightness, every pulse inside its window, one latch
  /// per frame.
  @Test func ws2812FramesRoundTripThroughTheLineEmulator() throws {
    var random = SplitMix64(seed: 2812)
    for file in ["ws2812-8x32", "ws2812-16x16", "sk6812-rgbw-8x32"] {
      let board = try PixelTests.unlimited(try PixelTests.board(file))
      let color = RGBColor(red: 200, green: 100, blue: 40)
      var encoder = PixelEncoder(board: board, color: color)
      var emulator = WS2812Emulator(ledCount: board.ledCount, bytesPerLED: board.bytesPerLED)
      var output = SPITransactions()
      let pixels = board.ledPixels
      for round in 1...3 {
        let frame = randomFrame(width: board.width, height: board.height, using: &random)
        encoder.encode(frame, into: &output)
        emulator.receive(output.transaction(0), speedHz: board.speedHz)
        output.removeAll()
        #expect(emulator.latches == round && emulator.violations == 0 && emulator.ambiguousLows == 0)
        // Brightness 3 of 0...15 is a quarter; the RGBW board sends the white part (40) as W.
        let scale = 4.0 / 16
        let expected: [UInt8] = board.chip == .sk6812RGBW
          ? [UInt8((60 * scale).rounded()), UInt8((160 * scale).rounded()), 0, UInt8((40 * scale).rounded())]  // g r b w
          : [UInt8((100 * scale).rounded()), UInt8((200 * scale).rounded()), UInt8((40 * scale).rounded())]  // g r b
        for (index, pixel) in pixels.enumerated() {
          let shown = Array(emulator.led(index))
          let want = frame.pixels[pixel.x, pixel.y] ? expected : [UInt8](repeating: 0, count: expected.count)
          if shown != want {
            Issue.record("\(file) LED \(index) at \(pixel): \(shown), expected \(want)")
            break
          }
        }
      }
      #expect(try #require(emulator.zeroHighRange).upperBound <= 0.55)
      #expect(try #require(emulator.oneHighRange).lowerBound >= 0.65)
    }
  }

  @Test func apa102FramesRoundTripAndTheEndFrameReachesTheLastLED() throws {
    var random = SplitMix64(seed: 102)
    for file in ["apa102-16x16", "sk9822-8x32"] {
      let board = try PixelTests.unlimited(try PixelTests.board(file))
      var encoder = PixelEncoder(board: board, color: RGBColor(red: 10, green: 20, blue: 30))
      var emulator = APA102Emulator(ledCount: board.ledCount)
      var output = SPITransactions()
      let frame = randomFrame(width: board.width, height: board.height, using: &random)
      encoder.encode(frame, into: &output)
      let bytes = Array(output.transaction(0))
      #expect(bytes.prefix(4) == [0, 0, 0, 0], "start frame")
      emulator.receive(bytes)
      #expect(emulator.undelivered == 0 && emulator.badFrames == 0)
      for (index, pixel) in board.ledPixels.enumerated() {
        let lit = frame.pixels[pixel.x, pixel.y]
        // Brightness 3: global (4/16 × 31).rounded() = 8; colours at full, in BGR order.
        let want = lit ? APA102Emulator.LED(global: 8, bytes: (30, 20, 10)) : APA102Emulator.LED(global: 0, bytes: (0, 0, 0))
        if emulator.leds[index] != want {
          Issue.record("\(file) LED \(index): \(emulator.leds[index]), expected \(want)")
          break
        }
      }
      // Cut the end frame short and the far LEDs never get their data.
      var short = APA102Emulator(ledCount: board.ledCount)
      short.receive(bytes.prefix(4 + 4 * board.ledCount))
      #expect(short.undelivered > 0)
    }
  }

  /// A full-white 8x32 panel would draw 15.6 A; the limit dims it to the board's 500 mA,
  /// counted from what the emulated LEDs show.
  @Test func theCurrentLimitDimsAFrameThatWouldDrawTooMuch() throws {
    let board = try PixelTests.board("ws2812-8x32").with(intensity: 15)
    var encoder = PixelEncoder(board: board, color: RGBColor(red: 255, green: 255, blue: 255))
    var emulator = WS2812Emulator(ledCount: board.ledCount)
    var output = SPITransactions()
    var frame = Frame(width: 32, height: 8)
    frame.pixels.fill(true)
    encoder.encode(frame, into: &output)
    emulator.receive(output.transaction(0), speedHz: board.speedHz)
    #expect(encoder.lastFrameLimited)
    let channelSum = emulator.shown.reduce(0) { $0 + Int($1) }
    let milliamps = Double(board.ledCount) + Double(channelSum) * 20 / 255
    #expect(milliamps <= 500 && milliamps > 450, "drawn: \(milliamps) mA")
    // Two white LEDs draw 2 × 60 mA and the 256 LEDs' own 256 mA: within the limit.
    output.removeAll()
    frame.pixels.clear()
    frame.pixels[0, 0] = true
    frame.pixels[5, 5] = true
    encoder.encode(frame, into: &output)
    #expect(!encoder.lastFrameLimited)
  }

  /// The APA102's global brightness counts in the current too.
  @Test func theCurrentLimitHoldsForAPA102s() throws {
    let board = try PixelTests.board("apa102-16x16").with(intensity: 15)
    var encoder = PixelEncoder(board: board, color: RGBColor(red: 255, green: 255, blue: 255))
    var emulator = APA102Emulator(ledCount: board.ledCount)
    var output = SPITransactions()
    var frame = Frame(width: 16, height: 16)
    frame.pixels.fill(true)
    encoder.encode(frame, into: &output)
    emulator.receive(output.transaction(0))
    let milliamps = Double(board.ledCount) + emulator.leds.reduce(0.0) { sum, led in
      sum + Double(Int(led.bytes.0) + Int(led.bytes.1) + Int(led.bytes.2)) * 20 / 255 * Double(led.global) / 31
    }
    #expect(encoder.lastFrameLimited && milliamps <= 500 && milliamps > 450, "drawn: \(milliamps) mA")
  }

  @Test func zonesLightInTheirOwnColourAndShutdownDarkens() throws {
    let board = try PixelTests.board("ws2812-16x16")
    let green = RGBColor(red: 0, green: 255, blue: 0)
    var display = try PixelDisplay(
      board: board, color: PixelTests.red, regions: [ColorRegion(x: 0, y: 8, width: 16, height: 8, color: green)],
      transport: RecordingTransport())
    var frame = Frame(width: 16, height: 16)
    frame.pixels.fill(true)
    frame.brightness = 1
    try display.show(frame, changed: true)
    try display.shutdown()
    var emulator = WS2812Emulator(ledCount: board.ledCount)
    let frames = display.transport.transactions
    #expect(frames.count == 3, "dark at start, the frame, dark at exit")
    emulator.receive(frames[1], speedHz: board.speedHz)
    for (index, pixel) in board.ledPixels.enumerated() {
      let (g, r) = (emulator.led(index).first!, emulator.led(index).dropFirst().first!)
      #expect(pixel.y < 8 ? (g == 0 && r > 0) : (g > 0 && r == 0), "LED \(index) at \(pixel)")
    }
    emulator.receive(frames[2], speedHz: board.speedHz)
    #expect(emulator.shown.allSatisfy { $0 == 0 })
  }

  @Test func badPixelBoardsNameTheField() throws {
    func error(_ json: String) -> String { boardFileError(json, path: "p.json") }
    let panel = #""panel": {"width": 32, "height": 8}"#
    #expect(error(#"{"driver": "ws2812", \#(panel), "spi": {"speedHz": 1000000}}"#).hasPrefix(
      "p.json: field 'spi.speedHz': at 1000000 Hz no coding"))
    #expect(error(#"{"driver": "ws2812", \#(panel), "colorOrder": "rgbw"}"#)
      == "p.json: field 'colorOrder': 'rgbw' is not an order of the letters bgr")
    #expect(error(#"{"driver": "apa102", \#(panel), "maxMilliamps": 200}"#)
      == "p.json: field 'maxMilliamps': 200 mA leaves too little for 256 LEDs, which draw 1 mA each even when dark")
    #expect(error(#"{"driver": "ws2812", "panels": [{"width": 8, "height": 8}, {"width": 8, "height": 8, "x": 4}]}"#)
      == "p.json: field 'panels[1]': overlaps panels[0]")
    #expect(error(#"{"driver": "ws2812"}"#) == "p.json: field 'panel': missing (it is required)")
    #expect(error(#"{"driver": "neopixel", \#(panel)}"#).contains("'neopixel' is not one of max7219, ht16k33, hub12, hub75, ws2812"))
  }
}

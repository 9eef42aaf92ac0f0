import Foundation
import Platform
import MarqueeTesting
import MatrixCore
import Testing

@testable import Drivers
@testable import MAX7219Core


func randomFrame(width: Int, height: Int, using random: inout SplitMix64) -> Frame {
  var pixels = Framebuffer(width: width, height: height)
  for y in 0..<height { for x in 0..<width where Bool.random(using: &random) { pixels[x, y] = true } }
  return Frame(pixels: pixels)
}

@Suite struct BitBlockTests {
  @Test func symmetriesMatchPixelByPixelDefinitions() {
    var random = SplitMix64(seed: 3)
    for _ in 0..<200 {
      let block = random.next()
      for y in 0..<8 {
        for x in 0..<8 {
          let lit = BitBlock.pixel(block, x: x, y: y)
          #expect(BitBlock.pixel(BitBlock.flipHorizontally(block), x: 7 - x, y: y) == lit)
          #expect(BitBlock.pixel(BitBlock.flipVertically(block), x: x, y: 7 - y) == lit)
          #expect(BitBlock.pixel(BitBlock.transpose(block), x: y, y: x) == lit)
        }
      }
    }
  }
}

@Suite struct MAX7219Tests {
  static let fc16 = try! MAX7219Board(name: "fc16", wiring: .fc16, columns: 4)

  @Test func fc16RowIsDigitAndBit7IsTheLeftmostPixelChip0Rightmost() throws {
    var encoder = MAX7219Encoder(board: MAX7219Tests.fc16)
    var output = SPITransactions()
    encoder.startUp(into: &output)
    output.removeAll()
    var pixels = Framebuffer(width: 32, height: 8)
    pixels[0, 0] = true  // leftmost module (chip 3), row 0, leftmost pixel
    pixels[31, 2] = true  // rightmost module (chip 0), row 2, rightmost pixel
    encoder.encode(Frame(pixels: pixels), into: &output)
    #expect(output.count == 2)
    // The first word sent lands in the farthest chip (chip 3, leftmost); chip 0's word is last.
    // A changed row goes to every chip: digit 1 (row 0), then digit 3 (row 2).
    #expect(Array(output.transaction(0)) == [0x01, 0x80, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00])
    #expect(Array(output.transaction(1)) == [0x03, 0x00, 0x03, 0x00, 0x03, 0x00, 0x03, 0x01])
  }

  @Test func startUpSequenceIsTheDatasheetsAndShutdownBlanksThenSleeps() throws {
    var encoder = MAX7219Encoder(board: try MAX7219Board(name: "two", wiring: .fc16, columns: 2, intensity: 5))
    var output = SPITransactions()
    encoder.startUp(into: &output)
    let expected: [[UInt8]] =
      [[0x0F, 0], [0x0B, 7], [0x09, 0], [0x0A, 5]] + (1...8).map { [UInt8($0), 0] } + [[0x0C, 1]]
    #expect((0..<output.count).map { Array(output.transaction($0)) } == expected.map { $0 + $0 })
    output.removeAll()
    encoder.blankAndShutDown(into: &output)
    #expect(output.count == 9)
    #expect(Array(output.transaction(8)) == [0x0C, 0, 0x0C, 0])
  }

  @Test func aFrameSendsAtMostEightRowsAndAnEqualFrameSendsNothing() throws {
    var random = SplitMix64(seed: 11)
    let board = try MAX7219Board(name: "big", wiring: .fc16, columns: 16, rows: 2)
    var encoder = MAX7219Encoder(board: board)
    var output = SPITransactions()
    encoder.startUp(into: &output)
    for _ in 0..<20 {
      let frame = randomFrame(width: board.width, height: board.height, using: &random)
      output.removeAll()
      encoder.encode(frame, into: &output)
      #expect(output.count <= 8)
      #expect(output.bytes.count <= 8 * 2 * board.chipCount)
      #expect(output.ends.enumerated().allSatisfy { $0.element == ($0.offset + 1) * 2 * board.chipCount })
      output.removeAll()
      encoder.encode(frame, into: &output)
      #expect(output.count == 0)
    }
  }

  @Test func brightnessMapsToTheIntensityRegister() {
    var encoder = MAX7219Encoder(board: MAX7219Tests.fc16)
    #expect(encoder.intensity(for: 1) == 7)
    #expect(encoder.intensity(for: 0.5) == 3)
    #expect(encoder.intensity(for: 0.01) == 0)
    #expect(encoder.intensity(for: 0) == nil)
    var output = SPITransactions()
    encoder.startUp(into: &output)
    output.removeAll()
    var frame = Frame(width: 32, height: 8)
    frame.pixels.fill(true)
    frame.brightness = 0.5
    encoder.encode(frame, into: &output)
    #expect(Array(output.transaction(0)) == [0x0A, 3, 0x0A, 3, 0x0A, 3, 0x0A, 3])
    var emulator = MAX7219ChainEmulator(chips: 4)
    var all = SPITransactions()
    var fresh = MAX7219Encoder(board: MAX7219Tests.fc16)
    fresh.startUp(into: &all)
    fresh.encode(frame, into: &all)
    frame.brightness = 0
    fresh.encode(frame, into: &all)
    emulator.receive(all)
    // Brightness 0 is dark: the digits are cleared, not dimmed to the lowest step.
    #expect(emulator.visiblePixels(on: MAX7219Tests.fc16).isBlank)
  }

  static let wirings = [false, true].flatMap { dr in [false, true].flatMap { cr in [false, true].map { rr in
    ModuleWiring(digitsAreRows: dr, columnsReversed: cr, rowsReversed: rr) } } }

  /// Every wiring, rotation, chain start, direction and serpentine: framebuffer -> bytes ->
  /// emulated chips -> the same framebuffer (one wiring a case, so they run side by side).
  @Test(arguments: 0..<wirings.count)
  func roundTripThroughTheEmulatorForEveryGeometry(wiringIndex: Int) throws {
    var random = SplitMix64(seed: 99 + UInt64(wiringIndex))
    let wiring = MAX7219Tests.wirings[wiringIndex]
    do {
      for rotation in ModuleRotation.allCases {
        // One module, a row, a grid of odd size, and a chain longer than one SPI byte count.
        for (columns, rows) in [(1, 1), (4, 1), (2, 3), (9, 1)] {
          for start in MAX7219Board.Corner.allCases {
            for direction in MAX7219Board.ChainDirection.allCases {
              for serpentine in [false, true] {
                let board = try MAX7219Board(
                  name: "t", wiring: wiring, columns: columns, rows: rows, rotation: rotation,
                  chainStart: start, chainDirection: direction, serpentine: serpentine)
                var encoder = MAX7219Encoder(board: board)
                var blockEncoder = MAX7219Encoder(board: board, rowSegments: false)
                var emulator = MAX7219ChainEmulator(chips: board.chipCount)
                var output = SPITransactions(), blockOutput = SPITransactions()
                encoder.startUp(into: &output)
                blockEncoder.startUp(into: &blockOutput)
                var name: String { "\(wiring) \(rotation) \(columns)x\(rows) \(start) \(direction) \(serpentine)" }
                for frame in frameSequence(width: board.width, height: board.height, using: &random) {
                  encoder.encode(frame, into: &output)
                  blockEncoder.encode(frame, into: &blockOutput)
                  // The row-segment fast path and the block path are separate code: same bytes.
                  // Checked before a message is made: 24,000 of them cost seconds in a debug build.
                  if output != blockOutput { Issue.record("\(name)") }
                  emulator.receive(output)
                  output.removeAll()
                  blockOutput.removeAll()
                  let shown = frame.brightness > 0 ? frame.pixels : Framebuffer(width: board.width, height: board.height)
                  if emulator.visiblePixels(on: board) != shown { Issue.record("\(name)") }
                }
              }
            }
          }
        }
      }
    }
  }

  /// Frames a sign goes through: random ones, a few pixels changed, the same again, dark.
  func frameSequence(width: Int, height: Int, using random: inout SplitMix64) -> [Frame] {
    var frames = [randomFrame(width: width, height: height, using: &random)]
    var touched = frames[0]
    for _ in 0..<3 {
      let x = Int(random.next() % UInt64(width)), y = Int(random.next() % UInt64(height))
      touched.pixels[x, y].toggle()
    }
    frames.append(touched)
    frames.append(touched)
    var dark = touched
    dark.brightness = 0
    frames.append(dark)
    frames.append(randomFrame(width: width, height: height, using: &random))
    return frames
  }

  @Test func chainOrderFollowsTheStartCornerAndSerpentine() throws {
    let board = try MAX7219Board(name: "s", wiring: .fc16, columns: 3, rows: 2, chainStart: .bottomLeft, serpentine: true)
    #expect(board.chain.map { [$0.column, $0.row] } == [[0, 1], [1, 1], [2, 1], [2, 0], [1, 0], [0, 0]])
  }

  @Test func emulatorModelsShutdownTestScanLimitDecodeAndNoOps() throws {
    var emulator = MAX7219ChainEmulator(chips: 2)
    let board = try MAX7219Board(name: "e", wiring: .fc16, columns: 2)
    // Power-up: shut down, nothing visible even with data.
    emulator.clock([0x01, 0xFF, 0x01, 0xFF])
    emulator.latch()
    #expect(emulator.visiblePixels(on: board).isBlank)
    // Wake both, scan all digits.
    emulator.clock([0x0C, 1, 0x0C, 1, 0x0B, 7, 0x0B, 7])  // 4 words through a 2-chip chain
    emulator.latch()
    #expect(emulator.chips[0].scanLimit == 7 && emulator.chips[1].scanLimit == 7)
    #expect(emulator.chips.allSatisfy { !$0.isShutDown } == false)  // the shutdown words went through
    emulator.clock([0x0C, 1, 0x0C, 1])
    emulator.latch()
    #expect(emulator.chips.allSatisfy { !$0.isShutDown })
    #expect(emulator.visiblePixels(on: board).litCount == 16)  // digit 0 = 0xFF on both
    // A no-op leaves a chip alone: write chip 1 (far) only.
    emulator.clock([0x02, 0x81, 0x00, 0x00])
    emulator.latch()
    #expect(emulator.chips[1].digits[1] == 0x81 && emulator.chips[0].digits[1] == 0)
    // Scan limit 0 shows only digit 0.
    emulator.clock([0x0B, 0, 0x0B, 0])
    emulator.latch()
    #expect(emulator.visiblePixels(on: board).litCount == 16)
    // Display test lights everything, whatever the registers say.
    emulator.clock([0x0F, 1, 0x0F, 1])
    emulator.latch()
    #expect(emulator.visiblePixels(on: board).litCount == 128)
    // Code B: digit value 8 shows all seven segments, no DP.
    var chip = MAX7219ChainEmulator.Chip()
    chip.isShutDown = false
    chip.scanLimit = 7
    chip.decodeMode = 0x01
    chip.digits[0] = 0x08
    #expect(chip.segments(ofDigit: 0) == 0x7F)
    chip.digits[0] = 0x8F
    #expect(chip.segments(ofDigit: 0) == 0x80)
  }

  @Test func displayBlanksAndShutsDownUnlessAskedToKeep() throws {
    var display = try MAX7219Display(board: MAX7219Tests.fc16, transport: RecordingTransport())
    var frame = Frame(width: 32, height: 8)
    frame.pixels[3, 3] = true
    try display.show(frame, changed: true)
    try display.shutdown()
    #expect(display.transport.transactions.last == [0x0C, 0, 0x0C, 0, 0x0C, 0, 0x0C, 0])
    var keeping = try MAX7219Display(board: MAX7219Tests.fc16, transport: RecordingTransport(), keepLastFrame: true)
    try keeping.show(frame, changed: true)
    let count = keeping.transport.transactions.count
    try keeping.shutdown()
    #expect(keeping.transport.transactions.count == count)
  }
}

/// A transport that fails a number of sends, counting reopen attempts, then works.
final class FlakyTransport: SPITransport, @unchecked Sendable {
  var failuresLeft: Int
  var reopenFailuresLeft: Int
  var reopens = 0
  var sent: [[UInt8]] = []

  init(failures: Int, reopenFailures: Int) {
    failuresLeft = failures
    reopenFailuresLeft = reopenFailures
  }

  func send(_ transactions: SPITransactions) throws {
    if failuresLeft > 0 {
      failuresLeft -= 1
      throw SPIError(path: "/dev/spidev0.0", code: ESHUTDOWN, operation: "write")
    }
    for index in 0..<transactions.count { sent.append(Array(transactions.transaction(index))) }
  }

  func reopen() throws {
    reopens += 1
    if reopenFailuresLeft > 0 {
      reopenFailuresLeft -= 1
      throw SPIError(path: "/dev/spidev0.0", code: ENOENT, operation: "open")
    }
  }
}

@Suite struct RetryTests {
  @Test func aFailingDeviceIsReopenedWithGrowingPausesAndGetsTheWholeFrameAgain() throws {
    let transport = FlakyTransport(failures: 0, reopenFailures: 2)
    var display = try MAX7219Display(board: MAX7219Tests.fc16, transport: transport)
    let pauses = EventList()
    display.retry = RetryPolicy(initialDelay: 1, maximumDelay: 30, sleep: { pauses.append("\($0)"); return true }, report: { _ in })
    var frame = Frame(width: 32, height: 8)
    frame.pixels[0, 0] = true
    try display.show(frame, changed: true)
    transport.failuresLeft = 1  // the device goes away…
    transport.sent.removeAll()
    frame.pixels[31, 7] = true
    try display.show(frame, changed: true)
    // …two reopens fail, the third works: pauses 1, 2, 4 seconds.
    #expect(pauses.entries == ["1.0", "2.0", "4.0"])
    #expect(transport.reopens == 3)
    // Start-up again, then every row of the frame (not just the changed ones).
    #expect(transport.sent.first == [0x0F, 0, 0x0F, 0, 0x0F, 0, 0x0F, 0])
    var emulator = MAX7219ChainEmulator(chips: 4)
    for transaction in transport.sent {
      emulator.clock(transaction)
      emulator.latch()
    }
    #expect(emulator.visiblePixels(on: MAX7219Tests.fc16) == frame.pixels)
  }

  @Test func withoutRetryTheFailureEndsTheRun() throws {
    let transport = FlakyTransport(failures: 0, reopenFailures: 0)
    var display = try MAX7219Display(board: MAX7219Tests.fc16, transport: transport)
    transport.failuresLeft = 1
    #expect(throws: SPIError.self) { try display.show(Frame(width: 32, height: 8), changed: true) }
  }

  @Test func aStopDuringThePauseEndsTheRetrying() throws {
    let transport = FlakyTransport(failures: 0, reopenFailures: 0)
    var display = try MAX7219Display(board: MAX7219Tests.fc16, transport: transport)
    display.retry = RetryPolicy(sleep: { _ in false }, report: { _ in })
    transport.failuresLeft = 1
    #expect(throws: SPIError.self) { try display.show(Frame(width: 32, height: 8), changed: true) }
    #expect(transport.reopens == 0)
  }
}

/// A thread-safe list of strings.
final class EventList: @unchecked Sendable {
  private var storage: [String] = []
  func append(_ entry: String) { storage.append(entry) }
  var entries: [String] { storage }
}

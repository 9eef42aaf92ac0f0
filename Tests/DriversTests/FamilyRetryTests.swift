import Foundation
import Platform
import MatrixCore
import Testing

@testable import Drivers
@testable import MAX7219Core

/// An I2C bus that fails on demand, and whose reopening can fail too.
final class FlakyI2C: I2CTransport {
  var failuresLeft = 0
  var reopenFailuresLeft = 0
  var reopens = 0
  var sent: [(address: UInt8, bytes: [UInt8])] = []

  func send(_ writes: I2CWrites) throws {
    if failuresLeft > 0 {
      failuresLeft -= 1
      throw I2CError(path: "/dev/i2c-1", code: EREMOTEIO, operation: "write 17 bytes", address: 0x70)
    }
    for index in 0..<writes.count { sent.append((writes.address(index), Array(writes.bytes(index)))) }
  }

  func reopen() throws {
    reopens += 1
    if reopenFailuresLeft > 0 {
      reopenFailuresLeft -= 1
      throw I2CError(path: "/dev/i2c-1", code: ENOENT, operation: "open")
    }
  }
}

/// `--retry` on the other families: the device reopened with growing pauses, then the chips
/// started up again and the whole frame sent.
@Suite struct FamilyRetryTests {
  @Test func backpacksThatLostPowerGetTheStartUpAndTheWholeFrame() throws {
    let board = try HT16K33Board(name: "t", backpacks: [.init(address: 0x70, module: .matrix8x8, x: 0, y: 0)])
    let bus = FlakyI2C()
    var display = try HT16K33Display(board: board, transport: bus)
    let pauses = EventList()
    display.retry = RetryPolicy(sleep: { pauses.append("\($0)"); return true }, report: { _ in })
    var frame = Frame(width: 8, height: 8)
    frame.pixels[1, 1] = true
    try display.show(frame, changed: true)
    bus.failuresLeft = 1
    bus.reopenFailuresLeft = 1
    bus.sent.removeAll()
    frame.pixels[6, 6] = true
    try display.show(frame, changed: true)
    #expect(pauses.entries == ["1.0", "2.0"] && bus.reopens == 2)
    // A chip that lost power: oscillator and display off, RAM unknown. What was sent after
    // the recovery alone must light the frame.
    var emulator = HT16K33Emulator(addresses: [0x70])
    for write in bus.sent { emulator.receive(address: write.address, write.bytes[...]) }
    var seen = Framebuffer(width: 8, height: 8)
    emulator.drawVisiblePixels(on: board, into: &seen)
    #expect(seen == frame.pixels)
  }

  @Test func anLEDPanelGetsTheFrameAgainOnceTheDeviceIsBack() throws {
    guard let board = try SignBoard(json: #"{"driver": "apa102", "panel": {"width": 4, "height": 2}}"#, path: "p.json").family as? PixelBoard
    else { return }
    let transport = FlakyTransport(failures: 0, reopenFailures: 0)
    var display = try PixelDisplay(board: board, color: RGBColor(red: 9, green: 9, blue: 9), transport: transport)
    display.retry = RetryPolicy(sleep: { _ in true }, report: { _ in })
    transport.failuresLeft = 1
    transport.sent.removeAll()
    var frame = Frame(width: 4, height: 2)
    frame.pixels[3, 1] = true
    try display.show(frame, changed: true)
    // The chain darkened (a start-up), then the frame.
    #expect(transport.reopens == 1 && transport.sent.count == 2)
    var emulator = APA102Emulator(ledCount: 8)
    for bytes in transport.sent { emulator.receive(bytes) }
    #expect(emulator.leds.filter { $0.global > 0 }.count == 1)
  }
}

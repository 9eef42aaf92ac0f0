import Drivers
import Foundation
import MatrixCore
import TestSupport
import Testing

/// The real binary driving HT16K33 backpacks through i2c-dev and RGB LED panels through
/// spidev, against the fake kernel; what reached the kernel is decoded by the emulators.
@Suite(.offThePool) struct KernelDoorDeviceTests {
  let door = KernelDoorTests()

  /// The I2C writes of a log, in order: (address, bytes).
  func writes(_ log: [String]) -> [(address: UInt8, bytes: [UInt8])] {
    log.compactMap { line in
      guard line.hasPrefix("i2c ") else { return nil }
      let fields = line.split(separator: " ")
      let address = UInt8(fields[2].dropFirst(5), radix: 16)!
      let hex = Array(fields[3].dropFirst(5))
      return (address, stride(from: 0, to: hex.count - 1, by: 2).map { UInt8(String(hex[$0...$0 + 1]), radix: 16)! })
    }
  }

  static func board(_ name: String) throws -> SignBoard {
    let path = "Boards/\(name).json"
    return try SignBoard(json: try String(contentsOfFile: path, encoding: .utf8), path: path)
  }

  static let bus = ["MARQUEE_FAKE_I2C": "/dev/i2c-1=70,71,72,73"]

  @Test func fourBackpacksShowTheSignAndAreLeftInStandby() throws {
    let arguments = ["--board", "ht16k33-adafruit-32x8", "--frames", "12", "--no-wait", "--speed", "400", "HELLO I2C"]
    let run = try door.run(arguments + ["--intensity", "9"], KernelDoorDeviceTests.bus)
    #expect(run.result.status == 0, "\(run.result.stderr)")
    #expect(run.log.first == "open /dev/i2c-1" && run.log.last == "close /dev/i2c-1")
    // Addressing only when the address changes, before that device's writes.
    #expect(run.log.dropFirst().first == "address /dev/i2c-1 70")
    let writes = writes(run.log)
    #expect(writes.prefix(2).map(\.bytes) == [[0x21], [0xE9]], "oscillator on, dimming 9")
    guard let board = try KernelDoorDeviceTests.board("ht16k33-adafruit-32x8").family as? HT16K33Board else { return }
    var emulator = HT16K33Emulator(addresses: 0x70...0x73)
    // Replay all but the shutdown (RAM cleared, display off, standby: 3 writes a backpack).
    for write in writes.dropLast(12) { emulator.receive(address: write.address, write.bytes[...]) }
    var seen = Framebuffer(width: 32, height: 8)
    emulator.drawVisiblePixels(on: board, into: &seen)
    let text = asciiFrames(try BinaryRunner.run(arguments.dropFirst(2) + ["--output", "ascii", "--width", "32"]).stdout)
    #expect(seen.text.split(separator: "\n").map(String.init) == text.last)
    #expect(emulator.chips.values.allSatisfy { $0.dimming == 9 && $0.displayOn && $0.oscillator })
    for write in writes.suffix(12) { emulator.receive(address: write.address, write.bytes[...]) }
    #expect(emulator.chips.values.allSatisfy { !$0.oscillator && !$0.displayOn && $0.ram.allSatisfy { $0 == 0 } })
  }

  @Test(arguments: [("", "Remote I/O error"), ("6", "No such device or address")])
  func aMissingBackpackIsNamedWithItsAddress(nakErrno: String, name: String) throws {
    var environment = ["MARQUEE_FAKE_I2C": "/dev/i2c-1=70,72,73"]
    if !nakErrno.isEmpty { environment["MARQUEE_FAKE_I2C_NAK"] = nakErrno }
    let run = try door.run(["--board", "ht16k33-adafruit-32x8", "--frames", "1", "--no-wait", "HI"], environment)
    #expect(run.result.status == 1)
    #expect(run.result.stderr == "Error: /dev/i2c-1: no device acknowledged at address 0x71 (\(name)) — check the wiring, "
      + "power and the address jumpers; 'i2cdetect -y 1' lists the addresses that answer\n")
    #expect(run.log.contains("nak /dev/i2c-1 addr=71"))
  }

  @Test(arguments: [
    (ENOENT, "no such I2C bus — is I2C enabled (dtparam=i2c_arm=on), and is this the right bus number?"),
    (EACCES, "permission denied — add your user to the 'i2c' group"),
  ])
  func busOpenErrorsSayWhatToDo(errno: Int32, message: String) throws {
    let run = try door.run(
      ["--board", "ht16k33-adafruit-8x8", "--frames", "1", "HI"],
      KernelDoorDeviceTests.bus.merging(["MARQUEE_FAKE_OPEN_ERRNO": "\(errno)"]) { $1 })
    #expect(run.result.status == 1)
    #expect(run.result.stderr.hasPrefix("Error: /dev/i2c-1: \(message)"), "\(run.result.stderr)")
  }

  @Test func anSMBusOnlyAdapterIsRefusedBeforeAnythingIsSent() throws {
    let run = try door.run(
      ["--board", "ht16k33-adafruit-8x8", "--frames", "1", "HI"],
      KernelDoorDeviceTests.bus.merging(["MARQUEE_FAKE_I2C_FUNCS": "\(0x0008_0000)"]) { $1 })
    #expect(run.result.status == 1)
    #expect(run.result.stderr.contains("plain I2C writes (this adapter only does SMBus)"), "\(run.result.stderr)")
    #expect(!run.log.contains { $0.hasPrefix("i2c ") })
  }

  /// An 8x32 WS2812B panel: one transfer a frame at 2.4 MHz, decoded as a waveform by the
  /// line emulator, lights what the sign shows; the last frame is dark.
  @Test func aWS2812PanelShowsTheSignThroughSpidev() throws {
    let arguments = ["--board", "ws2812-8x32", "--frames", "12", "--no-wait", "--speed", "400", "HELLO RGB"]
    let run = try door.run(arguments)
    #expect(run.result.status == 0, "\(run.result.stderr)")
    #expect(run.log.prefix(4) == ["open /dev/spidev0.0", "mode /dev/spidev0.0 0", "bits /dev/spidev0.0 8",
                                  "speed /dev/spidev0.0 2400000"])
    let messages = door.messages(run.log)
    try #require(messages.count >= 3)
    #expect(messages.allSatisfy { $0.count == 1 && $0[0].speed == 2_400_000 && $0[0].csChange == 0 && $0[0].bytes.count == 2490 })
    guard let board = try KernelDoorDeviceTests.board("ws2812-8x32").family as? PixelBoard else { return }
    let text = asciiFrames(try BinaryRunner.run(arguments.dropFirst(2) + ["--output", "ascii", "--width", "32"]).stdout)
    var emulator = WS2812Emulator(ledCount: board.ledCount)
    var shown: [[String]] = []
    for message in messages {
      emulator.receive(message[0].bytes, speedHz: 2_400_000)
      var pixels = Framebuffer(width: 32, height: 8)
      for (index, pixel) in board.ledPixels.enumerated() where emulator.led(index).contains(where: { $0 > 0 }) {
        pixels[pixel.x, pixel.y] = true
      }
      shown.append(pixels.text.split(separator: "\n").map(String.init))
    }
    #expect(emulator.latches == messages.count && emulator.violations == 0)
    let frames = Array(shown.dropFirst().dropLast())
    #expect(!frames.isEmpty && frames.allSatisfy { text.contains($0) })
    #expect(frames.last == text.last)
    #expect(emulator.shown.allSatisfy { $0 == 0 }, "dark on exit")
  }

  @Test func aControllerThatCannotGiveTheWS2812ClockIsAnError() throws {
    let run = try door.run(["--board", "ws2812-8x32", "--frames", "1", "--no-wait", "HI"], ["MARQUEE_FAKE_MAX_SPEED": "2000000"])
    #expect(run.result.status == 1)
    #expect(run.result.stderr.contains(
      "the SPI driver set the clock to 2000000 Hz, and the board's coding (3 SPI bits per LED bit, for 2400000 Hz) "
        + "works from 2106000 to 3076000 Hz only"), "\(run.result.stderr)")
    // A controller that gives a little less (a Raspberry Pi's divider) is fine.
    let near = try door.run(["--board", "ws2812-8x32", "--frames", "1", "--no-wait", "HI"], ["MARQUEE_FAKE_MAX_SPEED": "2358490"])
    #expect(near.result.status == 0, "\(near.result.stderr)")
    #expect(!run.log.contains { $0.hasPrefix("message ") }, "nothing was sent")
  }

  /// Two panels make a 4,794-byte frame: too big for spidev's default buffer, fine with a
  /// raised one.
  @Test func twoPanelsNeedSpidevsBufferRaised() throws {
    let arguments = ["--board", "ws2812-64x8-two-panels", "--frames", "2", "--no-wait", "HI"]
    let small = try door.run(arguments)
    #expect(small.result.status == 1)
    #expect(small.result.stderr.contains("spidev.bufsiz=65536"), "\(small.result.stderr)")
    let raised = try door.run(arguments, ["MARQUEE_FAKE_BUFSIZ": "65536"])
    #expect(raised.result.status == 0, "\(raised.result.stderr)")
    #expect(door.messages(raised.log).allSatisfy { $0.count == 1 && $0[0].bytes.count == 2 * 93 + 512 * 9 })
  }

  @Test func anAPA102PanelShowsTheSignThroughSpidev() throws {
    let arguments = ["--board", "apa102-16x16", "--frames", "3", "--no-wait", "AB"]
    let run = try door.run(arguments)
    #expect(run.result.status == 0, "\(run.result.stderr)")
    #expect(run.log.contains("speed /dev/spidev0.0 4000000"))
    guard let board = try KernelDoorDeviceTests.board("apa102-16x16").family as? PixelBoard else { return }
    let messages = door.messages(run.log)
    var emulator = APA102Emulator(ledCount: board.ledCount)
    emulator.receive(messages[messages.count - 2][0].bytes)
    #expect(emulator.undelivered == 0 && emulator.badFrames == 0)
    var pixels = Framebuffer(width: 16, height: 16)
    for (index, pixel) in board.ledPixels.enumerated() where emulator.leds[index].global > 0 { pixels[pixel.x, pixel.y] = true }
    let text = asciiFrames(try BinaryRunner.run(arguments.dropFirst(2) + ["--output", "ascii", "--width", "16", "--height", "16"]).stdout)
    #expect(pixels.text.split(separator: "\n").map(String.init) == text.last)
    emulator.receive(messages[messages.count - 1][0].bytes)
    #expect(emulator.leds.allSatisfy { $0.global == 0 && $0.bytes == (0, 0, 0) }, "dark on exit")
  }

  /// Runs a sign until the log shows it lit (12 writes or messages), stops it with
  /// SIGTERM, and returns how it ended and the log.
  func stopped(_ arguments: [String], _ environment: [String: String]) throws -> (status: Int32, log: [String]) {
    let run = try door.runUntilStopped(arguments, environment, until: 12) { $0.hasPrefix("i2c ") || $0.hasPrefix("message ") }
    return (run.status, run.log)
  }

  @Test func aStopSignalLeavesBackpacksInStandbyAndPanelsDarkUnlessKept() throws {
    let moving = ["--fps", "100", "--speed", "100", "STOPPED BY A SIGNAL"]
    let backpacks = try stopped(["--board", "ht16k33-adafruit-32x8"] + moving, KernelDoorDeviceTests.bus)
    #expect(backpacks.status == 128 + SIGTERM)
    #expect(writes(backpacks.log).suffix(8).map(\.bytes) == [[0x80], [0x20], [0x80], [0x20], [0x80], [0x20], [0x80], [0x20]])
    let kept = try stopped(["--board", "ht16k33-adafruit-32x8", "--keep"] + moving, KernelDoorDeviceTests.bus)
    #expect(kept.status == 128 + SIGTERM)
    #expect(!writes(kept.log).contains { $0.bytes == [0x20] }, "--keep leaves the backpacks lit")
    let panel = try stopped(["--board", "ws2812-8x32"] + moving, [:])
    #expect(panel.status == 128 + SIGTERM)
    var emulator = WS2812Emulator(ledCount: 256)
    for message in door.messages(panel.log) { emulator.receive(message[0].bytes, speedHz: 2_400_000) }
    #expect(emulator.latches > 2 && emulator.shown.allSatisfy { $0 == 0 }, "dark after the signal")
  }
}

import Drivers
import Foundation
import MatrixCore
import TestSupport
import Testing

/// The real binary's spidev transport, run end to end against a fake kernel
/// (`libMarqueeFakeKernel.so`, preloaded) that answers at the kernel's door as spidev does
/// and records every system call and transfer.
@Suite(.offThePool) struct KernelDoorTests {
  static let library = URL(fileURLWithPath: BinaryRunner.path).deletingLastPathComponent()
    .appendingPathComponent("libMarqueeFakeKernel.so").path

  struct Run {
    var result: ChildResult
    var log: [String]
  }

  /// Runs marquee with the fake kernel answering for /dev/spidev0.0.
  func run(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Run {
    try #require(FileManager.default.fileExists(atPath: KernelDoorTests.library), "swift build makes \(KernelDoorTests.library)")
    let log = NSTemporaryDirectory() + "marquee-kernel-\(getpid())-\(UUID().uuidString).log"
    defer { try? FileManager.default.removeItem(atPath: log) }
    let result = try BinaryRunner.run(arguments, environment: [
      "LD_PRELOAD": KernelDoorTests.library, "MARQUEE_FAKE_SPIDEV": "/dev/spidev0.0", "MARQUEE_FAKE_LOG": log,
    ].merging(environment) { $1 })
    let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    return Run(result: result, log: lines)
  }

  /// Runs marquee on the fake kernel until its log holds `count` lines that `counted`
  /// accepts (waiting at most 20 s, or until it ends by itself), stops it with SIGTERM, and
  /// returns how it ended and the log.
  func runUntilStopped(
    _ arguments: [String], _ environment: [String: String], until count: Int, lines counted: @escaping (String) -> Bool
  ) throws -> (status: Int32, stderr: String, log: [String]) {
    let log = NSTemporaryDirectory() + "marquee-kernel-\(getpid())-\(UUID().uuidString).log"
    defer { try? FileManager.default.removeItem(atPath: log) }
    let child = try BinaryRunner.start(arguments, environment: [
      "LD_PRELOAD": KernelDoorTests.library, "MARQUEE_FAKE_SPIDEV": "/dev/spidev0.0", "MARQUEE_FAKE_LOG": log,
    ].merging(environment) { $1 })
    func lines() -> [String] { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
    var waited = 0
    while waited < 2000 && lines().lazy.filter(counted).count < count && !child.ends(within: 0.01) {
      waited += 1
    }
    child.send(SIGTERM)
    let result = child.wait(timeout: 20)
    return (result.status, result.stderr, lines())
  }

  /// The transfers of the log, message by message: (speed, bits, cs_change, bytes).
  func messages(_ log: [String]) -> [[(speed: Int, bits: Int, csChange: Int, bytes: [UInt8])]] {
    var messages: [[(Int, Int, Int, [UInt8])]] = []
    for line in log {
      if line.hasPrefix("message ") { messages.append([]) }
      guard line.hasPrefix("xfer "), !messages.isEmpty else { continue }
      var fields: [String: String] = [:]
      for part in line.split(separator: " ").dropFirst(2) {
        let pair = part.split(separator: "=", maxSplits: 1)
        fields[String(pair[0])] = pair.count == 2 ? String(pair[1]) : ""
      }
      let hex = Array(fields["data"] ?? "")
      let bytes = stride(from: 0, to: hex.count - 1, by: 2).map { UInt8(String(hex[$0...$0 + 1]), radix: 16)! }
      messages[messages.count - 1].append((Int(fields["speed"]!)!, Int(fields["bits"]!)!, Int(fields["cs_change"]!)!, bytes))
    }
    return messages
  }

  @Test func theChainShowsWhatTheSignShowsAndIsLeftBlankAndAsleep() throws {
    let arguments = ["--board", "max7219-fc16-32x8", "--frames", "12", "--no-wait", "--speed", "400", "HELLO KERNEL"]
    let run = try run(arguments)
    #expect(run.result.status == 0, "\(run.result.stderr)")
    #expect(run.log.prefix(4) == ["open /dev/spidev0.0", "mode /dev/spidev0.0 0", "bits /dev/spidev0.0 8",
                                  "speed /dev/spidev0.0 8000000"])
    #expect(run.log.last == "close /dev/spidev0.0")
    let messages = messages(run.log)
    try #require(messages.count >= 3)
    for message in messages {
      // Chip select rises between transactions (cs_change) and after the last one.
      #expect(message.dropLast().allSatisfy { $0.csChange == 1 } && message.last?.csChange == 0)
      #expect(message.allSatisfy { $0.speed == 8_000_000 && $0.bits == 8 && $0.bytes.count == 8 })
    }
    // The bytes through the chip emulator: each frame's message lights what the same sign
    // prints as text.
    let board = try MAX7219Board(json: try String(contentsOfFile: "Boards/max7219-fc16-32x8.json", encoding: .utf8), path: "b")
    let text = asciiFrames(try BinaryRunner.run(arguments.dropFirst(2) + ["--output", "ascii", "--width", "32"]).stdout)
    var emulator = MAX7219ChainEmulator(chips: board.chipCount)
    var shown: [[String]] = []
    for message in messages {
      let bytes = message.flatMap(\.bytes)
      let ends = message.indices.map { index in message[...index].reduce(0) { $0 + $1.bytes.count } }
      emulator.receive(SPITransactions(bytes: bytes, ends: ends))
      shown.append(emulator.visiblePixels(on: board).text.split(separator: "\n").map(String.init))
    }
    // Message 0 is the start-up, the last the shutdown; the ones between are frames that
    // changed, so each is a distinct frame of the text output, in order.
    let frames = Array(shown.dropFirst().dropLast())
    #expect(!frames.isEmpty && frames.allSatisfy { text.contains($0) })
    #expect(frames.last == text.last)
    #expect(emulator.chips.allSatisfy { $0.isShutDown && $0.digits.allSatisfy { $0 == 0 } })
  }

  @Test func aSlowerControllerClockIsReadBackAndUsed() throws {
    let run = try run(["--board", "max7219-fc16-32x8", "--frames", "2", "--no-wait", "HI"], ["MARQUEE_FAKE_MAX_SPEED": "4000000"])
    #expect(run.result.status == 0)
    #expect(run.log.contains("speed /dev/spidev0.0 4000000"))
    #expect(messages(run.log).joined().allSatisfy { $0.speed == 4_000_000 })
  }

  /// A 1024-module chain: a row is 2,048 bytes, so a frame's message is split to fit
  /// spidev's buffer.
  func bigBoard() throws -> String {
    let path = NSTemporaryDirectory() + "marquee-big-\(getpid())-\(UUID().uuidString).json"
    try #"{"driver": "max7219", "module": "fc16", "grid": {"columns": 256, "rows": 4}}"#
      .write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  @Test func messagesAreSplitToSpidevsBufferAndATooSmallOneIsNamed() throws {
    let board = try bigBoard()
    defer { try? FileManager.default.removeItem(atPath: board) }
    let run = try run(["--board", board, "--frames", "1", "--no-wait", "A long line of text for a very long sign"])
    #expect(run.result.status == 0, "\(run.result.stderr)")
    let messages = messages(run.log)
    #expect(messages.allSatisfy { $0.reduce(0) { $0 + $1.bytes.count } <= 4096 })
    #expect(messages.count > 8, "a frame's eight rows took more than one message")
    // The transport reads spidev's bufsiz from sysfs and splits to it.
    let smaller = try self.run(["--board", board, "--frames", "1", "--no-wait", "X"], ["MARQUEE_FAKE_BUFSIZ": "3000"])
    #expect(smaller.result.status == 0, "\(smaller.result.stderr)")
    #expect(self.messages(smaller.log).allSatisfy { $0.reduce(0) { $0 + $1.bytes.count } <= 3000 })
    // A buffer smaller than one transaction (a row of 1024 chips) cannot work: say how to fix it.
    let small = try self.run(["--board", board, "--frames", "1", "--no-wait", "X"], ["MARQUEE_FAKE_BUFSIZ": "1024"])
    #expect(small.result.status == 1)
    #expect(small.result.stderr.contains(
      "/dev/spidev0.0: send a 2048-byte transaction (spidev's buffer is 1024 bytes; raise it with spidev.bufsiz=65536"),
      "\(small.result.stderr)")
  }

  @Test(arguments: [
    (ENOENT, "no such device — is SPI enabled (dtparam=spi=on)?"),
    (EACCES, "permission denied — add your user to the 'spi' group"),
    (ENXIO, "no SPI device behind this node"),
  ])
  func openErrorsSayWhatToDo(errno: Int32, message: String) throws {
    let run = try run(["--board", "max7219-fc16-32x8", "--frames", "1", "HI"], ["MARQUEE_FAKE_OPEN_ERRNO": "\(errno)"])
    #expect(run.result.status == 1)
    #expect(run.result.stderr.hasPrefix("Error: /dev/spidev0.0: \(message)"), "\(run.result.stderr)")
  }

  @Test func aDeviceThatFailsMidRunEndsTheRunWithItsReason() throws {
    let run = try run(["--board", "max7219-fc16-32x8", "--speed", "400", "--fps", "40", "--frames", "40", "--no-wait", "HELLO KERNEL"],
                      ["MARQUEE_FAKE_FAIL_AFTER": "3"])
    #expect(run.result.status == 1)
    #expect(run.result.stderr.contains("/dev/spidev0.0: write failed: Input/output error — was the device removed?"),
            "\(run.result.stderr)")
  }
}

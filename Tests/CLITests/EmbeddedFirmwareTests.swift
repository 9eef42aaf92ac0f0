import Foundation
import TestSupport
import Testing

/// The engine on a microcontroller draws what it draws on Linux: the firmware example,
/// built in Embedded Swift and run under QEMU (Tests/Embedded/run-qemu.sh), prints the
/// same frames, byte for byte, as `marquee --output ascii --no-wait`, on a Cortex-M4 and
/// on the RP2040's Cortex-M0+ with its 264 KB of RAM.
@Suite(.offThePool) struct EmbeddedFirmwareTests {
  static let script = "Tests/Embedded/run-qemu.sh"

  /// Whether Debian's arm-none-eabi toolchain and QEMU are installed, and the Swift
  /// toolchain has Embedded Swift for Arm.
  static let available: Bool = {
    let files = [
      "/usr/bin/arm-none-eabi-gcc", "/usr/bin/qemu-system-arm",
      "/usr/lib/arm-none-eabi/newlib/thumb/v6-m/nofp/libc_nano.a",
    ]
    guard files.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else { return false }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    return path.split(separator: ":").contains { directory in
      FileManager.default.fileExists(atPath: "\(directory)/swiftc")
        && FileManager.default.fileExists(atPath: "\(directory)/../lib/swift/embedded/armv6m-none-none-eabi")
    }
  }()

  static let needs: Comment = "needs Debian's gcc-arm-none-eabi, libnewlib-arm-none-eabi and qemu-system-arm (.ci/run installs them)"

  /// Messages, motions, effects, sizes and frame rates, each as `marquee`'s arguments.
  static let cases: [[String]] = [
    ["--width", "32", "--frames", "60", "--fps", "20", "Next train: 3 min"],
    ["--width", "32", "--frames", "30", "--fps", "12.5", "--speed", "35", "--gap", "3", "Café — Zürich", "Grüße"],
    ["--width", "64", "--height", "16", "--frames", "40", "--fps", "10", "--mode", "scroll", "Platform 2"],
    ["--width", "32", "--frames", "80", "--fps", "10", "--mode", "cycle", "--in", "fade", "Open", "Café — Zürich"],
    ["--width", "32", "--frames", "50", "--fps", "25", "--mode", "cycle", "--in", "random", "One", "Two", "Three"],
    ["--width", "24", "--frames", "45", "--fps", "15", "--mode", "cycle", "--in", "blinds+wipe-right", "--out", "slice", "--duration", "1", "--dwell", "0.5", "A1", "B2"],
    ["--width", "32", "--height", "8", "--frames", "40", "--fps", "20", "--mode", "cycle", "--in", "sprite", "Sale", "Half price"],
    ["--width", "40", "--height", "16", "--frames", "30", "--fps", "8", "--mode", "pages", "--dwell", "1", "Doors close in two minutes"],
    ["--width", "32", "--frames", "20", "--fps", "40", "--mode", "cycle", "--in", "zoom-in", "--letter-spacing", "0", "{icon:heart} 12:30"],
  ]

  @Test(.enabled(if: available, needs), arguments: ["m4", "m0"], cases)
  func theFirmwareDrawsTheFramesLinuxDraws(cpu: String, arguments: [String]) throws {
    let linux = try BinaryRunner.run(["--output", "ascii", "--no-wait"] + arguments)
    #expect(linux.status == 0, "\(linux.stderr)")
    let firmware = try ChildProcess.run(Self.script, ["--cpu", cpu] + arguments, timeout: 900)
    #expect(firmware.status == 0, "\(firmware.stderr)")
    #expect(!firmware.stdout.isEmpty)
    #expect(firmware.stdout == linux.stdout, "frames differ for \(arguments) on \(cpu)")
  }

  /// The MAX7219 bytes: the firmware encodes each frame for a chain of FC-16 modules and
  /// sends it through the board's PL022 SPI block; the bytes that came back through the
  /// port (in loopback) are the bytes `marquee --spi-dump` writes for the same board file.
  static let chains: [(board: String, modules: String, arguments: [String])] = [
    ("Boards/max7219-fc16-32x8.json", "4", ["--frames", "60", "--fps", "20", "Next train: 3 min"]),
    ("Boards/max7219-fc16-64x8.json", "8", ["--frames", "60", "--fps", "10", "--mode", "cycle", "--in", "fade", "Café", "Zürich"]),
    ("Boards/max7219-fc16-32x8.json", "4", ["--frames", "30", "--fps", "15", "--mode", "cycle", "--in", "blinds", "Open", "Closed"]),
  ]

  @Test(.enabled(if: available, needs), arguments: ["m4", "m0"], 0..<chains.count)
  func theMAX7219BytesLeaveTheSPIBlockAsOnLinux(cpu: String, index: Int) throws {
    let chain = Self.chains[index]
    let dump = NSTemporaryDirectory() + "marquee-firmware-\(getpid())-\(cpu)-\(index).spi"
    defer { try? FileManager.default.removeItem(atPath: dump) }
    let linux = try BinaryRunner.run(["--board", chain.board, "--spi-dump", dump, "--no-wait"] + chain.arguments)
    #expect(linux.status == 0, "\(linux.stderr)")
    let expected = try #require(FileManager.default.contents(atPath: dump))
    let firmware = try ChildProcess.run(Self.script, ["--cpu", cpu, "--max7219", chain.modules] + chain.arguments, timeout: 900)
    #expect(firmware.status == 0, "\(firmware.stderr)")
    #expect(expected.count > 100)
    #expect(firmware.stdoutData == expected, "\(firmware.stdoutData.count) bytes from the firmware, \(expected.count) from Linux")
  }

  /// The writing-system path (NFC, bidi) on the Cortex-M4, against Linux with the same
  /// built-in font (Linux would fall back to a system font the firmware does not have).
  @Test(.enabled(if: available, needs))
  func theWritingSystemsDrawAsOnLinux() throws {
    let arguments = ["--width", "48", "--frames", "30", "--fps", "10", "Cafe\u{301} abc \u{5E9}\u{5DC}\u{5D5}\u{5DD} 123"]
    let linux = try BinaryRunner.run(["--output", "ascii", "--no-wait", "--font", "5x7"] + arguments)
    let firmware = try ChildProcess.run(Self.script, ["--cpu", "m4"] + arguments, timeout: 900)
    #expect(firmware.status == 0, "\(firmware.stderr)")
    #expect(firmware.stdout == linux.stdout)
  }

  /// The figures a run prints: `name: number` lines of standard error.
  func figures(_ run: ChildResult) -> [String: Int] {
    var figures: [String: Int] = [:]
    for line in run.stderr.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2, let number = Int(parts[1].split(separator: " ").first ?? "") else { continue }
      figures[String(parts[0])] = number
    }
    return figures
  }

  /// A scrolling frame allocates nothing on the microcontroller either, costs at most 2,000
  /// instructions on the Cortex-M0+, and the writing-system path (NFC, bidi, Arabic
  /// joining) leaves more than half of the RP2040's 264 KB free: the tables are read in
  /// place from flash, and they are never written.
  @Test(.enabled(if: available, needs), arguments: ["m4", "m0"])
  func aFrameAllocatesNothingAndTheTablesStayInFlash(cpu: String) throws {
    let message = "Cafe\u{301} \u{645}\u{631}\u{62D}\u{628}\u{627} \u{5E9}\u{5DC}\u{5D5}\u{5DD} 123"
    let run = try ChildProcess.run(
      Self.script, ["--cpu", cpu, "--stats", "--width", "32", "--frames", "100", "--fps", "40", message], timeout: 900)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("allocations per frame: 0 (0 in 99 frames after the first)"), "\(run.stderr)")
    #expect(run.stderr.contains(", unchanged"), "\(run.stderr)")
    let figures = figures(run)
    let instructions = try #require(figures["instructions per frame"], "\(run.stderr)")
    #expect(instructions > 100 && instructions <= 2_000, "\(run.stderr)")
    let used = (figures["heap peak"] ?? .max) + (figures["stack peak"] ?? .max) + (figures["static data"] ?? .max)
    #expect(used <= 264 * 1024 / 2, "\(run.stderr)")
  }

  /// A bad option is refused with a message that names it, and the firmware exits 1.
  @Test(.enabled(if: available, needs))
  func aBadOptionIsRefused() throws {
    let effect = try ChildProcess.run(Self.script, ["--cpu", "m4", "--mode", "cycle", "--in", "fdae", "Hi"], timeout: 900)
    #expect(effect.status == 1)
    #expect(effect.stderr.contains("unknown effect 'fdae' (did you mean 'fade'?)"), "\(effect.stderr)")
    let width = try ChildProcess.run(Self.script, ["--cpu", "m4", "--width", "wide", "Hi"], timeout: 900)
    #expect(width.status == 1)
    #expect(width.stderr.contains("--width: expected a whole number from 1 to 1024, got 'wide'"), "\(width.stderr)")
    let chain = try ChildProcess.run(Self.script, ["--cpu", "m4", "--max7219", "4", "--width", "64", "Hi"], timeout: 900)
    #expect(chain.status == 1)
    #expect(chain.stderr.contains("--width/--height do not match a chain of 4 modules (32x8)"), "\(chain.stderr)")
  }
}

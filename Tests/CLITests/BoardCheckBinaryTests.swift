import Foundation
import Testing

/// `marquee boards --check FILE`, the board files' schema version, and the old `bus` key of
/// HT16K33 boards, as a person checking a new sign sees them.
@Suite(.offThePool) struct BoardCheckBinaryTests {
  func withBoard(_ json: String, _ body: (String) throws -> Void) throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-board-\(getpid())-\(UUID().uuidString).json").path
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    defer { unlink(path) }
    try body(path)
  }

  @Test func checkShowsTheFamilySizeDevicesAndUnitsInDataOrder() throws {
    let result = try BinaryRunner.run(["boards", "--check", "Boards/ws2812-64x8-two-panels.json"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "Boards/ws2812-64x8-two-panels.json: a valid board file (schema 1)")
    #expect(lines.contains("kind:    ws2812"))
    #expect(lines.contains("size:    64x8 pixels"))
    #expect(lines.contains("devices: /dev/spidev0.0"))
    #expect(lines.contains("2 panels, in data order:"))
    #expect(lines.contains { $0.hasPrefix("  2: 32x8 at x 32, y 0") }, "\(lines)")
    // A board's name works as --board's does.
    let byName = try BinaryRunner.run(["boards", "--check", "hub12-p10-64x32"])
    #expect(byName.status == 0)
    #expect(byName.stdout.contains("devices: /dev/spidev0.0, /dev/gpiochip0"))
  }

  /// A HUB75 board with pixel mappers: the mapper, and each panel where it lands on the
  /// mapped sign (turned ones with their first LED at the far corner), not its place on the
  /// chain.
  @Test func checkShowsWhereAMappedBoardsPanelsLand() throws {
    let json = #"{"driver": "hub75", "panel": {"rows": 32, "columns": 32}, "grid": {"columns": 4}, "pixelMapper": "U-mapper"}"#
    try withBoard(json) { path in
      let check = try BinaryRunner.run(["boards", "--check", path])
      #expect(check.status == 0, "\(check.stderr)")
      let lines = check.stdout.split(separator: "\n").map(String.init)
      #expect(lines.contains("size:    64x64 pixels"))
      #expect(lines.contains("mapper:  U-mapper: the chain's 128x32 canvas shown as 64x64, each panel below where it lands"), "\(lines)")
      #expect(lines.contains("  1: 32x32 at x 32, y 0, first LED at x 32, y 0"), "\(lines)")
      #expect(lines.contains("  4: 32x32 at x 32, y 32, first LED at x 63, y 63"), "\(lines)")
    }
  }

  @Test func theOldBusKeyIsReadWithANoticeNamingTheNewOne() throws {
    let old = #"{"driver": "ht16k33", "bus": "/dev/i2c-3", "module": "8x8", "backpacks": [{"address": "0x70"}]}"#
    try withBoard(old) { path in
      let check = try BinaryRunner.run(["boards", "--check", path])
      #expect(check.status == 0, "\(check.stderr)")
      #expect(check.stdout.contains("devices: /dev/i2c-3"))
      #expect(check.stdout.contains(#"Notice: \#(path): 'bus' is the old name of the I2C device: write "i2c": {"device": "/dev/i2c-3"}"#))
      // Driving it says so too, on standard error, and still works.
      let run = try BinaryRunner.run(["--board", path, "--i2c-dump", "/dev/null", "--frames", "1", "x"])
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stderr.contains("Notice: \(path): 'bus' is the old name"))
    }
    let both = #"{"driver": "ht16k33", "bus": "/dev/i2c-3", "i2c": {"device": "/dev/i2c-1"}, "module": "8x8", "backpacks": [{"address": "0x70"}]}"#
    try withBoard(both) { path in
      let check = try BinaryRunner.run(["boards", "--check", path])
      #expect(check.status == 64)
      #expect(check.stderr.contains("\(path): field 'bus': the old name of 'i2c.device': give the device once"), "\(check.stderr)")
    }
  }

  @Test func aNewerSchemaIsRefusedAndNothingIsSent() throws {
    try withBoard(#"{"schema": 2, "driver": "max7219", "grid": {"columns": 4, "rows": 1}}"#) { path in
      let check = try BinaryRunner.run(["boards", "--check", path])
      #expect(check.status == 64)
      #expect(check.stderr.contains("\(path): field 'schema': version 2 is newer than this marquee reads (1)"), "\(check.stderr)")
      let run = try BinaryRunner.run(["--board", path, "--spi-dump", "/dev/null", "--frames", "1", "x"])
      #expect(run.status == 64)
    }
    let usage = try BinaryRunner.run(["boards", "--bogus"])
    #expect(usage.status == 64)
    #expect(usage.stderr.contains("'boards' takes nothing, or --check and a board file"))
  }

  @Test func everyShippedBoardChecksWithoutNotices() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: "Boards").filter { $0.hasSuffix(".json") }.sorted()
    #expect(names.count >= 20)
    for name in names {
      let result = try BinaryRunner.run(["boards", "--check", "Boards/" + name])
      #expect(result.status == 0, "\(name): \(result.stderr)")
      #expect(!result.stdout.contains("Notice"), "\(name)")
      let text = try String(contentsOfFile: "Boards/" + name, encoding: .utf8)
      #expect(text.contains(#""schema": 1"#), "\(name) states its schema")
    }
  }
}

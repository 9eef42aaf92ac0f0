import Foundation
import Platform
import BitmapFonts
import Drivers
import Marquee
import MatrixCore

/// What encoding a frame costs for each LED family, as a share of the time the frame takes
/// on the wire: an 8x32 WS2812 panel at 2.4 MHz, four HT16K33 backpacks (32x8) on a
/// 100 kHz I2C bus (the Raspberry Pi's default), a 16x16 APA102 panel at 4 MHz.
///
/// The frames of a one-pixel-a-frame scroll are rendered first, so only the encoder is
/// timed; every frame differs from the one before.
struct DeviceEncoding {
  let frames: Int
  let message: String

  /// Renders `count` frames of a scroll across a `width` x `height` sign.
  func scrollFrames(width: Int, height: Int) throws -> [Frame] {
    let timeline = try RibbonTimeline(
      messages: [message], renderer: TextRenderer(), width: width, height: height,
      settings: MarqueeSettings(alwaysScrolls: true, speed: 100, gap: 0))
    var workspace = FrameWorkspace()
    return (0..<64).map { index in
      var frame = Frame(width: width, height: height)
      timeline.render(at: Double(index) / 100, into: &frame, workspace: &workspace)
      return frame
    }
  }

  func run() throws {
    for file in ["ws2812-8x32", "apa102-16x16"] {
      guard let board = try Self.board(file).family as? PixelBoard else { continue }
      let scroll = try scrollFrames(width: board.width, height: board.height)
      var encoder = PixelEncoder(board: board, color: LEDColor.red.rgb)
      var output = SPITransactions()
      var bytes = 0
      let result = Measure.loop(frames: frames) { index in
        encoder.encode(scroll[index % scroll.count], into: &output)
        bytes += output.byteCount
        output.removeAll()
      }
      let perFrame = Double(bytes) / Double(frames + 200)
      report(file, board.width, board.height, result, wireMicroseconds: perFrame * 8 / Double(board.speedHz) * 1e6,
             extra: [("spi_hz", String(board.speedHz)), ("spi_bytes_per_frame", String(Int(perFrame)))])
    }
    guard let board = try Self.board("ht16k33-adafruit-32x8").family as? HT16K33Board else { return }
    let scroll = try scrollFrames(width: board.width, height: board.height)
    var encoder = HT16K33Encoder(board: board)
    var output = I2CWrites()
    encoder.startUp(into: &output)
    output.removeAll()
    var bits = 0
    let result = Measure.loop(frames: frames) { index in
      encoder.encode(scroll[index % scroll.count], into: &output)
      // Each write: START, the address byte and the data bytes with their ACK bits, STOP.
      bits += (output.byteCount + output.count) * 9 + 2 * output.count
      output.removeAll()
    }
    let busHz = 100_000.0
    report("ht16k33-adafruit-32x8", board.width, board.height, result,
           wireMicroseconds: Double(bits) / Double(frames + 200) / busHz * 1e6, extra: [("i2c_hz", "100000")])
  }

  func report(
    _ name: String, _ width: Int, _ height: Int, _ result: (wallNs: Double, cpuNs: Double, allocs: Double),
    wireMicroseconds: Double, extra: [(String, String)]
  ) {
    var line = ResultLine(scenario: "encode-" + name, width: width, height: height)
    line.add("frames", frames)
    line.add("cpu_us_per_frame", result.cpuNs / 1000)
    line.add("allocs_per_frame", result.allocs, decimals: 4)
    for (key, value) in extra { line.add(key, value) }
    line.add("wire_us_per_frame", wireMicroseconds, decimals: 1)
    line.add("cpu_percent_of_wire", result.cpuNs / 1000 / wireMicroseconds * 100, decimals: 3)
    line.print()
  }

  /// The path of a board file of the package's Boards folder.
  static func boardPath(_ name: String) -> String {
    let folder = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
    return folder + "/Boards/\(name).json"
  }

  /// The text of a board file of the package's Boards folder.
  static func boardText(_ name: String) -> String? {
    (try? FileBytes.read(boardPath(name), limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// A board file of the package's Boards folder.
  static func board(_ name: String) throws -> SignBoard {
    let text = try String(decoding: FileBytes.read(boardPath(name), limit: 1 << 20), as: UTF8.self)
    return try SignBoard(json: text, path: boardPath(name))
  }
}

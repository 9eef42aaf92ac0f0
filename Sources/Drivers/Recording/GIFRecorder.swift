import Platform
import MatrixCore

/// A display that records frames into an animated GIF that looks like the sign: round-ish
/// lit and dark dots on black, brightness as dimmer dots, exact timing, looping.
public struct GIFRecorder: Display {
  public let width: Int
  public let height: Int
  public var wantsEveryFrame: Bool { true }
  /// Image pixels per LED (the dot and its gap).
  public let scale: Int
  /// The LED color at full brightness.
  public let color: (UInt8, UInt8, UInt8)
  /// A caption drawn under the sign, if any (its pixels, drawn in white).
  public let caption: Framebuffer?
  let frameRate: Double
  var writer: GIFWriter
  var indices: [UInt8]
  var elapsedHundredths = 0
  var frames = 0

  /// Palette: 0 background, 1 caption, 2 dark LED, 3...18 lit LED at 16 brightness levels.
  static let levels = 16

  /// Starts a recording of a `width` x `height` sign at `fps` frames per second.
  ///
  /// - Throws: ``GIFError`` when the image (`width` x `scale` by `height` x `scale`, plus
  ///   the caption) is larger than a GIF can be.
  public init(
    width: Int, height: Int, fps: Double, scale: Int = 4, color: (UInt8, UInt8, UInt8) = LEDColor.red.rgb.tuple,
    caption: Framebuffer? = nil
  ) throws(GIFError) {
    self.width = width
    self.height = height
    self.scale = max(1, scale)
    self.color = color
    self.caption = caption
    frameRate = fps
    let captionHeight = caption.map { $0.height * 2 + 4 } ?? 0
    var palette: [(UInt8, UInt8, UInt8)] = [(0, 0, 0), (230, 230, 230), (48, 12, 10)]
    for level in 1...GIFRecorder.levels {
      let f = Double(level) / Double(GIFRecorder.levels)
      palette.append((UInt8(Double(color.0) * f), UInt8(Double(color.1) * f), UInt8(Double(color.2) * f)))
    }
    let imageWidth = max(width * self.scale, (caption?.width ?? 0) * 2 + 4)
    writer = try GIFWriter(width: imageWidth, height: height * self.scale + captionHeight, palette: palette)
    indices = [UInt8](repeating: 0, count: writer.width * writer.height)
    if let caption {
      // The caption, doubled in size, centred under the sign.
      let left = (imageWidth - caption.width * 2) / 2, top = height * self.scale + 2
      for y in 0..<caption.height * 2 {
        for x in 0..<caption.width * 2 where caption[x / 2, y / 2] {
          indices[(top + y) * imageWidth + left + x] = 1
        }
      }
    }
  }

  public mutating func show(_ frame: Frame, changed: Bool) throws {
    let level = frame.brightness <= 0 ? 0 : max(1, Int(saturating: (frame.brightness * Double(GIFRecorder.levels)).rounded()))
    let lit = UInt8(2 + level)
    let dot = max(1, scale - (scale >= 3 ? 1 : 0))  // leave a dark gap between dots
    let imageWidth = writer.width
    for y in 0..<height {
      for x in 0..<width {
        let value = frame.pixels[x, y] && level > 0 ? lit : 2
        for dy in 0..<dot {
          let row = (y * scale + dy) * imageWidth + x * scale
          for dx in 0..<dot {
            // Round the dots' corners on big scales.
            let corner = dot >= 4 && (dx == 0 || dx == dot - 1) && (dy == 0 || dy == dot - 1)
            indices[row + dx] = corner ? 0 : value
          }
        }
      }
    }
    // Delays are whole hundredths: keep the total exact by rounding the running time.
    frames += 1
    let until = Int((Double(frames) * 100 / frameRate).rounded())
    writer.addFrame(indices, delay: until - elapsedHundredths)
    elapsedHundredths = until
  }

  public mutating func shutdown() throws {}

  /// The GIF file's bytes.
  public var data: [UInt8] { writer.finished() }
  /// The number of frames recorded.
  public var frameCount: Int { writer.frameCount }
}

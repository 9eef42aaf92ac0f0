/// What a display shows at one instant: the pixels and how bright they are.
///
/// Brightness is carried beside the pixels because a 1-bit panel can only dim as a whole:
/// a MAX7219 maps it to its 16 intensity steps and the terminal simulator to dimmer dots.
public struct Frame: Sendable, Hashable {
  /// The lit and dark pixels.
  public var pixels: Framebuffer
  /// Brightness of the lit pixels, from 0 (off) to 1 (full).
  public var brightness: Double

  /// Creates a dark frame of the given size at full brightness.
  public init(width: Int, height: Int) {
    self.pixels = Framebuffer(width: width, height: height)
    self.brightness = 1
  }

  /// Creates a frame from pixels and a brightness, clamped to 0...1.
  public init(pixels: Framebuffer, brightness: Double = 1) {
    self.pixels = pixels
    self.brightness = brightness.isNaN ? 1 : min(1, max(0, brightness))
  }

  /// The frame's width in pixels.
  public var width: Int { pixels.width }
  /// The frame's height in pixels.
  public var height: Int { pixels.height }
}

import MatrixCore

/// Bytes for a bus, built a frame at a time into storage that is kept between frames.
public protocol ByteBatch {
  /// Creates an empty batch.
  init()
  /// Empties the batch, keeping its storage.
  mutating func removeAll()
}

/// A chip family's encoder as a display drives it: a pure function of the frame and of
/// what was sent before.
public protocol FrameEncoder {
  /// What it writes: SPI transactions or I2C writes.
  associatedtype Batch: ByteBatch
  /// The sign's width in pixels.
  var width: Int { get }
  /// The sign's height in pixels.
  var height: Int { get }
  /// The start-up sequence; afterwards the chips show nothing and the next frame is sent
  /// whole.
  mutating func startUp(into output: inout Batch)
  /// The bytes that make the chips show `frame`.
  mutating func encode(_ frame: Frame, into output: inout Batch)
  /// The resting state on exit: dark, and asleep where the chip can sleep.
  mutating func shutDown(into output: inout Batch)
}

import MatrixCore

/// A display that prints every frame as text: `height` lines of `width` characters, `#` for
/// a lit pixel and `.` for a dark one, then an empty line.
///
/// This is the exact format of `marquee --output ascii`, made for pipes, tests and tools.
/// Brightness is not shown (a dimmed frame prints like a full one).
public struct AsciiDisplay: Display {
  public let width: Int
  public let height: Int
  public var wantsEveryFrame: Bool { true }
  let descriptor: Int32
  var buffer: [UInt8] = []

  /// Creates a display writing to `descriptor` (standard output by default).
  public init(width: Int, height: Int, descriptor: Int32 = 1) {
    self.width = width
    self.height = height
    self.descriptor = descriptor
    buffer.reserveCapacity((width + 1) * height + 1)
  }

  public mutating func show(_ frame: Frame, changed: Bool) throws {
    buffer.removeAll(keepingCapacity: true)
    frame.pixels.appendText(to: &buffer)
    buffer.append(UInt8(ascii: "\n"))
    try writeAll(buffer, to: descriptor, what: "standard output")
  }

  public mutating func shutdown() throws {}
}

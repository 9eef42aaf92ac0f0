/// A GIF that cannot be made: the reason names the limit.
public struct GIFError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public var reason: String

  public var description: String { reason }
}

/// Writes an animated GIF (GIF89a) in memory: a global palette, frames with their delays,
/// looping forever.
public struct GIFWriter {
  /// The image's width and height in pixels.
  public let width: Int, height: Int
  /// RGB triples; padded to a power of two of at least 4 entries.
  let palette: [(UInt8, UInt8, UInt8)]
  /// The bytes written so far.
  public private(set) var data: [UInt8] = []
  /// The number of frames added.
  public private(set) var frameCount = 0
  /// The largest width or height the format can hold.
  public static let maximumSide = 65_535

  /// Starts a GIF of `width` x `height` pixels with a palette of up to 256 colors.
  ///
  /// - Throws: ``GIFError`` for a side outside 1...``maximumSide`` (the format stores each
  ///   in 16 bits) or a palette of no colors or more than 256.
  public init(width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)]) throws(GIFError) {
    guard (1...GIFWriter.maximumSide).contains(width), (1...GIFWriter.maximumSide).contains(height) else {
      throw GIFError(reason: "a GIF is at most \(GIFWriter.maximumSide) pixels a side; this one would be \(width)x\(height)")
    }
    guard !palette.isEmpty && palette.count <= 256 else {
      throw GIFError(reason: "a GIF palette has 1 to 256 colors, not \(palette.count)")
    }
    self.width = width
    self.height = height
    var size = 4
    while size < palette.count { size *= 2 }
    self.palette = palette + Array(repeating: (0, 0, 0), count: size - palette.count)
    data += Array("GIF89a".utf8)
    appendUInt16(width)
    appendUInt16(height)
    let bits = self.palette.count.trailingZeroBitCount
    data.append(0x80 | UInt8((bits - 1) << 4) | UInt8(bits - 1))  // global table, its size
    data.append(0)  // background color index
    data.append(0)  // no aspect ratio
    for (r, g, b) in self.palette { data += [r, g, b] }
    // NETSCAPE2.0: loop forever.
    data += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
  }

  mutating func appendUInt16(_ value: Int) {
    data.append(UInt8(value & 0xFF))
    data.append(UInt8((value >> 8) & 0xFF))
  }

  /// Adds a frame of palette indices (row-major, `width * height` of them) shown for
  /// `delay` hundredths of a second.
  public mutating func addFrame(_ indices: [UInt8], delay: Int) {
    precondition(indices.count == width * height, "frame size")
    // Graphic control extension: no disposal, no transparency, the delay.
    data += [0x21, 0xF9, 0x04, 0x04]
    appendUInt16(max(0, min(65535, delay)))
    data += [0x00, 0x00]
    // Image descriptor: the whole canvas, no local palette.
    data.append(0x2C)
    appendUInt16(0)
    appendUInt16(0)
    appendUInt16(width)
    appendUInt16(height)
    data.append(0)
    let minimumCodeSize = max(2, palette.count.trailingZeroBitCount)
    data.append(UInt8(minimumCodeSize))
    let compressed = LZW.compress(indices, minimumCodeSize: minimumCodeSize)
    var start = 0
    while start < compressed.count {
      let count = min(255, compressed.count - start)
      data.append(UInt8(count))
      data += compressed[start..<(start + count)]
      start += count
    }
    data.append(0)  // block terminator
    frameCount += 1
  }

  /// The finished file.
  public func finished() -> [UInt8] {
    data + [0x3B]
  }
}

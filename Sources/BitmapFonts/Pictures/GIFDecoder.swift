import MatrixCore

/// GIF pictures, animated ones included: each frame is composed over the ones before as the
/// format says (disposal methods 0 to 3, transparent colours, interlaced rows), with its
/// delay. A GIF that marks any colour transparent lights its opaque pixels; one without
/// lights its bright ones (``Picture``).
enum GIFDecoder {
  /// One frame as the file gives it, not decoded yet.
  struct Block {
    var left: Int, top: Int, width: Int, height: Int, interlaced: Bool
    var colors: [(Int, Int, Int)]
    var minimumCodeSize: Int
    var data: [UInt8]
    /// From the graphic control extension before it.
    var disposal: Int, delay: Int, transparent: Int
  }

  static func decode(_ bytes: [UInt8]) throws(PictureFormatError) -> Picture {
    let (width, height, blocks) = try Self.read(bytes)
    guard !blocks.isEmpty else { throw PictureFormatError("no frame") }
    // Any transparent colour decides the rule for every frame.
    let transparency = blocks.contains { $0.transparent >= 0 }
    var frames: [Framebuffer] = [], delays: [Double] = []
    var canvas = Framebuffer(width: width, height: height)
    for block in blocks {
      let indices = try LZWDecoder.decode(block.data, minimumCodeSize: block.minimumCodeSize, count: block.width * block.height)
      let saved = canvas
      let rows = block.interlaced ? interlacedRows(block.height) : Array(0..<block.height)
      for (line, y) in rows.enumerated() {
        for x in 0..<block.width {
          let index = line * block.width + x
          guard index < indices.count else { break }
          let colour = Int(indices[index])
          if colour == block.transparent { continue }
          if transparency {
            canvas[block.left + x, block.top + y] = true
          } else {
            let (red, green, blue) = colour < block.colors.count ? block.colors[colour] : (0, 0, 0)
            canvas[block.left + x, block.top + y] = LightRule.bright(red, green, blue, maximum: 255)
          }
        }
      }
      frames.append(canvas)
      // A delay under 2 hundredths is shown as 0.1 s, as browsers do.
      delays.append(block.delay < 2 ? 0.1 : Double(block.delay) / 100)
      switch block.disposal {
      case 2:
        // Back to the background: the frame's area dark (and transparent).
        canvas.fill(x: block.left, y: block.top, width: block.width, height: block.height, lit: false)
      case 3: canvas = saved
      default: break
      }
    }
    return frames.count == 1 ? Picture(frames[0]) : Picture(frames: frames, delays: delays)
  }

  /// The screen's size and the frames' blocks, walking the file's blocks (extensions'
  /// sub-blocks skipped by their lengths, so image data is never read as a block).
  static func read(_ bytes: [UInt8]) throws(PictureFormatError) -> (width: Int, height: Int, blocks: [Block]) {
    let reader = ByteReader(bytes: bytes)
    guard let width = reader.u16(6, bigEndian: false), let height = reader.u16(8, bigEndian: false), let packed = reader.u8(10) else {
      throw PictureFormatError("truncated before its screen descriptor")
    }
    if let refusal = PictureLimits.refusal(width: width, height: height) { throw PictureFormatError(refusal) }
    var position = 13
    var global: [(Int, Int, Int)] = []
    if packed & 0x80 != 0 {
      global = try table(reader, &position, size: packed & 7)
    }
    var blocks: [Block] = []
    var control = (disposal: 0, delay: 0, transparent: -1)
    while true {
      guard let introducer = reader.u8(position) else {
        // Many GIFs end without their trailer; what was read stands.
        if blocks.isEmpty { throw PictureFormatError("truncated: no frame") }
        break
      }
      position += 1
      if introducer == 0x3B { break }
      if introducer == 0x21 {
        guard let label = reader.u8(position) else { throw PictureFormatError("truncated inside an extension") }
        position += 1
        if label == 0xF9, reader.u8(position) == 4, let flags = reader.u8(position + 1), let delay = reader.u16(position + 2, bigEndian: false),
          let index = reader.u8(position + 4)
        {
          control = ((flags >> 2) & 7, delay, flags & 1 != 0 ? index : -1)
        }
        try skipBlocks(reader, &position)
        continue
      }
      let number = blocks.count + 1
      guard introducer == 0x2C else { throw PictureFormatError("damaged: byte \(position - 1) is 0x\(String(introducer, radix: 16)), not a block") }
      guard blocks.count < PictureLimits.maximumFrames else { throw PictureFormatError("it has more than \(PictureLimits.maximumFrames) frames") }
      // Each frame is a whole canvas once decoded: refused before any is.
      if let refusal = PictureLimits.refusal(width: width, height: height, frames: number) { throw PictureFormatError(refusal) }
      guard let left = reader.u16(position, bigEndian: false), let top = reader.u16(position + 2, bigEndian: false),
        let frameWidth = reader.u16(position + 4, bigEndian: false), let frameHeight = reader.u16(position + 6, bigEndian: false),
        let flags = reader.u8(position + 8)
      else { throw PictureFormatError("truncated inside frame \(number)'s descriptor") }
      position += 9
      if let refusal = PictureLimits.refusal(width: frameWidth, height: frameHeight) {
        throw PictureFormatError("frame \(number): \(refusal)")
      }
      var colors = global
      if flags & 0x80 != 0 { colors = try table(reader, &position, size: flags & 7) }
      guard !colors.isEmpty else { throw PictureFormatError("frame \(number) has no colour table") }
      guard let minimum = reader.u8(position), (1...8).contains(minimum) else {
        throw PictureFormatError("frame \(number) has a bad LZW code size")
      }
      position += 1
      var data: [UInt8] = []
      while true {
        guard let count = reader.u8(position) else { throw PictureFormatError("truncated inside frame \(number)'s data") }
        position += 1
        if count == 0 { break }
        guard reader.has(position, count) else { throw PictureFormatError("truncated inside frame \(number)'s data") }
        data += bytes[position..<(position + count)]
        position += count
      }
      blocks.append(Block(
        left: left, top: top, width: frameWidth, height: frameHeight, interlaced: flags & 0x40 != 0, colors: colors,
        minimumCodeSize: minimum, data: data, disposal: control.disposal, delay: control.delay, transparent: control.transparent))
      control = (0, 0, -1)
    }
    return (width, height, blocks)
  }

  static func table(_ reader: ByteReader, _ position: inout Int, size: Int) throws(PictureFormatError) -> [(Int, Int, Int)] {
    let count = 2 << size
    guard reader.has(position, count * 3) else { throw PictureFormatError("truncated inside a colour table") }
    let colors = (0..<count).map { i in (reader.bytes[position + 3 * i].int, reader.bytes[position + 3 * i + 1].int, reader.bytes[position + 3 * i + 2].int) }
    position += count * 3
    return colors
  }

  static func skipBlocks(_ reader: ByteReader, _ position: inout Int) throws(PictureFormatError) {
    while true {
      guard let count = reader.u8(position) else { throw PictureFormatError("truncated inside an extension") }
      position += 1 + count
      if count == 0 { return }
    }
  }

  /// The rows of an interlaced frame in the order they are stored.
  static func interlacedRows(_ height: Int) -> [Int] {
    Array(stride(from: 0, to: height, by: 8)) + Array(stride(from: 4, to: height, by: 8))
      + Array(stride(from: 2, to: height, by: 4)) + Array(stride(from: 1, to: height, by: 2))
  }
}

/// GIF's variable-length LZW, decoding colour indices.
enum LZWDecoder {
  static func decode(_ data: [UInt8], minimumCodeSize: Int, count: Int) throws(PictureFormatError) -> [UInt8] {
    let clear = 1 << minimumCodeSize, end = clear + 1
    var prefix = [Int](repeating: -1, count: 4096)
    var suffix = [UInt8](repeating: 0, count: 4096)
    var first = [UInt8](repeating: 0, count: 4096)
    for code in 0..<clear {
      suffix[code] = UInt8(truncatingIfNeeded: code)
      first[code] = UInt8(truncatingIfNeeded: code)
    }
    var next = end + 1, size = minimumCodeSize + 1
    var previous = -1
    var output: [UInt8] = []
    output.reserveCapacity(min(count, 1 << 16))
    var bitBuffer = 0, bitCount = 0, index = 0
    var stack: [UInt8] = []
    while output.count < count {
      while bitCount < size {
        guard index < data.count else { return output }
        bitBuffer |= Int(data[index]) << bitCount
        index += 1
        bitCount += 8
      }
      let code = bitBuffer & ((1 << size) - 1)
      bitBuffer >>= size
      bitCount -= size
      if code == clear {
        next = end + 1
        size = minimumCodeSize + 1
        previous = -1
        continue
      }
      if code == end { break }
      var current = code
      stack.removeAll(keepingCapacity: true)
      if previous < 0 {
        guard code < clear else { throw PictureFormatError("damaged image data (an LZW code before any colour)") }
        output.append(UInt8(code))
        previous = code
        continue
      }
      if code > next || (code == next && next >= 4096) { throw PictureFormatError("damaged image data (LZW code \(code) not yet defined)") }
      if code == next {
        stack.append(first[previous])
        current = previous
      }
      while current >= clear {
        stack.append(suffix[current])
        current = prefix[current]
      }
      stack.append(UInt8(current))
      if next < 4096 {
        prefix[next] = previous
        suffix[next] = UInt8(current)
        first[next] = first[previous]
        next += 1
        if next == 1 << size && size < 12 { size += 1 }
      }
      output.append(contentsOf: stack.reversed())
      previous = code
    }
    return Array(output.prefix(count))
  }
}

extension UInt8 {
  fileprivate var int: Int { Int(self) }
}

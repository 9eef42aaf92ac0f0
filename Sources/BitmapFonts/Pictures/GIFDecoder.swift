import MatrixCore

/// GIF pictures, animated ones included: each frame is composed over the ones before as the
/// format says (disposal methods 0 to 3, transparent colours, interlaced rows), with its
/// delay. A GIF that marks any colour transparent lights its opaque pixels; one without
/// lights its bright ones (``Picture``).
enum GIFDecoder {
  static func decode(_ bytes: [UInt8]) throws(PictureFormatError) -> Picture {
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
    // First pass: is any colour transparent? That decides the rule for every frame.
    var frames: [Framebuffer] = [], delays: [Double] = []
    var canvas = Framebuffer(width: width, height: height)
    var opaque = Framebuffer(width: width, height: height)
    var control = (disposal: 0, delay: 0, transparent: -1)
    let transparentAnywhere = try usesTransparency(bytes)
    while true {
      guard let introducer = reader.u8(position) else {
        // Many GIFs end without their trailer; what was read stands.
        if frames.isEmpty { throw PictureFormatError("truncated: no frame") }
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
      guard introducer == 0x2C else { throw PictureFormatError("damaged: byte \(position - 1) is 0x\(String(introducer, radix: 16)), not a block") }
      guard frames.count < PictureLimits.maximumFrames else { throw PictureFormatError("it has more than \(PictureLimits.maximumFrames) frames") }
      guard let left = reader.u16(position, bigEndian: false), let top = reader.u16(position + 2, bigEndian: false),
        let frameWidth = reader.u16(position + 4, bigEndian: false), let frameHeight = reader.u16(position + 6, bigEndian: false),
        let flags = reader.u8(position + 8)
      else { throw PictureFormatError("truncated inside frame \(frames.count + 1)'s descriptor") }
      position += 9
      if let refusal = PictureLimits.refusal(width: frameWidth, height: frameHeight) {
        throw PictureFormatError("frame \(frames.count + 1): \(refusal)")
      }
      var colors = global
      if flags & 0x80 != 0 { colors = try table(reader, &position, size: flags & 7) }
      guard !colors.isEmpty else { throw PictureFormatError("frame \(frames.count + 1) has no colour table") }
      guard let minimum = reader.u8(position), (1...8).contains(minimum) else {
        throw PictureFormatError("frame \(frames.count + 1) has a bad LZW code size")
      }
      position += 1
      var data: [UInt8] = []
      while true {
        guard let count = reader.u8(position) else { throw PictureFormatError("truncated inside frame \(frames.count + 1)'s data") }
        position += 1
        if count == 0 { break }
        guard reader.has(position, count) else { throw PictureFormatError("truncated inside frame \(frames.count + 1)'s data") }
        data += bytes[position..<(position + count)]
        position += count
      }
      let indices = try LZWDecoder.decode(data, minimumCodeSize: minimum, count: frameWidth * frameHeight)
      let saved = (canvas, opaque)
      let rows = flags & 0x40 != 0 ? interlacedRows(frameHeight) : Array(0..<frameHeight)
      for (line, y) in rows.enumerated() {
        for x in 0..<frameWidth {
          let index = line * frameWidth + x
          guard index < indices.count else { break }
          let colour = Int(indices[index])
          if colour == control.transparent { continue }
          let (cx, cy) = (left + x, top + y)
          guard cx < width, cy < height else { continue }
          opaque[cx, cy] = true
          if transparentAnywhere {
            canvas[cx, cy] = true
          } else {
            let (red, green, blue) = colour < colors.count ? colors[colour] : (0, 0, 0)
            canvas[cx, cy] = LightRule.bright(red, green, blue, maximum: 255)
          }
        }
      }
      frames.append(canvas)
      // A delay under 2 hundredths is shown as 0.1 s, as browsers do.
      delays.append(control.delay < 2 ? 0.1 : Double(control.delay) / 100)
      switch control.disposal {
      case 2:
        // Back to the background: the frame's area dark (and transparent).
        canvas.fill(x: left, y: top, width: min(frameWidth, width - left), height: min(frameHeight, height - top), lit: false)
        opaque.fill(x: left, y: top, width: min(frameWidth, width - left), height: min(frameHeight, height - top), lit: false)
      case 3: (canvas, opaque) = saved
      default: break
      }
      control = (0, 0, -1)
    }
    guard !frames.isEmpty else { throw PictureFormatError("no frame") }
    return frames.count == 1 ? Picture(frames[0]) : Picture(frames: frames, delays: delays)
  }

  /// Whether any graphic control extension marks a colour transparent.
  static func usesTransparency(_ bytes: [UInt8]) throws(PictureFormatError) -> Bool {
    var index = 0
    while index + 3 < bytes.count {
      if bytes[index] == 0x21, bytes[index + 1] == 0xF9, bytes[index + 2] == 4, bytes[index + 3] & 1 != 0 { return true }
      index += 1
    }
    return false
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

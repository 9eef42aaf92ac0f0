import MatrixCore

/// PNG pictures: every colour type (grey, RGB, palette, grey with alpha, RGBA), every bit
/// depth (1 to 16), interlaced or not, with `tRNS` transparency; chunks' CRCs and the zlib
/// stream's Adler-32 are checked. The first frame of an APNG (its ordinary IDAT picture).
enum PNGDecoder {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  struct Header {
    var width: Int, height: Int, depth: Int, colorType: Int, interlaced: Bool
    /// Samples per pixel.
    var channels: Int {
      switch colorType {
      case 2: 3
      case 4: 2
      case 6: 4
      default: 1
      }
    }
    /// Bytes of one row of `width` pixels, without the filter byte.
    func rowBytes(_ width: Int) -> Int { (width * channels * depth + 7) / 8 }
  }

  static func decode(_ bytes: [UInt8]) throws(PictureFormatError) -> Framebuffer {
    let reader = ByteReader(bytes: bytes)
    var position = 8
    var header: Header?
    var palette: [(Int, Int, Int)] = []
    var transparency: [UInt8]?
    var data: [UInt8] = []
    var ended = false
    while !ended {
      guard let length = reader.u32(position, bigEndian: true), reader.has(position + 8, length + 4) else {
        throw PictureFormatError(header == nil ? "truncated before its header" : "truncated: it ends before its IEND chunk")
      }
      let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
      let body = bytes[(position + 8)..<(position + 8 + length)]
      let crc = reader.u32(position + 8 + length, bigEndian: true)!
      guard CRC32.checksum(bytes[(position + 4)..<(position + 8 + length)]) == UInt32(crc) else {
        throw PictureFormatError("the \(type) chunk is damaged (its CRC does not match)")
      }
      position += 12 + length
      switch type {
      case "IHDR":
        let chunk = ByteReader(bytes: Array(body))
        guard length == 13, let width = chunk.u32(0, bigEndian: true), let height = chunk.u32(4, bigEndian: true) else {
          throw PictureFormatError("its IHDR chunk is \(length) bytes, not 13")
        }
        let depth = Int(body[body.startIndex + 8]), colorType = Int(body[body.startIndex + 9])
        let allowed: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let depths = allowed[colorType], depths.contains(depth) else {
          throw PictureFormatError("colour type \(colorType) with \(depth)-bit samples is not a PNG combination")
        }
        guard body[body.startIndex + 10] == 0, body[body.startIndex + 11] == 0 else {
          throw PictureFormatError("unsupported PNG feature: compression or filter method other than 0")
        }
        let interlace = Int(body[body.startIndex + 12])
        guard interlace <= 1 else { throw PictureFormatError("unsupported PNG feature: interlace method \(interlace)") }
        if let refusal = PictureLimits.refusal(width: width, height: height) { throw PictureFormatError(refusal) }
        header = Header(width: width, height: height, depth: depth, colorType: colorType, interlaced: interlace == 1)
      case "PLTE":
        guard length % 3 == 0, length <= 768 else { throw PictureFormatError("its palette is \(length) bytes, not a multiple of 3 up to 768") }
        palette = stride(from: body.startIndex, to: body.endIndex, by: 3).map { (Int(bytes[$0]), Int(bytes[$0 + 1]), Int(bytes[$0 + 2])) }
      case "tRNS":
        transparency = Array(body)
      case "IDAT":
        guard header != nil else { throw PictureFormatError("image data before its IHDR chunk") }
        data += body
      case "IEND":
        ended = true
      default:
        // A critical chunk (upper-case first letter) this reader does not know changes
        // how the picture reads; an ancillary one does not.
        if let first = type.utf8.first, first >= 0x41 && first <= 0x5A {
          throw PictureFormatError("unsupported PNG feature: the critical chunk \(type)")
        }
      }
    }
    guard let header else { throw PictureFormatError("no IHDR chunk") }
    guard !data.isEmpty else { throw PictureFormatError("no image data (IDAT)") }
    if header.colorType == 3 && palette.isEmpty { throw PictureFormatError("a palette picture without a palette (PLTE)") }
    let passes = header.interlaced ? adam7 : [(0, 0, 1, 1)]
    var expected = 0
    for pass in passes {
      let (columns, rows) = passSize(pass, header)
      if columns > 0 { expected += (header.rowBytes(columns) + 1) * rows }
    }
    let raw = try inflate(data, expected: expected)
    return try pixels(raw, header, passes, palette: palette, transparency: transparency)
  }

  /// The seven passes of Adam7: first column, first row, column step, row step.
  static let adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

  static func passSize(_ pass: (Int, Int, Int, Int), _ header: Header) -> (columns: Int, rows: Int) {
    let columns = header.width > pass.0 ? (header.width - pass.0 + pass.2 - 1) / pass.2 : 0
    let rows = header.height > pass.1 ? (header.height - pass.1 + pass.3 - 1) / pass.3 : 0
    return (columns, rows)
  }

  /// The zlib stream's contents: `expected` bytes, checked against its Adler-32.
  static func inflate(_ data: [UInt8], expected: Int) throws(PictureFormatError) -> [UInt8] {
    guard data.count >= 6, data[0] & 0x0F == 8, (Int(data[0]) << 8 | Int(data[1])) % 31 == 0 else {
      throw PictureFormatError("its image data is not a zlib stream")
    }
    guard data[1] & 0x20 == 0 else { throw PictureFormatError("unsupported PNG feature: a preset zlib dictionary") }
    var output: [UInt8] = []
    output.reserveCapacity(expected)
    var inflater = Inflater(input: data, position: 2, limit: expected)
    do {
      try inflater.inflate(into: &output)
    } catch {
      throw PictureFormatError(error.reason == "truncated compressed data" ? "truncated: its image data ends early" : "its image data is damaged: \(error.reason)")
    }
    guard output.count == expected else {
      throw PictureFormatError("its image data holds \(output.count) bytes, not the \(expected) its size needs")
    }
    let end = inflater.bytePosition
    if end + 4 <= data.count {
      var a: UInt32 = 1, b: UInt32 = 0
      for byte in output {
        a = (a + UInt32(byte)) % 65521
        b = (b + a) % 65521
      }
      let stored = UInt32(data[end]) << 24 | UInt32(data[end + 1]) << 16 | UInt32(data[end + 2]) << 8 | UInt32(data[end + 3])
      guard stored == b << 16 | a else { throw PictureFormatError("its image data is damaged (the Adler-32 does not match)") }
    }
    return output
  }

  /// Unfilters each pass's rows and lights the pixels by the rule of ``Picture``.
  static func pixels(
    _ raw: [UInt8], _ header: Header, _ passes: [(Int, Int, Int, Int)], palette: [(Int, Int, Int)], transparency: [UInt8]?
  ) throws(PictureFormatError) -> Framebuffer {
    var picture = Framebuffer(width: header.width, height: header.height)
    let maximum = (1 << header.depth) - 1
    let bytesPerPixel = max(1, header.channels * header.depth / 8)
    // The colour key of grey and RGB pictures with tRNS, and palette entries' alpha.
    let key: [Int]? = transparency.flatMap { t in
      switch header.colorType {
      case 0 where t.count >= 2: [Int(t[0]) << 8 | Int(t[1])]
      case 2 where t.count >= 6: [Int(t[0]) << 8 | Int(t[1]), Int(t[2]) << 8 | Int(t[3]), Int(t[4]) << 8 | Int(t[5])]
      default: nil
      }
    }
    var offset = 0
    for pass in passes {
      let (columns, rows) = passSize(pass, header)
      guard columns > 0, rows > 0 else { continue }
      let length = header.rowBytes(columns)
      var previous = [UInt8](repeating: 0, count: length)
      var row = [UInt8](repeating: 0, count: length)
      for r in 0..<rows {
        let filter = raw[offset]
        for i in 0..<length {
          let x = raw[offset + 1 + i]
          let a = i >= bytesPerPixel ? Int(row[i - bytesPerPixel]) : 0
          let b = Int(previous[i])
          let c = i >= bytesPerPixel ? Int(previous[i - bytesPerPixel]) : 0
          let predicted: Int
          switch filter {
          case 0: predicted = 0
          case 1: predicted = a
          case 2: predicted = b
          case 3: predicted = (a + b) / 2
          case 4:
            let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
            predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
          default: throw PictureFormatError("row \(r + 1) has filter type \(filter), not 0 to 4")
          }
          row[i] = x &+ UInt8(truncatingIfNeeded: predicted)
        }
        offset += length + 1
        let y = pass.1 + r * pass.3
        for column in 0..<columns {
          func sample(_ channel: Int) -> Int {
            let index = column * header.channels + channel
            switch header.depth {
            case 16: return Int(row[2 * index]) << 8 | Int(row[2 * index + 1])
            case 8: return Int(row[index])
            default:
              let bit = index * header.depth
              return Int(row[bit / 8] >> (8 - header.depth - bit % 8)) & maximum
            }
          }
          let lit: Bool
          switch header.colorType {
          case 0:
            let grey = sample(0)
            lit = key.map { grey != $0[0] } ?? (2 * grey >= maximum)
          case 2:
            let (red, green, blue) = (sample(0), sample(1), sample(2))
            lit = key.map { [red, green, blue] != $0 } ?? LightRule.bright(red, green, blue, maximum: maximum)
          case 3:
            let index = sample(0)
            guard index < palette.count else { throw PictureFormatError("a pixel of row \(y + 1) uses palette entry \(index) of \(palette.count)") }
            if let alphas = transparency {
              lit = index >= alphas.count || LightRule.opaque(Int(alphas[index]), maximum: 255)
            } else {
              let (red, green, blue) = palette[index]
              lit = LightRule.bright(red, green, blue, maximum: 255)
            }
          case 4: lit = LightRule.opaque(sample(1), maximum: maximum)
          default: lit = LightRule.opaque(sample(3), maximum: maximum)
          }
          if lit { picture[pass.0 + column * pass.2, y] = true }
        }
        swap(&previous, &row)
      }
    }
    return picture
  }
}

import Deflate

/// The files of a zip archive (PKWARE's APPNOTE): found through its central directory,
/// stored or deflated, each checked against its CRC-32, none larger than a limit, so a small
/// archive cannot expand into a large one.
public struct ZipArchive: Sendable {
  /// One file of the archive, as its central directory describes it.
  public struct Entry: Sendable, Equatable {
    public var name: String
    /// 0: stored, 8: deflated.
    var method: Int
    var compressedSize: Int
    public var size: Int
    var crc: UInt32
    var headerOffset: Int
  }

  /// Why an archive or one of its files cannot be read.
  public struct Unreadable: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  let bytes: [UInt8]
  public let entries: [Entry]

  /// Reads the central directory of `bytes`.
  ///
  /// - Throws: ``Unreadable`` for bytes that are not a zip archive, or one that spans disks
  ///   or needs ZIP64.
  public init(_ bytes: [UInt8]) throws(Unreadable) {
    self.bytes = bytes
    // The end record is in the last 64 KiB + 22 bytes (its comment is at most 65535).
    var end: Int?
    var position = bytes.count - 22
    while position >= max(0, bytes.count - 22 - 65_535) {
      if ZipArchive.u32(bytes, position) == 0x0605_4B50 {
        end = position
        break
      }
      position -= 1
    }
    guard let end else { throw Unreadable(description: "not a zip archive (no end of central directory)") }
    let count = ZipArchive.u16(bytes, end + 10)
    let directorySize = ZipArchive.u32(bytes, end + 12)
    let directoryOffset = Int(ZipArchive.u32(bytes, end + 16))
    guard ZipArchive.u16(bytes, end + 4) == 0, directoryOffset != 0xFFFF_FFFF, count != 0xFFFF else {
      throw Unreadable(description: "a zip archive over several disks or in ZIP64 form, which marquee does not read")
    }
    guard directoryOffset + Int(directorySize) <= end else { throw Unreadable(description: "the zip archive's directory lies outside it") }
    var entries: [Entry] = []
    var at = directoryOffset
    for _ in 0..<count {
      guard at + 46 <= bytes.count, ZipArchive.u32(bytes, at) == 0x0201_4B50 else {
        throw Unreadable(description: "the zip archive's directory is damaged")
      }
      let nameLength = ZipArchive.u16(bytes, at + 28), extra = ZipArchive.u16(bytes, at + 30), comment = ZipArchive.u16(bytes, at + 32)
      guard at + 46 + nameLength <= bytes.count else { throw Unreadable(description: "the zip archive's directory is damaged") }
      entries.append(Entry(
        name: String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self), method: ZipArchive.u16(bytes, at + 10),
        compressedSize: Int(ZipArchive.u32(bytes, at + 20)), size: Int(ZipArchive.u32(bytes, at + 24)), crc: ZipArchive.u32(bytes, at + 16),
        headerOffset: Int(ZipArchive.u32(bytes, at + 42))))
      at += 46 + nameLength + extra + comment
    }
    self.entries = entries
  }

  /// The file called `name` (or ending in `/name`, for an archive with a folder inside), or
  /// nil when there is none.
  public func entry(_ name: String) -> Entry? {
    entries.first { $0.name == name } ?? entries.first { $0.name.hasSuffix("/" + name) }
  }

  /// The content of `entry`, at most `limit` bytes.
  ///
  /// - Throws: ``Unreadable`` for a file larger than `limit`, compressed some other way than
  ///   deflate, damaged, or whose CRC-32 does not match.
  public func content(of entry: Entry, limit: Int) throws(Unreadable) -> [UInt8] {
    guard entry.size <= limit else { throw Unreadable(description: "\(entry.name) is larger than \(limit) bytes") }
    let at = entry.headerOffset
    guard at + 30 <= bytes.count, ZipArchive.u32(bytes, at) == 0x0403_4B50 else {
      throw Unreadable(description: "\(entry.name): its local header is damaged")
    }
    let start = at + 30 + ZipArchive.u16(bytes, at + 26) + ZipArchive.u16(bytes, at + 28)
    guard start + entry.compressedSize <= bytes.count else { throw Unreadable(description: "\(entry.name) ends past the archive") }
    var output: [UInt8] = []
    switch entry.method {
    case 0:
      output = Array(bytes[start..<(start + entry.compressedSize)])
    case 8:
      output.reserveCapacity(entry.size)
      var inflater = Inflater(input: Array(bytes[start..<(start + entry.compressedSize)]), position: 0, limit: limit)
      do {
        try inflater.inflate(into: &output)
      } catch {
        throw Unreadable(description: "\(entry.name): \(error)")
      }
    default:
      throw Unreadable(description: "\(entry.name) is compressed with method \(entry.method); marquee reads stored and deflated files")
    }
    guard output.count == entry.size, CRC32.checksum(output[...]) == entry.crc else {
      throw Unreadable(description: "\(entry.name) is damaged (its size or CRC-32 does not match)")
    }
    return output
  }

  static func u16(_ bytes: [UInt8], _ at: Int) -> Int {
    guard at >= 0, at + 2 <= bytes.count else { return 0 }
    return Int(bytes[at]) | Int(bytes[at + 1]) << 8
  }

  static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    guard at >= 0, at + 4 <= bytes.count else { return 0 }
    return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
  }
}

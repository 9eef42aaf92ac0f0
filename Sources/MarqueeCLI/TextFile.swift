#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(Glibc)
  private let systemRead = Glibc.read
#elseif canImport(Musl)
  private let systemRead = Musl.read
#elseif canImport(Darwin)
  private let systemRead = Darwin.read
#endif

/// Reads small text files (sprites, layouts, board files) with errors that name the file.
enum TextFile {
  /// The largest file read, so a wrong path to a huge file cannot exhaust memory.
  static let maximumSize = 16 << 20

  /// The file's bytes.
  static func readBytes(_ path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw RuntimeError("\(path): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = systemRead(descriptor, &chunk, chunk.count)
      if count < 0 {
        if errno == EINTR { continue }
        throw RuntimeError("\(path): \(String(cString: strerror(errno)))")
      }
      if count == 0 { break }
      bytes += chunk[0..<count]
      if bytes.count > maximumSize {
        throw RuntimeError("\(path): larger than \(maximumSize >> 20) MiB")
      }
    }
    return bytes
  }

  /// The file as text; invalid UTF-8 becomes U+FFFD.
  static func read(_ path: String) throws -> String {
    String(decoding: try readBytes(path), as: UTF8.self)
  }
}

extension String {
  /// The string padded with spaces to at least `width` characters (one space at least).
  func padding(to width: Int) -> String {
    count < width ? self + String(repeating: " ", count: width - count) : self + " "
  }
}

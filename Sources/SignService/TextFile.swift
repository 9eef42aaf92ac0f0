import Platform
import MatrixCore

/// Reads small text files (sprites, layouts, board files) with errors that name the file.
package enum TextFile {
  /// The largest file read, so a wrong path to a huge file cannot exhaust memory.
  static let maximumSize = 16 << 20

  /// The file's bytes.
  static func readBytes(_ path: String) throws -> [UInt8] {
    do {
      return try FileBytes.read(path, limit: maximumSize)
    } catch {
      throw SignFailure(error.description)
    }
  }

  /// The file as text; invalid UTF-8 becomes U+FFFD.
  package static func read(_ path: String) throws -> String {
    String(decoding: try readBytes(path), as: UTF8.self)
  }
}

extension String {
  /// The string padded with spaces to at least `width` characters (one space at least).
  package func padding(to width: Int) -> String {
    count < width ? self + String(repeating: " ", count: width - count) : self + " "
  }
}

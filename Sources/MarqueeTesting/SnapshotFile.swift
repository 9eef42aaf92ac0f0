import Platform

/// Small file helpers for golden files, on Platform so the helper needs no Foundation.
enum SnapshotFile {
  /// The whole content of a file, or `nil` if it cannot be read.
  static func read(_ path: String) -> String? {
    (try? FileBytes.read(path, limit: 64 << 20)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Writes a file, creating its folders; returns an error text on failure.
  static func write(_ text: String, to path: String) -> String? {
    if let slash = path.lastIndex(of: "/"), slash != path.startIndex { FileBytes.makeFolders(String(path[..<slash])) }
    do {
      try FileBytes.write(Array(text.utf8), to: path)
      return nil
    } catch {
      return "cannot write \(path): \(error.reason)"
    }
  }
}

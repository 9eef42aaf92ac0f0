import Platform

/// Small file helpers for golden files, on the C library so the helper needs no Foundation.
enum SnapshotFile {
  /// The whole content of a file, or `nil` if it cannot be read.
  static func read(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&chunk, 1, chunk.count, file)
      if count <= 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Writes a file, creating its folders; returns an error text on failure.
  static func write(_ text: String, to path: String) -> String? {
    var folder = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/").dropLast() {
      folder += component
      mkdir(folder, 0o755)
      folder += "/"
    }
    guard let file = fopen(path, "wb") else {
      return "cannot write \(path): \(String(cString: strerror(errno)))"
    }
    defer { fclose(file) }
    let bytes = Array(text.utf8)
    guard fwrite(bytes, 1, bytes.count, file) == bytes.count else {
      return "cannot write \(path): \(String(cString: strerror(errno)))"
    }
    return nil
  }
}

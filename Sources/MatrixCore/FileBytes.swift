#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading whole files and file descriptors with the C library (no Foundation), retrying on
/// EINTR and refusing more than a limit, so a wrong path to a huge file cannot exhaust memory.
public enum FileBytes {
  /// Why a file could not be read: its path and the reason.
  public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
  }

  /// Reads up to `count` bytes from `descriptor` into `buffer`; -1 with `errno` on failure.
  public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(descriptor, buffer, count)
    #elseif canImport(Musl)
      Musl.read(descriptor, buffer, count)
    #else
      Darwin.read(descriptor, buffer, count)
    #endif
  }

  /// The whole file at `path`, at most `limit` bytes.
  public static func read(_ path: String, limit: Int) throws(ReadError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw ReadError(path: path, reason: String(cString: strerror(errno))) }
    defer { close(descriptor) }
    var info = stat()
    if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      throw ReadError(path: path, reason: "is a folder, not a file")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, into: $0.baseAddress!, count: $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw ReadError(path: path, reason: String(cString: strerror(errno)))
      }
      if count == 0 { break }
      bytes += chunk[0..<count]
      if bytes.count > limit { throw ReadError(path: path, reason: "larger than \(limit >> 20) MiB") }
    }
    return bytes
  }

  /// The names of the entries of a folder (files and folders, without "." and ".."), sorted;
  /// empty if the folder cannot be read.
  public static func entries(of folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }
}

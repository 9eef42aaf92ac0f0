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
    /// Whether the file was readable but larger than the limit.
    public var tooLarge = false
    public var description: String { "\(path): \(reason)" }
  }

  /// Reads up to `count` bytes from `descriptor` into `buffer`; -1 with `errno` on failure.
  public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    LibC.read(descriptor, buffer, count)
  }

  /// The whole file at `path`, at most `limit` bytes.
  ///
  /// With `regularOnly`, anything but a regular file (a FIFO, a device, `/dev/stdin`) is
  /// refused without waiting: it is opened non-blocking and checked before any read.
  public static func read(_ path: String, limit: Int, regularOnly: Bool = false) throws(ReadError) -> [UInt8] {
    let opened = StopSignal.open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
    guard opened >= 0 else { throw ReadError(path: path, reason: SystemError.last("open").reason) }
    // Closed on every way out, the thrown ones included.
    let owner = FileDescriptor(owning: opened)
    let descriptor = owner.raw
    var info = stat()
    if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      throw ReadError(path: path, reason: "is a folder, not a file")
    }
    if regularOnly && (info.st_mode & S_IFMT) != S_IFREG {
      throw ReadError(path: path, reason: "is not a regular file")
    }
    // Read straight into an array of the file's size (one more byte to see the end), then
    // in chunks if the file grew. A file with no size (a pipe, /proc) is read in one 4 KiB
    // read first: some of the kernel's files (/proc/sys) give their text to the first read
    // alone, and a 1-byte first read would see one byte of it.
    let expected = info.st_size > 0 ? min(Int(info.st_size), limit) : 0
    var filled = 0, failure: Int32 = 0
    var bytes = [UInt8](unsafeUninitializedCapacity: info.st_size > 0 ? expected + 1 : min(4096, limit + 1)) { buffer, initialized in
      while filled < buffer.count {
        let count = retryingOnInterrupt { read(descriptor, into: buffer.baseAddress! + filled, count: buffer.count - filled) }
        if count < 0 { failure = errno }
        if count <= 0 { break }
        filled += count
      }
      initialized = filled
    }
    if failure != 0 { throw ReadError(path: path, reason: SystemError(code: failure, operation: "read").reason) }
    if filled <= expected { return bytes }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = retryingOnInterrupt { chunk.withUnsafeMutableBytes { read(descriptor, into: $0.baseAddress!, count: $0.count) } }
      if count < 0 {
        throw ReadError(path: path, reason: SystemError.last("read").reason)
      }
      if count == 0 { break }
      bytes += chunk[0..<count]
      if bytes.count > limit { throw ReadError(path: path, reason: "larger than \(limit >> 20) MiB", tooLarge: true) }
    }
    if bytes.count > limit { throw ReadError(path: path, reason: "larger than \(limit >> 20) MiB", tooLarge: true) }
    return bytes
  }

  /// Writes `bytes` to `path` (created mode 0644, or truncated), all of them: plainly, for
  /// tools and golden files. What must survive a power cut is written by ``DurableFile``.
  ///
  /// - Throws: ``SystemError`` naming the file and the call that failed.
  public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
    let file = try FileDescriptor(creating: path, operation: "create")
    guard Descriptor.writeAll(file.raw, bytes) else { throw SystemError.last("write", path: path) }
  }

  /// Makes the folder `path` and those above it that are missing (as `mkdir -p`, mode 0755);
  /// whether it is a folder now.
  @discardableResult
  public static func makeFolders(_ path: String) -> Bool {
    var folder = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      folder += component
      _ = mkdir(folder, 0o755)
      folder += "/"
    }
    return isFolder(path)
  }

  /// Whether something is at `path` (a file, a folder, a device, a link that leads somewhere).
  public static func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// The offset of the first `byte` in `buffer` at or after `start`, or nil (`memchr`).
  public static func firstIndex(of byte: UInt8, in buffer: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
    guard let base = buffer.baseAddress, start < buffer.count else { return nil }
    return memchr(base + start, Int32(byte), buffer.count - start).map { base.distance(to: UnsafeRawPointer($0)) }
  }

  /// Whether `path` is a folder.
  public static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
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

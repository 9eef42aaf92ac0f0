import CPlatform
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A block of device registers mapped from a device node (`/dev/gpiomem`, `/dev/gpiomem0`):
/// 32-bit words read and written through volatile loads and stores, so no write is dropped,
/// merged or reordered by the compiler. Unmapped when the value goes away.
public final class RegisterWindow: @unchecked Sendable {
  /// The device node it was mapped from.
  public let path: String
  /// Its length in bytes.
  public let length: Int
  let base: UnsafeMutablePointer<UInt32>

  /// Maps `length` bytes of `path` from `offset`, to read and write.
  ///
  /// - Throws: ``SystemError`` of the failed open or `mmap`.
  public init(path: String, length: Int, offset: Int = 0) throws(SystemError) {
    let file = try FileDescriptor(opening: path, O_RDWR | O_SYNC)
    // A regular file (a test's or a benchmark's stand-in) shorter than the map would end
    // the process with SIGBUS at the first store past its end: refused here instead.
    var info = stat()
    if fstat(file.raw, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) < offset + length {
      throw SystemError(code: EINVAL, operation: "map \(length) bytes of registers from a file of \(info.st_size) bytes", path: path)
    }
    let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, file.raw, off_t(offset))
    guard let mapped, mapped != MAP_FAILED else { throw SystemError.last("map \(length) bytes of registers", path: path) }
    self.path = path
    self.length = length
    base = mapped.bindMemory(to: UInt32.self, capacity: length / 4)
  }

  deinit { munmap(base, length) }

  /// The number of 32-bit words mapped.
  public var wordCount: Int { length / 4 }

  /// Stores `value` in the word at `index` (a byte offset of 4 × `index`).
  @inline(__always)
  public func store(_ value: UInt32, at index: Int) {
    marquee_register_store(base + index, value)
  }

  /// Loads the word at `index`.
  @inline(__always)
  public func load(_ index: Int) -> UInt32 {
    marquee_register_load(base + index)
  }

  /// The address of the word at `index`, for a loop that stores to one register many times.
  public func address(of index: Int) -> UnsafeMutablePointer<UInt32> { base + index }
}

/// Stores `value` in a register whose address came from ``RegisterWindow/address(of:)``.
@inline(__always)
public func storeRegister(_ address: UnsafeMutablePointer<UInt32>, _ value: UInt32) {
  marquee_register_store(address, value)
}

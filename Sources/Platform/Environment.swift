#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's environment variables, read where they are needed (`MARQUEE_BOARDS`,
/// `NO_COLOR`, `XDG_DATA_HOME`...).
public enum Environment {
  /// The value of `name`, or nil when it is not set. An empty value is "" (set, empty).
  public static func value(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// The value of `name` when it is set and not empty.
  public static func nonEmpty(_ name: String) -> String? {
    value(name).flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The running binary's path, from /proc (nil where there is none).
  public static func executablePath() -> String? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBufferPointer { $0.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, 4095) } }
    return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
  }

  /// The machine's host name (`gethostname`), or nil.
  public static func hostName() -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Ends the process with `status` (buffers of the C library flushed, as `exit(3)`).
  public static func exitProcess(_ status: Int32) -> Never {
    exit(status)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The machine's local time zone as the C library knows it (`TZ`, `/etc/localtime`): the
/// wall-clock reading of a Unix time, the Unix time of a reading, and `strftime`.
public enum CalendarTime {
  /// A reading of the local wall clock.
  public struct Reading: Sendable, Equatable {
    public var year: Int
    /// 1...12.
    public var month: Int
    /// 1...31.
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// 0 (Sunday) ... 6 (Saturday).
    public var weekday: Int
    /// Seconds east of UTC at that moment (daylight saving included).
    public var offset: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, weekday: Int = 0, offset: Int = 0) {
      (self.year, self.month, self.day, self.hour, self.minute, self.second, self.weekday, self.offset) =
        (year, month, day, hour, minute, second, weekday, offset)
    }
  }

  /// What the local clock shows at Unix time `seconds` (rounded down to the second).
  public static func local(_ seconds: Double) -> Reading {
    let parts = broken(seconds)
    return Reading(
      year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday), hour: Int(parts.tm_hour),
      minute: Int(parts.tm_min), second: Int(parts.tm_sec), weekday: Int(parts.tm_wday), offset: Int(parts.tm_gmtoff))
  }

  /// The Unix time at which the local clock shows `reading` (its year to second), by
  /// `mktime`; `daylight` says whether the reading is in daylight saving time (nil: the C
  /// library guesses). Nil when the reading has no such time.
  public static func instant(of reading: Reading, daylight: Bool? = nil) -> Double? {
    var parts = tm()
    parts.tm_year = Int32(clamping: reading.year - 1900)
    parts.tm_mon = Int32(clamping: reading.month - 1)
    parts.tm_mday = Int32(clamping: reading.day)
    parts.tm_hour = Int32(clamping: reading.hour)
    parts.tm_min = Int32(clamping: reading.minute)
    parts.tm_sec = Int32(clamping: reading.second)
    parts.tm_isdst = daylight.map { $0 ? 1 : 0 } ?? -1
    let value = mktime(&parts)
    return value == -1 ? nil : Double(value)
  }

  /// Unix time `seconds` in local time written by `strftime`'s `format` (at most 255 bytes).
  public static func format(_ format: String, _ seconds: Double) -> String {
    var parts = broken(seconds)
    var buffer = [CChar](repeating: 0, count: 256)
    let count = strftime(&buffer, buffer.count, format, &parts)
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  static func broken(_ seconds: Double) -> tm {
    var time = time_t(clamping: Int64(seconds.isFinite ? max(-1e15, min(1e15, seconds)).rounded(.down) : 0))
    var parts = tm()
    localtime_r(&time, &parts)
    return parts
  }
}

import LiveData
import Platform
import Synchronization

/// The tz database's zones as a calendar source reads them: by name from
/// `/usr/share/zoneinfo` (read once each), and the sign's own from `TZ` or `/etc/localtime`.
package enum TimeZones {
  /// The zones read, by path, at most ``cacheLimit``: a calendar from the network names
  /// what zones it likes, and each name not found is remembered too.
  static let cache = Mutex<[String: TimeZoneRules?]>([:])
  static let cacheLimit = 256
  /// Where the zones are (a test's own tree, else the system's).
  static var folder: String { Environment.nonEmpty("TZDIR") ?? "/usr/share/zoneinfo" }

  /// The zone called `name` (`Europe/Berlin`, or a Windows name as Outlook writes it:
  /// `W. Europe Standard Time`), or nil when there is none by that name.
  package static func named(_ name: String) -> TimeZoneRules? {
    if let mapped = WindowsZones.tzdbName(name) { return named(mapped) }
    let valid = !name.isEmpty && name.count < 64 && !name.contains("..") && !name.hasPrefix("/")
      && name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "/_-+".unicodeScalars.contains($0) }
    guard valid else { return nil }
    return zone(at: folder + "/" + name)
  }

  /// The sign's own zone: `TZ` (a zone's name, with or without a leading colon), else
  /// /etc/localtime; nil when neither is readable.
  package static func local() -> TimeZoneRules? {
    if let tz = Environment.nonEmpty("TZ") {
      let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
      if name.hasPrefix("/") { return zone(at: name) }
      if let zone = named(name) { return zone }
    }
    return zone(at: "/etc/localtime")
  }

  /// The zone in the TZif file at `path`, read once.
  static func zone(at path: String) -> TimeZoneRules? {
    if let known = cache.withLock({ $0[path] }) { return known }
    let zone = (try? FileBytes.read(path, limit: 1 << 20)).flatMap { try? TimeZoneRules(tzif: $0) }
    cache.withLock { cache in if cache.count < cacheLimit { cache[path] = zone } }
    return zone
  }
}

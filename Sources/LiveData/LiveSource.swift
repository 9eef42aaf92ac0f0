import SimpleJSON

/// One live data source of a sign: where it is fetched from, how often, and what is taken
/// from it. A config's `"sources"` array holds them:
///
/// ```json
/// {"name": "weather", "url": "http://…/forecast.json", "every": 600,
///  "json": "/current/temperature_2m", "format": "{0:.0f}°C"}
/// {"name": "news", "url": "http://…/feed.xml", "every": 900, "rss": {"items": 5}}
/// {"name": "notice", "url": "/var/lib/marquee/notice.txt", "every": 60, "text": {"lines": 3}}
/// ```
public struct LiveSource: Sendable, Equatable {
  /// What is taken from a fetched document.
  public enum Reading: Sendable, Equatable {
    /// The value at a path (a list when it is an array), written by a format.
    case json(JSONPath, format: NumberFormat?)
    /// The first `items` titles of an RSS or Atom feed, with their dates if `dates`.
    case feed(items: Int, dates: Bool)
    /// The first `lines` lines that are not empty.
    case text(lines: Int)
    /// The next `count` departures at `stop` from a GTFS-Realtime feed, joined with the
    /// static GTFS feed at `schedule` (a zip's path or http:// address) for names and for
    /// the timetable's times where the realtime feed says nothing; each written by `format`.
    case departures(schedule: String?, stop: String, count: Int, format: String)
    /// The events of an iCalendar file on `days` days from today (the sign's local days),
    /// at most `items`: `HH:MM SUMMARY`, or `SUMMARY` for a whole day.
    case calendar(days: Int, items: Int)
  }

  /// The default of a departure's text: `ROUTE HEADSIGN N min`.
  public static let departureFormat = "{route} {headsign} {minutes} min"

  /// What reading a document needs besides its bytes: the time, and for departures the
  /// timetable, the service days around now and the local clock's `HH:MM`.
  public struct Context {
    public var now: Double
    public var schedule: GTFSSchedule?
    public var serviceDays: [DepartureBoard.ServiceDay]
    public var clock: (Double) -> String
    /// The sign's own zone, and the tz database's zones by name (a calendar's TZIDs).
    public var localZone: TimeZoneRules?
    public var zone: (String) -> TimeZoneRules?

    public init(
      now: Double = 0, schedule: GTFSSchedule? = nil, serviceDays: [DepartureBoard.ServiceDay] = [], clock: @escaping (Double) -> String = { _ in "" },
      localZone: TimeZoneRules? = nil, zone: @escaping (String) -> TimeZoneRules? = { _ in nil }
    ) {
      (self.now, self.schedule, self.serviceDays, self.clock, self.localZone, self.zone) = (now, schedule, serviceDays, clock, localZone, zone)
    }
  }

  /// The name messages use: `{source:NAME}`.
  public var name: String
  /// `http://…`, `https://…`, or a file's path (a config's relative path is read from the
  /// config's folder: ``resolvingFiles(against:)``).
  public var url: String
  /// Seconds between fetches.
  public var every: Double
  /// The limit of one fetch, connecting, redirects and reading included, in seconds.
  public var timeout: Double
  /// The largest document taken, in bytes; a larger one is an error, not a cut.
  public var maximumBytes: Int
  public var reading: Reading
  /// Seconds after the last good fetch when the data is stale: then `{source:NAME}` shows
  /// ``fallback`` (or the placeholder's own default, or nothing) until a fetch succeeds.
  /// Three intervals by default, and never less than a minute.
  public var lifetime: Double
  /// What shows instead of stale data: items, as the source's own would be.
  public var fallback: [String]?
  /// A PEM file of a certificate authority trusted for this source's `https://` fetches
  /// besides the system's (`"ca"`): for a server whose certificate a private authority signed.
  public var certificateAuthority: String?
  /// The source's object as it was written (in a config or over the API): what
  /// `GET /api/sources` gives back. Nil for a source made in code.
  public var written: JSONValue?

  /// The shortest interval: no source is fetched more often.
  public static let shortestInterval = 1.0
  /// The most items a list source gives.
  public static let maximumItems = 50
  /// The most sources a sign has.
  public static let maximumSources = 32

  public init(
    name: String, url: String, every: Double, timeout: Double = 10, maximumBytes: Int = 1 << 20, reading: Reading,
    lifetime: Double? = nil, fallback: [String]? = nil
  ) {
    (self.name, self.url, self.every, self.timeout, self.maximumBytes, self.reading) = (name, url, every, timeout, maximumBytes, reading)
    self.lifetime = lifetime ?? LiveSource.defaultLifetime(every: every)
    self.fallback = fallback
  }

  /// Three intervals, and a minute at least.
  static func defaultLifetime(every: Double) -> Double { max(60, 3 * every) }

  /// Whether ``url`` names a file (a path, or `file://`).
  public var isFile: Bool { !url.hasPrefix("http://") && !url.hasPrefix("https://") }

  /// The source with a relative file path read from `folder` (the config's).
  public func resolvingFiles(against folder: String) -> LiveSource {
    func resolved(_ location: String) -> String {
      let isRelative = !location.hasPrefix("/") && !location.hasPrefix("file://") && !location.hasPrefix("http://") && !location.hasPrefix("https://")
      return isRelative ? (folder.hasSuffix("/") ? folder : folder + "/") + location : location
    }
    var source = self
    source.url = resolved(url)
    if case .departures(let schedule?, let stop, let count, let format) = reading {
      source.reading = .departures(schedule: resolved(schedule), stop: stop, count: count, format: format)
    }
    source.certificateAuthority = certificateAuthority.map(resolved)
    return source
  }

  /// Refuses what only the sign's own config may name: a file to read (the source's, or a
  /// departure board's timetable) or a certificate authority's file. Sources set over the
  /// API fetch `http://` and `https://` addresses, so a token cannot make the sign read and
  /// show its own files.
  ///
  /// - Throws: ``JSONFieldError`` at the field (`sources[1].url`).
  public func checkNetworkOnly(path: String) throws(JSONFieldError) {
    if isFile {
      throw JSONFieldError(field: "\(path).url", reason: "'\(url)' is a file: a source set over the API fetches an http:// or https:// address (a file source is for the config)")
    }
    if case .departures(let schedule?, _, _, _) = reading, !schedule.hasPrefix("http://"), !schedule.hasPrefix("https://") {
      throw JSONFieldError(field: "\(path).gtfsRealtime.static", reason: "'\(schedule)' is a file: a source set over the API names its timetable by an http:// or https:// address")
    }
    if certificateAuthority != nil {
      throw JSONFieldError(field: "\(path).ca", reason: "an authority's file is named in the config, not over the API")
    }
  }

  /// Whether a source's name may be used: letters, digits, `-` and `_`, at most 32.
  public static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && name.count <= 32 && name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
  }

  /// The sources of a config's `"sources"` array (`path` names it in errors).
  ///
  /// - Throws: ``JSONFieldError`` at the field that is wrong (`sources[1].every`).
  public static func list(_ value: JSONValue, path: String = "sources") throws(JSONFieldError) -> [LiveSource] {
    guard case .array(let entries) = value else { throw JSONFieldError(field: path, reason: "expected an array of sources, got \(value.typeName)") }
    guard entries.count <= maximumSources else { throw JSONFieldError(field: path, reason: "at most \(maximumSources) sources, got \(entries.count)") }
    var sources: [LiveSource] = []
    for (index, entry) in entries.enumerated() {
      let source = try LiveSource(entry, path: "\(path)[\(index)]")
      if sources.contains(where: { $0.name == source.name }) {
        throw JSONFieldError(field: "\(path)[\(index)].name", reason: "'\(source.name)' names another source already")
      }
      sources.append(source)
    }
    return sources
  }

  /// One source from its object in a config.
  ///
  /// - Throws: ``JSONFieldError`` at the field that is wrong.
  public init(_ value: JSONValue, path: String) throws(JSONFieldError) {
    let fields = try JSONFields(value, path: path)
    written = value
    let kinds = ["json", "rss", "text", "gtfsRealtime", "ical"]
    try fields.rejectUnknownKeys(["name", "url", "every", "timeout", "maxBytes", "format", "lifetime", "fallback", "ca"] + kinds)
    name = try fields.requiredString("name")
    guard LiveSource.isValidName(name) else {
      throw JSONFieldError(field: fields.name("name"), reason: "'\(name)' is not a source name: letters, digits, '-' and '_', at most 32")
    }
    url = try fields.requiredString("url")
    if url.contains("://") && !url.hasPrefix("http://") && !url.hasPrefix("https://") && !url.hasPrefix("file://") || url.isEmpty {
      throw JSONFieldError(field: fields.name("url"), reason: "'\(url)' is neither an http:// or https:// address nor a file's path")
    }
    every = try fields.number("every", in: LiveSource.shortestInterval...604_800) ?? 300
    timeout = try fields.number("timeout", in: 0.5...120) ?? 10
    maximumBytes = try fields.integer("maxBytes", in: 1...(16 << 20)) ?? (1 << 20)
    lifetime = try fields.number("lifetime", in: 1...2_592_000) ?? LiveSource.defaultLifetime(every: every)
    guard lifetime > every || fields.optional("lifetime") == nil else {
      throw JSONFieldError(field: fields.name("lifetime"), reason: "\(lifetime) s is not longer than the interval (\"every\": \(every) s): the data would be stale between two good fetches")
    }
    fallback = try fields.strings("fallback")
    if let fallback, fallback.count > LiveSource.maximumItems {
      throw JSONFieldError(field: fields.name("fallback"), reason: "at most \(LiveSource.maximumItems) items")
    }
    let given = kinds.filter { fields.optional($0) != nil }
    guard given.count == 1 else {
      throw JSONFieldError(field: path, reason: given.isEmpty ? "say what to take from the source: \"json\", \"rss\", \"text\", \"ical\" or \"gtfsRealtime\"" : "give one of \(given.joined(separator: ", ")), not \(given.count)")
    }
    certificateAuthority = try fields.string("ca")
    if let authority = certificateAuthority {
      let timetable = try fields.object("gtfsRealtime")?.string("static")
      guard url.hasPrefix("https://") || timetable?.hasPrefix("https://") == true else {
        throw JSONFieldError(field: fields.name("ca"), reason: "an authority is for an https:// address, and this source fetches none")
      }
      guard !authority.isEmpty else { throw JSONFieldError(field: fields.name("ca"), reason: "name a PEM file of the server's certificate authority") }
    }
    var format: NumberFormat?
    if let written = try fields.string("format"), given[0] != "gtfsRealtime" {
      do {
        format = try NumberFormat(written)
      } catch {
        throw JSONFieldError(field: fields.name("format"), reason: error.description)
      }
    }
    switch given[0] {
    case "json":
      let written = try fields.requiredString("json")
      do {
        reading = .json(try JSONPath(written), format: format)
      } catch {
        throw JSONFieldError(field: fields.name("json"), reason: error.description)
      }
    case "rss":
      if format != nil { throw JSONFieldError(field: fields.name("format"), reason: "a format is for a JSON value, not a feed") }
      let options = try fields.object("rss")
      try options?.rejectUnknownKeys(["items", "dates"])
      reading = .feed(items: try options?.integer("items", in: 1...LiveSource.maximumItems) ?? 5, dates: try options?.bool("dates") ?? false)
    case "gtfsRealtime":
      let options = try fields.object("gtfsRealtime")!
      try options.rejectUnknownKeys(["static", "stop", "count"])
      let template = try fields.string("format") ?? LiveSource.departureFormat
      guard ["{route}", "{headsign}", "{minutes}", "{time}"].contains(where: template.contains) else {
        throw JSONFieldError(field: fields.name("format"), reason: "a departure's format names {route}, {headsign}, {minutes} or {time}")
      }
      reading = .departures(
        schedule: try options.string("static"), stop: try options.requiredString("stop"),
        count: try options.integer("count", in: 1...LiveSource.maximumItems) ?? 3, format: template)
    case "ical":
      if format != nil { throw JSONFieldError(field: fields.name("format"), reason: "a format is for a JSON value, not a calendar") }
      let options = try fields.object("ical")
      try options?.rejectUnknownKeys(["days", "items"])
      reading = .calendar(days: try options?.integer("days", in: 1...31) ?? 1, items: try options?.integer("items", in: 1...LiveSource.maximumItems) ?? 10)
    default:
      if format != nil { throw JSONFieldError(field: fields.name("format"), reason: "a format is for a JSON value, not text") }
      let options = try fields.object("text")
      try options?.rejectUnknownKeys(["lines"])
      reading = .text(lines: try options?.integer("lines", in: 1...LiveSource.maximumItems) ?? 1)
    }
  }

  /// Why a fetched document gives no items: what was wrong with it, in words.
  public struct Unreadable: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
  }

  /// The items `bytes` give: one for a value, several for a list.
  ///
  /// - Throws: ``Unreadable`` saying what was wrong (not JSON, no value at the path, not a
  ///   feed, not UTF-8...).
  public func items(from bytes: [UInt8], context: Context = Context()) throws(Unreadable) -> [String] {
    switch reading {
    case .calendar(let days, let count):
      let file: CalendarFile
      do {
        file = try CalendarFile(bytes)
      } catch {
        throw Unreadable("\(error)")
      }
      guard let local = context.localZone else { throw Unreadable("the sign's time zone is not known (no /etc/localtime and no TZ)") }
      // From today's local midnight, `days` local days on.
      let today = Int64(context.now) + Int64(local.offset(at: Int64(context.now)))
      let midnight = today - today.modulo(86_400)
      let from = Double(local.utc(fromLocal: midnight)), to = Double(local.utc(fromLocal: midnight + Int64(days) * 86_400))
      return file.occurrences(from: from, to: to, zone: context.zone, local: local).prefix(count).map { occurrence in
        occurrence.allDay ? occurrence.summary : context.clock(occurrence.start) + " " + occurrence.summary
      }
    case .departures(_, let stop, let count, let format):
      let feed: GTFSRealtimeFeed
      do {
        feed = try GTFSRealtimeFeed(bytes)
      } catch {
        throw Unreadable("not a GTFS-Realtime feed: \(error)")
      }
      return DepartureBoard.departures(schedule: context.schedule, realtime: feed, stop: stop, now: context.now, days: context.serviceDays, count: count)
        .map { DepartureBoard.text($0, format: format, now: context.now, clock: context.clock) }
    case .json(let path, let format):
      let document: JSONValue
      do {
        document = try JSONParser.parse(bytes: bytes)
      } catch {
        throw Unreadable("not JSON: \(error)")
      }
      guard let value = path.value(in: document) else { throw Unreadable("nothing at \(path.description.isEmpty ? "the top" : path.description)") }
      let values: [JSONValue]
      if case .array(let list) = value { values = Array(list.prefix(LiveSource.maximumItems)) } else { values = [value] }
      var items: [String] = []
      for value in values {
        do {
          switch value {
          case .number(let number): items.append(try (format ?? NumberFormat.plainValue).text(number))
          case .string(let text): items.append(try (format ?? NumberFormat.plainValue).text(text))
          case .bool(let flag): items.append(try (format ?? NumberFormat.plainValue).text(flag ? "true" : "false"))
          case .null: throw Unreadable("the value at \(path) is null")
          case .array, .object: throw Unreadable("the value at \(path) is \(value.typeName), not a number or a text")
          }
        } catch let error as NumberFormat.Mismatch {
          throw Unreadable("the value at \(path): \(error)")
        } catch let error as Unreadable {
          throw error
        } catch {
          throw Unreadable("\(error)")
        }
      }
      return items
    case .feed(let count, let dates):
      do {
        return try FeedReader.items(bytes).prefix(count).map { item in
          dates && item.date != nil ? "\(item.title) (\(item.date!))" : item.title
        }
      } catch let error as FeedReader.NotAFeed {
        throw Unreadable("\(error)")
      } catch {
        throw Unreadable("not a feed (RSS or Atom), nor XML: \(error)")
      }
    case .text(let count):
      guard let text = String(validating: bytes, as: UTF8.self) else { throw Unreadable("the text is not UTF-8") }
      return Array(text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { String($0).trimmed }.filter { !$0.isEmpty }.prefix(count))
    }
  }
}

extension NumberFormat {
  /// `{}`: a value as it is.
  static let plainValue = try! NumberFormat("{}")
}

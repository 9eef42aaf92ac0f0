import HTTP
import LiveData
import Platform

/// Fetches a live source's document once: over HTTP (with the validators of the last
/// answer) or from a file, within the source's time and size limits, and reads its items.
package struct SourceFetcher: Sendable {
  /// What one fetch gave: new items, or the same document as last time.
  package enum Outcome: Sendable, Equatable {
    case items([String])
    case unchanged
  }

  /// The validators of the last document (`ETag`, `Last-Modified`).
  package var entityTag: String?
  package var lastModified: String?
  /// A departure board's timetable, and what it was read from (a file's identity, or when
  /// an address was fetched), so it is read again only when it changed (a file) or a day on.
  var schedule: (stamp: String, schedule: GTFSSchedule)?
  /// The wall clock the departures count from.
  let clock: SignClock

  package init(clock: SignClock = .system) { self.clock = clock }

  /// Fetches `source` once.
  ///
  /// - Throws: ``SourceFailure`` with the reason in words (the address, and what happened).
  package mutating func fetch(_ source: LiveSource) throws(SourceFailure) -> Outcome {
    let bytes: [UInt8]
    if source.isFile {
      let path = source.url.hasPrefix("file://") ? String(source.url.dropFirst("file://".count)) : source.url
      do {
        bytes = try FileBytes.read(path, limit: source.maximumBytes, regularOnly: true)
      } catch {
        throw SourceFailure(error.tooLarge ? "\(path): the file is larger than \(source.maximumBytes) bytes (the source's \"maxBytes\")" : "\(error)")
      }
    } else {
      let answer: HTTPFetch.Answer
      do {
        answer = try HTTPFetch.get(
          source.url, limit: source.timeout, maximumBytes: source.maximumBytes, entityTag: entityTag, lastModified: lastModified,
          secure: SecureFetch(certificateAuthority: source.certificateAuthority))
      } catch {
        throw SourceFailure(error.description)
      }
      (entityTag, lastModified) = (answer.entityTag, answer.lastModified)
      if answer.status == 304 { return .unchanged }
      bytes = answer.body
    }
    var context = LiveSource.Context(now: clock.wall(), clock: { CalendarTime.format("%H:%M", $0) })
    if case .calendar = source.reading {
      context.localZone = TimeZones.local()
      context.zone = TimeZones.named
    }
    if case .departures(let timetable, let stop, _, _) = source.reading {
      if let timetable {
        context.schedule = try schedule(timetable, stop: stop, limit: source.timeout * 6, secure: SecureFetch(certificateAuthority: source.certificateAuthority))
      }
      context.serviceDays = SourceFetcher.serviceDays(around: context.now)
      context.clock = { CalendarTime.format("%H:%M", $0) }
    }
    do {
      return .items(try source.items(from: bytes, context: context))
    } catch {
      // A document that cannot be read is not kept as the one to compare with.
      (entityTag, lastModified) = (nil, nil)
      throw SourceFailure("\(source.url): \(error)")
    }
  }
}

extension SourceFetcher {
  /// The timetable at `location` (a zip's path or address) for `stop`, read again when the
  /// file changed or, for an address, once a day.
  mutating func schedule(_ location: String, stop: String, limit: Double, secure: SecureFetch) throws(SourceFailure) -> GTFSSchedule {
    let isFile = !location.hasPrefix("http://") && !location.hasPrefix("https://")
    let stamp: String
    if isFile {
      guard let status = FileStatus(path: location) else { throw SourceFailure("\(location): \(SystemError.last("stat").reason)") }
      stamp = "\(status.device):\(status.inode):\(status.size):\(status.modified)"
    } else {
      stamp = "day \(Int(clock.wall() / 86_400))"
    }
    if let cached = schedule, cached.stamp == stamp { return cached.schedule }
    let bytes: [UInt8]
    do {
      if isFile {
        bytes = try FileBytes.read(location, limit: GTFSSchedule.fileLimit, regularOnly: true)
      } else {
        bytes = try HTTPFetch.get(location, limit: max(30, limit), maximumBytes: GTFSSchedule.fileLimit, secure: secure).body
      }
    } catch {
      throw SourceFailure("the timetable: \(error)")
    }
    do {
      let read = try GTFSSchedule(zip: bytes, stop: stop)
      schedule = (stamp, read)
      return read
    } catch {
      throw SourceFailure("the timetable \(location): \(error)")
    }
  }

  /// Yesterday and today (local time): a trip of yesterday's timetable may leave after
  /// midnight (25:10:00).
  static func serviceDays(around now: Double) -> [DepartureBoard.ServiceDay] {
    [-86_400.0, 0].compactMap { offset in
      let local = CalendarTime.local(now + offset)
      let noon = CalendarTime.Reading(year: local.year, month: local.month, day: local.day, hour: 12)
      guard let middle = CalendarTime.instant(of: noon) else { return nil }
      return DepartureBoard.ServiceDay(date: local.year * 10_000 + local.month * 100 + local.day, weekday: (local.weekday + 6) % 7, start: middle - 43_200)
    }
  }
}

/// Why a source's fetch failed, in words for a person.
package struct SourceFailure: Error, Sendable, Equatable, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}

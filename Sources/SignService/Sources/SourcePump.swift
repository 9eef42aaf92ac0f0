import LiveData
import Marquee
import Platform
import SimpleJSON
import Synchronization

/// Keeps a sign's live data sources fresh: each is fetched when due, on a thread of its own
/// (never the frame loop's), one fetch at a time, and its items go to the feed, which makes
/// the zones that name it again. A failure is reported, kept for the state, and tried again
/// after a pause that doubles from half a second (the MQTT client's rule), at most the
/// source's interval or a minute, whichever is longer. While the sign is dark (turned off,
/// an off period) nothing is fetched; what is due is fetched when it lights again.
package final class SourcePump: Sendable {
  /// What the state says of a source.
  package struct Status: Sendable, Equatable {
    package var name: String
    package var items: [String] = []
    /// Wall-clock time of the last fetch that gave items (or found them unchanged).
    package var lastSuccess: Double?
    package var lastError: String?
    /// Wall-clock time of the next fetch.
    package var nextFetch: Double
    package var failures = 0
    /// Whether the data is older than the source's lifetime (its fallback shows).
    package var stale = false
  }

  struct Entry: Sendable {
    var source: LiveSource
    var fetcher = SourceFetcher()
    var status: Status
    /// Monotonic time of the next fetch.
    var due: Double
    var pause = 0.5
    /// Monotonic time of the last good fetch (the start, before any: the data is stale a
    /// lifetime after the sign starts if no fetch succeeds).
    var freshSince: Double
  }

  let entries: Mutex<[Entry]>
  /// Whether the pump's thread runs (it ends when there are no sources).
  let running = Atomic<Bool>(false)
  let feed: Feed
  let clock: SignClock
  let stop: StopFlag
  let reports: SignReports
  let isDark: @Sendable () -> Bool

  package init(sources: [LiveSource], feed: Feed, clock: SignClock, stop: StopFlag, reports: SignReports, isDark: @escaping @Sendable () -> Bool) {
    let now = clock.monotonic(), wall = clock.wall()
    // A file source the sign read as it was built (SignPlan) is not read again at once.
    entries = Mutex(sources.map { source in
      let primed = feed.values.source(source.name)
      var status = Status(name: source.name, nextFetch: wall + (primed == nil ? 0 : source.every))
      if let primed { (status.items, status.lastSuccess) = (primed.items, wall) }
      return Entry(source: source, fetcher: SourceFetcher(clock: clock), status: status, due: now + (primed == nil ? 0 : source.every), freshSince: now)
    })
    (self.feed, self.clock, self.stop, self.reports, self.isDark) = (feed, clock, stop, reports, isDark)
    feed.values.declaredSources = sources.map(\.name)
  }

  /// The sources' states, in the config's order.
  package var statuses: [Status] { entries.withLock { $0.map(\.status) } }

  /// The sources, in order.
  package var sources: [LiveSource] { entries.withLock { $0.map(\.source) } }

  /// Whether the sign has no sources.
  package var isEmpty: Bool { entries.withLock { $0.isEmpty } }

  /// Starts the pump's thread, unless it runs or there are no sources.
  package func start() {
    guard entries.withLock({ !$0.isEmpty }), running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
    DetachedThread.start { [self] in run() }
  }

  /// Fetches `sources` from now on, in place of the ones before: a source as it was keeps
  /// its items, its state and its schedule; a new or changed one is fetched at once; what a
  /// source that went had given is forgotten.
  package func replace(sources new: [LiveSource]) {
    let now = clock.monotonic(), wall = clock.wall()
    let gone = entries.withLock { entries -> [String] in
      let before = entries
      entries = new.map { source in
        if let kept = before.first(where: { $0.source == source }) { return kept }
        return Entry(source: source, fetcher: SourceFetcher(clock: clock), status: Status(name: source.name, nextFetch: wall), due: now, freshSince: now)
      }
      return before.map(\.source.name).filter { name in !new.contains { $0.name == name } }
    }
    feed.values.declaredSources = new.map(\.name)
    for name in gone { feed.forget(source: name) }
    start()
  }

  func run() {
    while !stop.isSet {
      markStale(at: clock.monotonic())
      let now = clock.monotonic()
      let next = entries.withLock { entries in entries.min { $0.due < $1.due }.map { ($0.source, $0.due) } }
      guard let (source, due) = next else {
        // No sources: the thread ends, unless some came while it was deciding to.
        running.store(false, ordering: .releasing)
        if entries.withLock({ $0.isEmpty }) || !running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged { return }
        continue
      }
      if due > now || isDark() {
        // A second at most, so a stop, a change of sources or the sign lighting again is noticed.
        clock.sleep(min(1, max(0.01, due - now)))
        continue
      }
      fetch(source)
    }
  }

  /// Fetches `source` now, and schedules its next fetch (unless the sources were replaced
  /// meanwhile and it is not one of them any more).
  func fetch(_ source: LiveSource) {
    guard let held = entries.withLock({ $0.first { $0.source == source }?.fetcher }) else { return }
    var fetcher = held
    let name = source.name
    let outcome: Result<SourceFetcher.Outcome, SourceFailure>
    do throws(SourceFailure) {
      outcome = .success(try fetcher.fetch(source))
    } catch {
      outcome = .failure(error)
    }
    let now = clock.monotonic(), wall = clock.wall()
    var items: [String]?
    var failures = 0
    let current = entries.withLock { entries -> Bool in
      guard let index = entries.firstIndex(where: { $0.source == source }) else { return false }
      var entry = entries[index]
      entry.fetcher = fetcher
      switch outcome {
      case .success(let result):
        if case .items(let fetched) = result { entry.status.items = fetched }
        items = entry.status.items
        entry.status.lastSuccess = wall
        entry.status.lastError = nil
        entry.status.failures = 0
        entry.status.stale = false
        entry.freshSince = now
        entry.pause = 0.5
        entry.due = now + source.every
      case .failure(let failure):
        entry.status.lastError = failure.description
        entry.status.failures += 1
        entry.due = now + entry.pause
        entry.pause = min(max(source.every, 60), entry.pause * 2)
      }
      entry.status.nextFetch = wall + (entry.due - now)
      failures = entry.status.failures
      entries[index] = entry
      return true
    }
    guard current else { return }
    switch outcome {
    case .success:
      // The same items again still say the data is fresh.
      feed.take(source: name, items: items ?? [])
    case .failure(let failure):
      // The first failure of a run is worth a line; the rest are in the state.
      if failures == 1 { reports.warning("source '\(name)': \(failure)") }
    }
  }

  /// Puts up the fallback of each source whose data has outlived its lifetime.
  func markStale(at now: Double) {
    let stale = entries.withLock { entries in
      entries.indices.compactMap { index -> LiveSource? in
        guard !entries[index].status.stale, now - entries[index].freshSince >= entries[index].source.lifetime else { return nil }
        entries[index].status.stale = true
        return entries[index].source
      }
    }
    for source in stale {
      reports.warning("source '\(source.name)': no good fetch for \(Int(source.lifetime)) s; showing its fallback until one comes")
      feed.take(source: source.name, items: source.fallback ?? [])
    }
  }

  /// The state's `sources`: each source's items, last success and error, and next fetch.
  package func stateValue() -> JSONValue {
    .array(statuses.map { status in
      .object([
        ("name", .string(status.name)), ("items", .array(status.items.map { .string($0) })),
        ("lastSuccess", status.lastSuccess.map(SignSession.moment) ?? .null),
        ("lastError", status.lastError.map { .string($0) } ?? .null),
        ("nextFetch", SignSession.moment(status.nextFetch)), ("failures", .number(Double(status.failures))), ("stale", .bool(status.stale)),
      ])
    })
  }
}

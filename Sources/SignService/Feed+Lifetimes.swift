import Platform
import BitmapFonts
import Marquee
import MatrixCore
import SimpleJSON
import Synchronization

/// Live values with their lifetimes: content that goes stale without an update (and its
/// fallback), and the MQTT topics placeholders read.
extension Feed {
  /// The live content of `zone` that lasts only a while, if it has any: its lifetime, when
  /// it was last updated, and whether it went stale.
  package func lifetime(of zone: String) -> Lifetime? {
    state.withLock { $0.lifetimes[zone] }
  }

  /// The zones whose live content went stale (no update within its lifetime): they show
  /// their fallback until an update comes.
  package var staleZones: [String] {
    state.withLock { state in zoneNames.filter { state.lifetimes[$0]?.stale == true } }
  }

  /// Starts, once, the thread that puts up fallbacks when live content goes stale (it
  /// looks four times a second).
  func watchLifetimes() {
    let start = state.withLock { state in
      defer { state.watching = true }
      return !state.watching
    }
    guard start else { return }
    DetachedThread.start { [self] in
      while !stop.isSet {
        clock.sleep(0.25)
        expire(at: clock.monotonic())
      }
    }
  }

  /// Puts up the fallback of every zone whose live content is older than its lifetime at
  /// monotonic time `now`: no update came in that time, or, for messages with
  /// placeholders, one of the topics they name sent nothing in that time.
  func expire(at now: Double) {
    // Marked stale as they are found, so the watcher and a caller never both put one up.
    let due = state.withLock { state in
      zoneNames.compactMap { zone -> (String, [String]?)? in
        guard let lifetime = state.lifetimes[zone], !lifetime.stale, !isFresh(lifetime, at: now) else { return nil }
        state.lifetimes[zone]?.stale = true
        return (zone, lifetime.fallback)
      }
    }
    for (zone, fallback) in due {
      do {
        var update = try fallback.map { try prepare(zone: zone, messages: $0, fields: nil, immediately: true, pause: nil) } ?? baseContent(zone)
        // The lifetime stays in the same commit: a look between two would find the live
        // messages' topics named nowhere, forget their values and unsubscribe for good.
        update.fallsBack = true
        commit([update])
        // (Not when a value came first: the fallback, late, was not put up.)
        guard let kept = lifetime(of: zone), kept.stale else { continue }
        reports.notice("Zone '\(zone)': no update for \(Int(saturating: kept.seconds.rounded())) s; showing its fallback until one comes")
      } catch {
        reports.warning("zone '\(zone)': its fallback cannot be shown: \(error)")
      }
    }
  }

  /// Whether live content is within its lifetime at monotonic time `now`: its last update,
  /// or each topic its messages name (since its last value, or since the content came when
  /// none has), is younger than the lifetime.
  func isFresh(_ lifetime: Lifetime, at now: Double) -> Bool {
    let topics = lifetime.liveMessages.flatMap(LiveValues.topics)
    let sources = lifetime.liveMessages.flatMap(LiveValues.sourceNames)
    guard !topics.isEmpty || !sources.isEmpty else { return now - lifetime.updated < lifetime.seconds }
    return topics.allSatisfy { topic in now - (values.value(topic)?.received ?? lifetime.updated) < lifetime.seconds }
      && sources.allSatisfy { name in now - (values.source(name)?.received ?? lifetime.updated) < lifetime.seconds }
  }

  /// A topic's new value (an MQTT message): zones whose messages name it are made again
  /// with it, at their next message boundary; a stale zone whose topics are all fresh again
  /// shows its live messages at once.
  package func take(topic: String, payload: String) {
    let now = clock.monotonic()
    let changed = values.set(topic, payload: payload, received: now)
    refresh(naming: { LiveValues.topics(in: $0).contains(topic) }, changed: changed, at: now, what: topic)
  }

  /// A live data source's new items: zones whose messages name it are made again with them,
  /// as for a topic's value (``take(topic:payload:)``); the same items again keep the zones
  /// fresh without making them again.
  package func take(source name: String, items: [String]) {
    let now = clock.monotonic()
    let changed = values.setSource(name, items: items, received: now)
    refresh(naming: { LiveValues.sourceNames(in: $0).contains(name) }, changed: changed, at: now, what: "source \(name)")
  }

  /// Forgets what source `name` gave: it is not one of the sign's any more (no content
  /// names it, or it could not have been removed).
  package func forget(source name: String) {
    values.removeSource(name)
  }

  /// Makes the zones whose messages `names` again (when `changed`), and shows the live
  /// messages of stale zones it made fresh again.
  func refresh(naming names: (String) -> Bool, changed: Bool, at now: Double, what: String) {
    let work = state.withLock { state in
      zoneNames.compactMap { zone -> (zone: String, messages: [String], revive: Bool)? in
        if let lifetime = state.lifetimes[zone], lifetime.stale {
          guard lifetime.liveMessages.contains(where: names), isFresh(lifetime, at: now) else { return nil }
          return (zone, lifetime.liveMessages, true)
        }
        guard changed, let messages = state.options[zone]?.messages, messages.contains(where: names) else {
          return nil
        }
        return (zone, messages, false)
      }
    }
    var updates: [Update] = []
    for (zone, messages, revive) in work {
      do {
        var update = try prepare(zone: zone, messages: messages, fields: nil, immediately: revive, pause: nil)
        update.refreshes = true
        update.revives = revive
        updates.append(update)
        if revive { reports.notice("Zone '\(zone)': \(what) is live again") }
      } catch {
        reports.warning("zone '\(zone)': the value of \(what) cannot be shown: \(error)")
      }
    }
    if !updates.isEmpty { commit(updates) }
  }

  /// How many updates were committed: it changes with every change of content or options
  /// (a fallback put up included).
  package var updateCount: Int { state.withLock { $0.received } }

  /// The topics the zones' messages name in placeholders now (live content kept while a
  /// zone shows its fallback included), and a number that changes whenever they may have.
  package func placeholderTopics() -> (version: Int, topics: [String]) {
    state.withLock { state in
      var topics: [String] = []
      let messages = zoneNames.flatMap { zone in (state.options[zone]?.messages ?? []) + (state.lifetimes[zone]?.liveMessages ?? []) }
      for message in messages where message.contains("{mqtt:") {
        for topic in LiveValues.topics(in: message) where !topics.contains(topic) { topics.append(topic) }
      }
      return (state.received, topics)
    }
  }
}

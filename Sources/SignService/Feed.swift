import Platform
import BitmapFonts
import Marquee
import MatrixCore
import SimpleJSON
import Synchronization

/// `--stdin`: lines read while the sign runs become updates of its zones.
///
/// A plain line replaces the first zone's messages with that line. A line that is a JSON
/// object names a zone (`"zone"`), sets its messages (`"messages"` or `"message"`) and any
/// option a layout zone takes (`"mode"`, `"in"`, `"speed"`, …), and may ask for
/// `"immediately": true` or `"pause": true|false`. Bad lines are reported on standard error
/// and skipped. Updates are coalesced: only the latest per zone waits to be applied, and it
/// is applied at the next frame, so a flood of lines keeps the sign responsive, shows the
/// latest content and uses bounded memory.
public final class Feed: Sendable {
  /// What waits to be applied to one zone.
  package struct Pending {
    var content: ZoneContent?
    var immediately = false
    var pause: Bool?
  }

  struct State {
    var pending: [String: Pending] = [:]
    var order: [String] = []
    var options: [String: ZoneOptions]
    var received = 0
    var ended = false
    /// Each zone's options when the sign started, or at the last reload (a replacing
    /// update starts from them).
    var initial: [String: ZoneOptions]
    /// The fonts each zone uses now, and those of its initial options: the fonts kept loaded.
    var fontsInUse: [String: [FontCache.Identity]] = [:]
    var initialFonts: [String: [FontCache.Identity]] = [:]
    /// Notifications (and dismissals: nil notification, the ID or nil for all) from lines,
    /// shown at the next frame.
    var notices: [Notice] = []
    /// Zones whose live content lasts only a while, by zone.
    var lifetimes: [String: Lifetime] = [:]
    /// Whether the thread that watches lifetimes runs.
    var watching = false
    /// Each zone's options as the playing program set them (none: as the sign started):
    /// what a stale zone without a fallback shows.
    var base: [String: ZoneOptions] = [:]
    /// Each zone's options as people, programs and the config left them, live data (MQTT
    /// content, content with a lifetime, fallbacks, placeholder values) left out: what a
    /// person's later change is merged into for the state file.
    var kept: [String: ZoneOptions]
    /// The sign's t = 0 in Unix time, for `{time}` placeholders: moved when the wall clock is set.
    var clockStart: Double?
    /// When (wall time) each zone last took new content (a placeholder's new value is the
    /// same content): since when what it shows shows.
    var changedAt: [String: Double] = [:]
  }

  /// A notification a line asked for (and whether it wakes a sign in an off period), or a
  /// dismissal (nil notification: the ID, or nil for all).
  struct Notice {
    var notification: Notification?
    var wakes = false
    var dismiss: Int?
  }

  /// A zone's live content and how long it lasts without an update.
  package struct Lifetime {
    var seconds: Double
    /// What shows when it goes stale (nil: the zone's own content).
    var fallback: [String]?
    /// When the last update came (monotonic seconds).
    var updated: Double
    var stale = false
    /// The messages of the live content, placeholders unfilled: what comes back when the
    /// topics they name are fresh again.
    var liveMessages: [String] = []
  }

  let state: Mutex<State>
  package let firstZone: String
  let zoneNames: [String]
  /// The sprite file of the sprite effect, for every zone (`--sprite`).
  let spritePath: String?
  /// Each zone's place, by name: what its content must fit.
  package let places: [String: ZonePlace]
  let stop: StopFlag
  /// The fonts, loaded once per file and shared with the sign that started.
  package let fonts: FontCache
  /// Which fonts updates may name.
  let fontAccess: FontCache.Access
  /// Lines longer than this are refused (and the rest of the line skipped).
  package static let maximumLineLength = 1 << 20

  /// What to do when the input ends.
  let onEnd: RunOptions.EndOfInput
  /// The latest values of the MQTT topics messages name (`{mqtt:TOPIC}`).
  package let values: LiveValues
  /// The frames' tap of a sign with a schedule: what a waking notification lights.
  package let tap = Mutex<SignLights?>(nil)
  /// Counts every update committed (and the session's changes): what waits for the state
  /// to move waits here.
  package let changes = ChangeSignal()
  /// The clock lifetimes are measured on.
  package let clock: SignClock
  /// Where warnings go (a stale zone, a line skipped).
  package let reports: SignReports

  /// A feed for `zones`; `fonts` is the cache the sign was built with.
  package init(
    zones: [ZoneSpec], clockStart: Double? = nil, spritePath: String? = nil, stop: StopFlag,
    onEnd: RunOptions.EndOfInput = .keep, fonts: FontCache = FontCache(), fontAccess: FontCache.Access = .any,
    clock: SignClock = .system, reports: SignReports = .inMemory(), values: LiveValues = LiveValues()
  ) {
    self.values = values
    self.clock = clock
    self.reports = reports
    firstZone = zones[0].name
    zoneNames = zones.map(\.name)
    places = Dictionary(uniqueKeysWithValues: zones.map { ($0.name, $0.place) })
    self.spritePath = spritePath
    self.stop = stop
    self.onEnd = onEnd
    self.fonts = fonts
    self.fontAccess = fontAccess
    let options = Dictionary(uniqueKeysWithValues: zones.map { ($0.name, $0.options) })
    var state = State(options: options, initial: options, kept: options, clockStart: clockStart)
    for zone in zones {
      let identities = (try? zone.options.fonts.map { try fonts.resolve($0, access: .any).0 }) ?? []
      state.fontsInUse[zone.name] = identities
      state.initialFonts[zone.name] = identities
    }
    self.state = Mutex(state)
  }

  /// Applies the end-of-input policy: keep the content, blank every zone, or stop the sign
  /// (the player then blanks it and the program exits 0).
  package func inputEnded() {
    switch onEnd {
    case .keep: break
    case .blank:
      for zone in zoneNames {
        do {
          try enqueue(zone: zone, messages: [], fields: nil, immediately: true, pause: nil)
        } catch {
          reports.warning("stdin: end of input: \(error)")
        }
      }
    case .exit:
      stop.set()
    }
    state.withLock { $0.ended = true }
    stop.wake()
  }

  /// Turns one feed line (plain text, or a JSON content document) into an update, applied
  /// at the next frame: the line read as ``SignCommand/commands(feedLine:)`` reads it for a
  /// session, applied to this feed alone (a sign built by ``SignPlan`` without a session).
  ///
  /// - Throws: ``SignRefusal`` saying why the line changes nothing (a bad field names its
  ///   path: `speed: …`).
  public func handle(_ line: String) throws {
    do {
      for command in try SignCommand.commands(feedLine: line) {
        switch command {
        case .content(let document, _):
          commit(try Feed.zoneDocuments(document).map { try prepare($0) })
        case .notify(let document):
          let made = try notification(try JSONFields(document, path: "notify"))
          state.withLock { $0.notices.append(Notice(notification: made.notification, wakes: made.wakes)) }
        case .dismiss(let id):
          state.withLock { $0.notices.append(Notice(dismiss: id)) }
        default:
          break
        }
      }
    } catch {
      throw SignRefusal(from: error)
    }
    stop.wake()
  }

  /// Applies checked updates together, at the next frame.
  package func commit(_ updates: [Update]) {
    state.withLock { state in
      for update in updates {
        // A fallback made while a value revived the zone (or new content came) is late.
        if update.fallsBack && state.lifetimes[update.zone]?.stale != true { continue }
        state.options[update.zone] = update.options
        var pending = state.pending[update.zone] ?? Pending()
        if let content = update.content {
          pending.content = content
          pending.immediately = update.immediately
        }
        if let pause = update.pause { pending.pause = pause }
        if update.fallsBack {
          state.lifetimes[update.zone]?.stale = true
        } else if update.content != nil && !update.refreshes {
          // New content: live for its lifetime, or for good.
          state.lifetimes[update.zone] = update.lifetime.map { lifetime in
            var live = lifetime
            live.updated = clock.monotonic()
            live.liveMessages = update.options.messages
            return live
          }
        }
        if update.revives { state.lifetimes[update.zone]?.stale = false }
        if update.content != nil && !update.refreshes { state.changedAt[update.zone] = clock.wall() }
        if update.isBase { state.base[update.zone] = update.options }
        if let kept = update.keptOptions { state.kept[update.zone] = kept } else if update.isBase { state.kept[update.zone] = update.options }
        if state.pending[update.zone] == nil { state.order.append(update.zone) }
        state.pending[update.zone] = pending
        state.received += 1
        if let identities = update.fonts { state.fontsInUse[update.zone] = identities }
      }
      // Fonts no zone shows any more, nor would show again after a PUT or reload, go.
      fonts.keep(only: Set(state.fontsInUse.values.joined()).union(state.initialFonts.values.joined()))
    }
    // Values of topics no content names any more go (and the subscriptions with them).
    values.keep(only: Set(placeholderTopics().topics))
    if updates.contains(where: { $0.lifetime != nil }) { watchLifetimes() }
    stop.wake()
    changes.signal()
  }

  /// When (wall time) `zone` last took new content; nil before any since the start.
  package func changedAt(_ zone: String) -> Double? {
    state.withLock { $0.changedAt[zone] }
  }

  /// Replaces every zone's content and options with `zones` (a reloaded config), which must
  /// name the same zones; nothing changes if any zone fails.
  package func reset(to zones: [ZoneSpec]) throws {
    guard zones.map(\.name).sorted() == zoneNames.sorted() else {
      throw SignRefusal.zonesChanged(from: zoneNames, to: zones.map(\.name))
    }
    let previous = state.withLock { ($0.initial, $0.initialFonts) }
    var updates: [Update] = []
    do {
      for zone in zones {
        state.withLock { $0.initial[zone.name] = zone.options }
        var update = try prepare(
          zone: zone.name, messages: zone.options.messages, fields: nil, immediately: true, pause: nil, replacing: true)
        update.isBase = true
        state.withLock { $0.initialFonts[zone.name] = update.fonts ?? [] }
        updates.append(update)
      }
    } catch {
      state.withLock { ($0.initial, $0.initialFonts) = previous }
      throw error
    }
    commit(updates)
  }

  /// The sign's t = 0 in Unix time that `{time}` placeholders count from (moved when the
  /// wall clock is set).
  package var clockStart: Double? { state.withLock { $0.clockStart } }

  /// Each zone's options now (what updates have made of them).
  public var currentOptions: [String: ZoneOptions] { state.withLock { $0.options } }

  /// Each zone's starting options: the config's (or layout's), as last read (a reload
  /// replaces them).
  package var startingOptions: [String: ZoneOptions] { state.withLock { $0.initial } }

  /// Takes the notifications and dismissals lines asked for, in order.
  func drainNotices() -> [Notice] {
    state.withLock { state in
      guard !state.notices.isEmpty else { return [] }
      defer { state.notices.removeAll() }
      return state.notices
    }
  }

  /// Takes what waits to be applied, oldest zone first.
  func drain() -> [(String, Pending)] {
    state.withLock { state in
      let taken = state.order.compactMap { zone in state.pending[zone].map { (zone, $0) } }
      state.pending.removeAll(keepingCapacity: true)
      state.order.removeAll(keepingCapacity: true)
      return taken
    }
  }

  /// Blocks until the first line has been read or input ended.
  package func waitForFirstLine() {
    while !stop.isSet {
      let ready = state.withLock { $0.received > 0 || $0.ended }
      if ready { return }
      SignClock.kernelSleep(0.002)
    }
  }
}

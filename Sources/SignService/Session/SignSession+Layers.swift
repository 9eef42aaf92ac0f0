import Marquee
import SimpleJSON

/// Why each zone shows what it shows: the layers of a sign's content, from the bottom.
///
/// 1. **config**: what the sign started with (the command line, the config, the layout),
///    or the last reload;
/// 2. **program**: the program the schedule (or a person's choice) plays, until its stretch
///    ends;
/// 3. **feed** and 4. **person**, the newer of the two on top: content a feed gives (MQTT's
///    content topics, the groups in their order and the sign's own over them, or `--stdin`
///    lines), merged over what is below, live data never kept; and a person's change over the API or the command line,
///    kept in the state file with until when it holds (the end of the program's stretch, or
///    until changed);
/// 5. **live**: content with a `lifetime` (and its fallback once stale);
/// 6. **notification**: a notification over the zone or the whole sign.
///
/// Power, off hours and the brightness schedule sit over all of them (`dark` in the state).
/// The pump plays the layers 1 to 4 in one commit (``SchedulePump/play(_:at:)``), the feed
/// keeps 5, the controller 6; ``why(zone:at:)`` reads them in the same order, so the
/// frames, `GET /api/state`, the page, MQTT's state topic, `marquee fleet` and a restart all
/// tell one story.
extension SignSession {
  /// A layer of a zone's content.
  public enum Layer: String, Sendable, Equatable {
    case config, program, feed, person, live, notification
  }

  /// Why a zone shows what it shows: the layer on top, what names it (the program), and until
  /// when it holds (nil: until something changes it).
  public struct Why: Sendable, Equatable {
    public var layer: Layer
    public var program: String?
    public var until: Double?
    /// Since when (wall time) it shows (nil: since the sign started).
    public var since: Double?
  }

  /// The layer on top in `zone` at wall time `wall`.
  public func why(zone: String, at wall: Double) -> Why {
    let now = controller.currentTime
    if let showing = controller.sign.notifications.plan.first(where: { ($0.target == nil || $0.target == zone) && $0.start <= now && now < $0.end }) {
      return Why(layer: .notification, until: wall + (showing.end - now), since: wall - (now - showing.start))
    }
    var why = layer(zone: zone, at: wall)
    why.since = feed.changedAt(zone)
    return why
  }

  /// The layer on top of the zone's own content (beneath any notification), what names
  /// it and until when.
  func layer(zone: String, at wall: Double) -> Why {
    if let live = feed.lifetime(of: zone) {
      return Why(layer: .live, until: live.stale ? nil : wall + max(0, live.updated + live.seconds - clock.monotonic()))
    }
    let program = pump.current?.program
    // The top of the layers the pump plays over the program (one order, decided there).
    if let top = layers(above: zone, at: wall).last {
      return top.replacing ? Why(layer: .person, program: program, until: top.until) : Why(layer: .feed, program: program)
    }
    guard let program else { return Why(layer: .config) }
    return Why(layer: .program, program: program, until: pump.stretchEnd(at: wall))
  }

  /// A zone's `why` as the state shows it: `{"layer": "person", "program": "offers", "since":
  /// {moment}, "until": {moment}}`.
  func whyValue(zone: String, at wall: Double) -> JSONValue {
    let why = why(zone: zone, at: wall)
    return .object([
      ("layer", .string(why.layer.rawValue)), ("program", why.program.map { .string($0) } ?? .null),
      ("since", why.since.map(SignSession.moment) ?? .null),
      ("until", why.until.flatMap { $0.isFinite ? SignSession.moment($0) : nil } ?? .null),
    ])
  }
}

extension SignSession {
  /// What each zone shows and why, in a few words (`main: person until 18:00`): for
  /// `systemctl status` and logs.
  public func whySummary(at wall: Double) -> String {
    zones.map { zone in
      let why = why(zone: zone.name, at: wall)
      var words = "\(zone.name): \(why.layer.rawValue)"
      if let until = why.until, until.isFinite { words += " until " + TimeWindow.text(LocalTime.date(at: until).minute) }
      return words
    }.joined(separator: ", ")
  }
}

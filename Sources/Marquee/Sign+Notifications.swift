import MatrixCore

/// Notifications on a sign: each shows over its zone (or the whole sign) while the zone's
/// own content waits under it, then the zone goes on from where it was.
extension Sign {
  /// One stretch a notification shows.
  struct Overlay: Sendable {
    /// The notification's ID.
    var id: Int
    /// The zone's index; nil: the whole sign.
    var target: Int?
    var start: Double
    var end: Double
    /// The notification's content, as a zone the target's size.
    var zone: Zone
    var entering: Transition?
    var leaving: Transition?
    /// The effects' tables, made once (they allocate).
    var context: EffectContext
  }

  /// Why a notification cannot be shown.
  public enum NotificationError: Error, Sendable, Equatable, CustomStringConvertible {
    case noSuchZone(String, zones: [String])
    case full
    /// Its passes would last longer than ``Notification/longest`` (a speed near 0).
    case tooLong(passes: Int, seconds: Double)

    public var description: String {
      switch self {
      case .noSuchZone(let name, let zones): "no zone named '\(name)' (zones: \(zones.joined(separator: ", ")))"
      case .full: "\(NotificationQueue.capacity) notifications are already waiting"
      case .tooLong(let passes, let seconds):
        "passes: \(passes) passes of this content last \(secondsText(seconds)); a notification shows for at most a day (\(Int(Notification.longest)) s): give fewer passes or a higher speed"
      }
    }
  }

  /// A pass of still content that never moves, for `.passes`: this many seconds.
  public static let stillPass = 3.0

  /// A notification laid out for this sign, ready to queue: the layout (the costly part)
  /// done without touching the sign, so a controller can make it outside its lock.
  public struct PreparedNotification: Sendable {
    var notification: Notification
    var zone: Zone
    var seconds: Double
  }

  /// Queues `notification` at sign time `t`; returns its ID.
  ///
  /// - Throws: ``NotificationError`` for a zone the sign does not have, a full queue or
  ///   passes that last longer than a day; ``MarqueeError`` for content that does not fit.
  public mutating func notify(_ notification: Notification, at t: Double) throws -> Int {
    try notify(try prepare(notification), at: t)
  }

  /// Queues a notification ``prepare(_:)`` laid out, at sign time `t`; returns its ID.
  public mutating func notify(_ prepared: PreparedNotification, at t: Double) throws -> Int {
    guard let id = notifications.add(prepared.notification, seconds: prepared.seconds, at: t) else { throw NotificationError.full }
    try replan(at: t, built: [id: prepared.zone])
    return id
  }

  /// Lays `notification` out for this sign and works out how long it shows.
  ///
  /// - Throws: as ``notify(_:at:)``, but never for a full queue.
  public func prepare(_ notification: Notification) throws -> PreparedNotification {
    let (x, y, width, height) = try place(of: notification.zone)
    let zone = try Zone(name: "notification", x: x, y: y, width: width, height: height, content: notification.content)
    var seconds: Double
    switch notification.length {
    case .seconds(let value): seconds = value
    case .passes(let count): seconds = Double(count) * (zone.loopDuration ?? Sign.stillPass)
    }
    if case .passes(let count) = notification.length {
      seconds += (notification.entering?.duration ?? 0) + (notification.leaving?.duration ?? 0)
      guard seconds <= Notification.longest else { throw NotificationError.tooLong(passes: count, seconds: seconds) }
    }
    return PreparedNotification(notification: notification, zone: zone, seconds: seconds)
  }

  /// Dismisses notification `id` (nil: all) at sign time `t`; whether one was.
  @discardableResult
  public mutating func dismiss(_ id: Int?, at t: Double) -> Bool {
    guard notifications.dismiss(id, at: t) else { return false }
    try? replan(at: t)
    return true
  }

  func place(of zone: String?) throws -> (Int, Int, Int, Int) {
    guard let zone else { return (0, 0, width, height) }
    guard let index = zoneIndex(named: zone) else { throw NotificationError.noSuchZone(zone, zones: zones.map(\.name)) }
    return (zones[index].x, zones[index].y, zones[index].width, zones[index].height)
  }

  /// Makes the zones' covers and the overlays again from the queue's plan, at sign time `t`
  /// (stretches before `t` stay as they were). A notification's zone is laid out once: taken
  /// from `built`, or from the overlay it already has.
  mutating func replan(at t: Double, built: [Int: Zone] = [:]) throws {
    for index in zones.indices { zones[index].compact(now: t) }
    let plan = notifications.plan
    for index in zones.indices {
      zones[index].covers.removeAll { $0.end >= t }
      let name = zones[index].name
      for stretch in plan where stretch.end >= t && stretch.end > stretch.start && (stretch.target == nil || stretch.target == name) {
        zones[index].covers.append((max(stretch.start, zones[index].covers.last?.end ?? -.infinity), stretch.end))
      }
    }
    notifications.forget(before: t)
    var made: [Overlay] = []
    for stretch in plan where stretch.end > t {
      guard let notification = notifications.notification(stretch.id) else { continue }
      let (x, y, width, height) = try place(of: notification.zone)
      let zone = try built[stretch.id] ?? overlays.first { $0.id == stretch.id }?.zone
        ?? Zone(name: "notification", x: x, y: y, width: width, height: height, content: notification.content)
      made.append(Overlay(
        id: stretch.id, target: notification.zone.flatMap { zoneIndex(named: $0) }, start: stretch.start, end: stretch.end,
        zone: zone,
        entering: notification.entering, leaving: notification.leaving,
        context: EffectContext(width: width, height: height, seed: notification.content.seed, sprite: notification.content.sprite)))
    }
    overlays = made
  }

  /// The overlay showing over `target` (nil: the whole sign) at `t`, if one does.
  func overlayIndex(target: Int?, at t: Double) -> Int? {
    for index in overlays.indices where overlays[index].target == target && overlays[index].start <= t && t < overlays[index].end {
      return index
    }
    return nil
  }

  /// Draws overlay `index` at `t`: coming in over what lies under it (drawn by `under`, which
  /// stands still meanwhile), its content, and leaving to what lies under it.
  func renderOverlay(
    _ index: Int, at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace,
    under: (inout Frame, inout FrameWorkspace) -> Void
  ) {
    // Used in place, never copied: a copy of a zone copies its contents (allocating).
    let local = t - overlays[index].start, length = overlays[index].end - overlays[index].start
    let entering = overlays[index].entering.map { min($0.duration, length / 2) } ?? 0
    let leaving = overlays[index].leaving.map { min($0.duration, length / 2) } ?? 0
    let size = (overlays[index].zone.width, overlays[index].zone.height)
    if workspace.notificationFrames.count != 2 || workspace.notificationFrames[0].width != size.0
      || workspace.notificationFrames[0].height != size.1
    {
      workspace.notificationFrames = [Frame(width: size.0, height: size.1), Frame(width: size.0, height: size.1)]
      workspace.notificationWorkspaces = [FrameWorkspace()]
    }
    let inside = max(0, min(local - entering, length - entering - leaving))
    overlays[index].zone.render(at: inside, into: &frame, workspace: &workspace.notificationWorkspaces[0])
    let progress: Double, transition: Transition, coming: Bool
    if local < entering, let given = overlays[index].entering {
      (progress, transition, coming) = (local / entering, given, true)
    } else if local > length - leaving, let given = overlays[index].leaving {
      (progress, transition, coming) = ((local - (length - leaving)) / leaving, given, false)
    } else {
      return
    }
    workspace.notificationFrames[0].pixels.assign(frame.pixels)
    under(&workspace.notificationFrames[1], &workspace.notificationWorkspaces[0])
    let (old, new) = coming ? (1, 0) : (0, 1)
    frame.brightness = transition.render(
      from: workspace.notificationFrames[old].pixels, to: workspace.notificationFrames[new].pixels, progress: progress,
      context: overlays[index].context, into: &frame.pixels, workspace: &workspace.notificationWorkspaces[0])
  }

  /// The next time after `t` an overlay starts, ends or changes what it shows.
  func overlayChange(after t: Double) -> Double? {
    var soonest: Double?
    for index in overlays.indices where overlays[index].end > t {
      let (start, end) = (overlays[index].start, overlays[index].end)
      var change = start > t ? start : end
      if start <= t {
        let local = t - start, length = end - start
        let entering = overlays[index].entering.map { min($0.duration, length / 2) } ?? 0
        let leaving = overlays[index].leaving.map { min($0.duration, length / 2) } ?? 0
        if local < entering || local >= length - leaving {
          change = min(change, t + 1e-6)  // a transition moves every frame
        } else {
          change = min(change, start + length - leaving)
          if let next = overlays[index].zone.nextChange(after: local - entering) { change = min(change, start + entering + next) }
        }
      }
      if change < soonest ?? .infinity { soonest = change }
    }
    return soonest
  }
}

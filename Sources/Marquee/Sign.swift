import MatrixCore

/// A whole sign: zones side by side or stacked, each with its own content, composed into
/// one frame.
///
/// Each zone is drawn into its own buffer the size of its rectangle and then copied into the
/// frame, so no zone can ever draw outside its bounds. A frame has one brightness: when a
/// zone is dimmer than another lit zone (a fade), its pixels are dithered to its brightness.
public struct Sign: Timeline {
  public let width: Int
  public let height: Int
  /// The zones, drawn in order (later zones on top where they overlap).
  public internal(set) var zones: [Zone]
  /// The notifications waiting and showing, and when each shows.
  public internal(set) var notifications = NotificationQueue()
  /// What the notifications show, stretch by stretch (made at each change, not per frame).
  var overlays: [Overlay] = []

  /// Why a sign could not be made.
  public struct LayoutError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// Creates a sign; every zone must lie within it and names must be unique.
  public init(width: Int, height: Int, zones: [Zone]) throws(LayoutError) {
    guard !zones.isEmpty else { throw LayoutError(description: "a sign needs at least one zone") }
    var names = Set<String>()
    for zone in zones {
      guard zone.x >= 0, zone.y >= 0, zone.width >= 1, zone.height >= 1,
        zone.x + zone.width <= width, zone.y + zone.height <= height
      else {
        throw LayoutError(description:
          "zone '\(zone.name)' (\(zone.width)x\(zone.height) at \(zone.x),\(zone.y)) does not fit the \(width)x\(height) sign")
      }
      guard names.insert(zone.name).inserted else { throw LayoutError(description: "two zones are named '\(zone.name)'") }
    }
    self.width = width
    self.height = height
    self.zones = zones
  }

  /// A sign with one zone covering it.
  public init(width: Int, height: Int, content: ZoneContent) throws {
    try self.init(width: width, height: height, zones: [Zone(name: "main", x: 0, y: 0, width: width, height: height, content: content)])
  }

  /// Seconds until every zone has completed at least one loop: the longest zone loop, or
  /// `nil` when nothing on the sign moves.
  public var loopDuration: Double? { zones.compactMap(\.loopDuration).max() }

  /// The index of the zone called `name`.
  public func zoneIndex(named name: String) -> Int? {
    zones.firstIndex { $0.name == name }
  }

  public func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace) {
    if let whole = overlayIndex(target: nil, at: t) {
      renderOverlay(whole, at: t, into: &frame, workspace: &workspace) { frame, workspace in
        composeZones(at: t, into: &frame, workspace: &workspace)
      }
      return
    }
    composeZones(at: t, into: &frame, workspace: &workspace)
  }

  /// The zones at `t`, each with the notification that covers it, if one does.
  func composeZones(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace) {
    frame.pixels.clear()
    frame.brightness = 1
    if workspace.zoneFrames.count != zones.count {
      workspace.zoneFrames = zones.map { Frame(width: $0.width, height: $0.height) }
      workspace.zoneWorkspaces = zones.map { _ in FrameWorkspace() }
    }
    var brightest = 0.0
    var anyLit = false
    // Zones are used in place, never copied: a copy of a zone copies its contents.
    for index in zones.indices {
      let (width, height) = (zones[index].width, zones[index].height)
      if workspace.zoneFrames[index].width != width || workspace.zoneFrames[index].height != height {
        workspace.zoneFrames[index] = Frame(width: width, height: height)
      }
      if let overlay = overlayIndex(target: index, at: t) {
        renderOverlay(overlay, at: t, into: &workspace.zoneFrames[index], workspace: &workspace.zoneWorkspaces[index]) { frame, workspace in
          zones[index].render(at: t, into: &frame, workspace: &workspace)
        }
      } else {
        zones[index].render(at: t, into: &workspace.zoneFrames[index], workspace: &workspace.zoneWorkspaces[index])
      }
      if !workspace.zoneFrames[index].pixels.isBlank {
        let level = workspace.zoneFrames[index].brightness
        brightest = max(brightest, level)
        anyLit = true
      }
    }
    for index in zones.indices {
      let level = workspace.zoneFrames[index].brightness
      if anyLit && level < brightest {
        let threshold = level / brightest * 64
        workspace.zoneFrames[index].pixels.keepDithered(below: threshold)
      }
      frame.pixels.draw(workspace.zoneFrames[index].pixels, atX: zones[index].x, y: zones[index].y)
    }
    frame.brightness = anyLit ? brightest : 1
  }

  public func nextChange(after t: Double) -> Double? {
    // A loop, not compactMap(...).min(): the player asks every frame, without allocating.
    var soonest: Double?
    for index in zones.indices {
      if let change = zones[index].nextChange(after: t), change < soonest ?? .infinity { soonest = change }
    }
    if let change = overlayChange(after: t), change < soonest ?? .infinity { soonest = change }
    return soonest
  }

  /// The zone and message under sign pixel (`x`, `y`) at time `t`.
  public func message(atColumn x: Int, row y: Int, time t: Double) -> (zone: String, message: Int)? {
    for zone in zones.reversed() where x >= zone.x && x < zone.x + zone.width && y >= zone.y && y < zone.y + zone.height {
      return zone.message(atColumn: x - zone.x, row: y - zone.y, time: t).map { (zone.name, $0) }
    }
    return nil
  }

  /// Message events of every zone in (`from`, `to`], in time order.
  public func events(from t0: Double, to t1: Double) -> [(zone: String, event: MessageEvent)] {
    zones.flatMap { zone in zone.events(from: t0, to: t1).map { (zone.name, $0) } }
      .sorted { $0.event.time < $1.event.time }
  }
}

import MatrixCore
import Synchronization

/// A sign that changes while it runs: the player draws it while feeds, programs or users
/// replace messages, pause zones and listen to events, from any thread.
///
/// Every change names the sign time it happens at (the player's `t`; ``currentTime`` is the
/// last one drawn), so what the sign shows stays a pure function of time and of the changes.
/// Changes wake a sleeping player, so a still sign costs nothing until it changes.
public final class SignController: Timeline, Sendable {
  public let width: Int
  public let height: Int
  private let state: Mutex<State>
  /// The player's wake-up call (set by whoever runs the player).
  public let wake: StopFlag?

  struct State {
    var sign: Sign
    var lastDrawn = -1.0
    var eventsUpTo = -1.0
    var handler: (@Sendable (String, MessageEvent) -> Void)?
  }

  /// Wraps a sign; `wake` is the flag of the player that draws it.
  public init(sign: Sign, wake: StopFlag? = nil) {
    width = sign.width
    height = sign.height
    state = Mutex(State(sign: sign))
    self.wake = wake
  }

  /// The sign as it is now (a value: later changes do not affect it).
  public var sign: Sign { state.withLock { $0.sign } }

  /// The sign time of the last frame drawn (0 before the first).
  public var currentTime: Double { state.withLock { Self.changeTime(nil, $0) } }

  /// Calls `handler` with each message event, in order, as frames are drawn.
  public func onEvent(_ handler: @escaping @Sendable (_ zone: String, _ event: MessageEvent) -> Void) {
    state.withLock { $0.handler = handler }
  }

  /// Why a change could not be made.
  public enum ChangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sign has no zone of that name; `zones` are the names it has.
    case noSuchZone(String, zones: [String])

    public var description: String {
      switch self {
      case .noSuchZone(let name, let zones): "no zone named '\(name)' (zones: \(zones.joined(separator: ", ")))"
      }
    }
  }

  func zoneIndex(_ name: String?, in sign: Sign) throws(ChangeError) -> Int {
    guard let name else { return 0 }
    guard let index = sign.zoneIndex(named: name) else { throw .noSuchZone(name, zones: sign.zones.map(\.name)) }
    return index
  }

  /// Replaces a zone's messages (the first zone if `zone` is `nil`), keeping its settings.
  /// Returns `false` when they are the same messages (nothing restarts).
  @discardableResult
  public func replaceMessages(
    _ messages: [String], inZone zone: String? = nil, at t: Double? = nil, immediately: Bool = false
  ) throws -> Bool {
    try change(zone: zone, at: t) { zoneValue, time in
      var content = zoneValue.content
      content.messages = messages
      return try zoneValue.replace(content: content, at: time, immediately: immediately)
    }
  }

  /// Replaces a zone's content (messages and settings).
  @discardableResult
  public func replaceContent(
    _ content: ZoneContent, inZone zone: String? = nil, at t: Double? = nil, immediately: Bool = false
  ) throws -> Bool {
    try change(zone: zone, at: t) { try $0.replace(content: content, at: $1, immediately: immediately) }
  }

  /// Shows `notification` over its zone (or the whole sign) from sign time `t` (the last frame
  /// drawn if nil), after those of higher or equal priority; returns its ID.
  ///
  /// - Throws: ``Sign/NotificationError`` or ``MarqueeError``.
  @discardableResult
  public func notify(_ notification: Notification, at t: Double? = nil) throws -> Int {
    // Laid out outside the lock: the frame loop never waits on a large notification's layout.
    let prepared = try state.withLock { $0.sign }.prepare(notification)
    let id = try state.withLock { state in try state.sign.notify(prepared, at: Self.changeTime(t, state)) }
    wake?.wake()
    return id
  }

  /// Dismisses notification `id` (nil: every one); whether one was waiting or showing.
  @discardableResult
  public func dismiss(notification id: Int?, at t: Double? = nil) -> Bool {
    let done = state.withLock { state in state.sign.dismiss(id, at: Self.changeTime(t, state)) }
    if done { wake?.wake() }
    return done
  }

  /// Pauses one zone, or every zone when `zone` is `nil`.
  public func pause(zone: String? = nil, at t: Double? = nil) throws {
    try forZones(zone, at: t) { $0.pause(at: $1) }
  }

  /// Resumes one zone, or every zone when `zone` is `nil`.
  public func resume(zone: String? = nil, at t: Double? = nil) throws {
    try forZones(zone, at: t) { $0.resume(at: $1) }
  }

  /// The sign time a change happens at: `t`, or the last frame drawn, read under the lock
  /// the change itself holds (the lock is not recursive).
  static func changeTime(_ t: Double?, _ state: State) -> Double {
    t ?? max(0, state.lastDrawn)
  }

  func forZones(_ zone: String?, at t: Double?, _ body: (inout Zone, Double) -> Void) throws {
    try state.withLock { state in
      let time = Self.changeTime(t, state)
      if zone == nil {
        for index in state.sign.zones.indices { body(&state.sign.zones[index], time) }
      } else {
        body(&state.sign.zones[try zoneIndex(zone, in: state.sign)], time)
      }
    }
    wake?.wake()
  }

  func change(zone: String?, at t: Double?, _ body: (inout Zone, Double) throws -> Bool) throws -> Bool {
    let changed = try state.withLock { state in
      let time = Self.changeTime(t, state)
      return try body(&state.sign.zones[try zoneIndex(zone, in: state.sign)], time)
    }
    if changed { wake?.wake() }
    return changed
  }

  /// The zone and message under sign pixel (`x`, `y`) at time `t`.
  public func message(atColumn x: Int, row y: Int, time t: Double) -> (zone: String, message: Int)? {
    sign.message(atColumn: x, row: y, time: t)
  }

  public func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace) {
    let (sign, handler, from) = state.withLock { state in
      let from = state.eventsUpTo
      state.lastDrawn = t
      if t > state.eventsUpTo { state.eventsUpTo = t }
      return (state.sign, state.handler, from)
    }
    sign.render(at: t, into: &frame, workspace: &workspace)
    if let handler, t > from {
      for (zone, event) in sign.events(from: from, to: t) { handler(zone, event) }
    }
  }

  public func nextChange(after t: Double) -> Double? {
    sign.nextChange(after: t)
  }
}

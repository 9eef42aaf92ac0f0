// The seam to hardware on an operating system, whose displays fail with errors of many kinds.
// Embedded Swift has no untyped throws: a firmware drives its own display from the frames
// the timelines render (Docs/embedded.md), and builds MatrixCore without this protocol.
#if !hasFeature(Embedded)
/// Something that shows frames: a terminal simulator, a MAX7219 chain, a recorder.
///
/// Displays know nothing of messages or effects: they receive finished frames. The player
/// calls ``show(_:)`` for every frame it renders (recorders need each one) and tells, through
/// `changed`, whether the pixels or brightness differ from the frame before, so a display
/// that costs something per update (a bus, a terminal) can skip frames that change nothing.
public protocol Display {
  /// The number of pixel columns the display shows.
  var width: Int { get }
  /// The number of pixel rows the display shows.
  var height: Int { get }
  /// Whether the display wants every frame even when nothing changed (a frame stream,
  /// a recorder). When `false`, a player may sleep through still periods.
  var wantsEveryFrame: Bool { get }

  /// Shows one frame. `changed` is `false` when it equals the frame shown before.
  mutating func show(_ frame: Frame, changed: Bool) throws
  /// Leaves the display in its resting state (blank by default) and releases what it holds.
  ///
  /// Called once, on normal exit and on signals; it must be safe after a failed `show`.
  mutating func shutdown() throws

  /// Goes dark for a while (an off period), the chips asleep where they can sleep; the next
  /// ``show(_:changed:)`` wakes the display and shows that frame whole. By default, a dark
  /// frame is shown.
  mutating func sleep() throws
  /// Whether the display is asleep: a player then draws nothing until it is woken.
  var isAsleep: Bool { get }
}

extension Display {
  public mutating func sleep() throws {
    try show(Frame(width: width, height: height), changed: true)
  }

  public var isAsleep: Bool { false }
}
#endif

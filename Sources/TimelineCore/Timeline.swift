import MatrixCore

/// What a sign shows over time: a pure function from an instant to a frame.
///
/// A timeline never reads a clock: the player (or a test, or a GIF recorder) asks for the
/// frame at time `t`, in seconds from the start, and the same `t` always gives the same
/// pixels. Implementations draw into a caller-owned frame and workspace so that a player can
/// reuse the same buffers for every frame and allocate nothing per frame.
public protocol Timeline: Sendable {
  /// The width of the frames, in pixels.
  var width: Int { get }
  /// The height of the frames, in pixels.
  var height: Int { get }

  /// Draws the frame at time `t` (seconds, `t >= 0`) into `frame`, which has this
  /// timeline's size. Every pixel of `frame` and its brightness are overwritten.
  func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace)

  /// The first instant after `t` at which the frame may differ from the frame at `t`,
  /// or `nil` if it never changes again. A player sleeps until then when nothing moves.
  func nextChange(after t: Double) -> Double?

  /// The frame at time `t`, in new buffers (convenient in tests; players reuse buffers).
  /// A requirement with a default, so a timeline held as an existential has it too.
  func frame(at t: Double) -> Frame
}

extension Timeline {
  /// The frame at time `t`, in new buffers (convenient in tests; players reuse buffers).
  public func frame(at t: Double) -> Frame {
    var frame = Frame(width: width, height: height)
    var workspace = FrameWorkspace()
    render(at: t, into: &frame, workspace: &workspace)
    return frame
  }
}

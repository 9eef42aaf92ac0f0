import MatrixCore

/// Scratch framebuffers a timeline draws with, owned by whoever renders frames.
///
/// Effects need layers to compose (the old text, the new text, masks, overlays). A player
/// keeps one workspace for the whole run, so these buffers are allocated once, on the first
/// frame, and reused: rendering allocates nothing per frame.
public struct FrameWorkspace: Sendable {
  /// The exiting layer.
  var old = Layer()
  /// The entering layer.
  var new = Layer()
  /// A general-purpose buffer (geometry reads from it while writing the layer).
  var scratch = Framebuffer(width: 0, height: 0)
  /// One frame per zone of a sign.
  package var zoneFrames: [Frame] = []
  /// One workspace per zone of a sign (zones have different sizes).
  package var zoneWorkspaces: [FrameWorkspace] = []
  /// A notification's frame and what lies under it, for its entry and exit.
  package var notificationFrames: [Frame] = []
  /// The notification's own workspace.
  package var notificationWorkspaces: [FrameWorkspace] = []

  /// Creates an empty workspace; buffers grow to the size first asked for.
  public init() {}

  /// Makes `buffer` `width` x `height`, reallocating only when the size changes.
  static func prepare(_ buffer: inout Framebuffer, width: Int, height: Int) {
    if buffer.width != width || buffer.height != height {
      buffer = Framebuffer(width: width, height: height)
    }
  }
}

import Marquee

/// Everything the command line says about one run of the sign.
public struct RunOptions: Sendable, Equatable {
  /// Where frames go.
  public enum Output: String, Sendable, CaseIterable {
    /// The simulated LED sign (dots, in colour) redrawn in place.
    case leds
    /// Plain text frames (`#` and `.`), one after another.
    case ascii
  }

  /// The messages to show.
  public var messages: [String] = []
  /// Sign width in pixels.
  public var width = 64
  /// Sign height in pixels.
  public var height = 8
  /// Frames per second.
  public var fps = 40.0
  /// Stop after this many frames (`nil`: run until interrupted).
  public var frames: Int?
  /// Render without waiting for each frame's time.
  public var noWait = false
  /// Where frames go (`nil`: LEDs on a terminal, text otherwise).
  public var output: Output?
  /// Dark columns between letters.
  public var letterSpacing = 1
  /// How the text moves and where it stands.
  public var marquee = MarqueeSettings()
  /// Whether to colour the simulated LEDs.
  public var color = true

  /// Creates the defaults.
  public init() {}

  /// The largest sign `--width` and `--height` accept.
  public static let maximumWidth = 4096
  /// The largest sign `--width` and `--height` accept.
  public static let maximumHeight = 1024
  /// The highest frame rate accepted.
  public static let maximumFPS = 1000.0
  /// The fastest scroll accepted, in pixels per second.
  public static let maximumSpeed = 100_000.0
}

import FontCore
/// How a horizontal marquee shows its messages.
public struct MarqueeSettings: Sendable, Equatable {
  /// Whether the text scrolls even when it fits (``DisplayMode/scroll``); else it stands
  /// still when it fits and scrolls when it does not (``DisplayMode/auto``).
  public var alwaysScrolls: Bool
  /// Scroll speed in pixels per second.
  public var speed: Double
  /// Dark columns between the end of one message and the start of the next.
  public var gap: Int
  /// The way scrolling text moves.
  public var direction: ScrollDirection
  /// Where still text is placed across the sign.
  public var alignment: HorizontalAlignment
  /// Where the line of text is placed down the sign.
  public var verticalAlignment: VerticalAlignment
  /// Inversion and flips, applied to every frame.
  public var presentation: Presentation

  /// Creates settings; the defaults suit an 8-row sign read from a few metres.
  public init(
    alwaysScrolls: Bool = false, speed: Double = 20, gap: Int = 8, direction: ScrollDirection = .auto,
    alignment: HorizontalAlignment = .start, verticalAlignment: VerticalAlignment = .middle,
    presentation: Presentation = Presentation()
  ) {
    self.alwaysScrolls = alwaysScrolls
    self.speed = speed
    self.gap = gap
    self.direction = direction
    self.alignment = alignment
    self.verticalAlignment = verticalAlignment
    self.presentation = presentation
  }
}

/// Why content could not be turned into a timeline.
public enum MarqueeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The most pixels one zone's content may lay out (its ribbon, or all its cards and
  /// pages together): 2^23, 1 MiB of 1-bit pixels. A few characters may expand to far
  /// more (an icon 4,096 pixels wide named 4,000 times), so the bound is on pixels, not
  /// characters; each notification is a zone's content too.
  public static let maximumContentPixels = 1 << 23

  /// Refuses content of `pixels` laid-out pixels past ``maximumContentPixels``.
  static func checkContent(pixels: Int, _ what: String) throws(MarqueeError) {
    guard pixels > maximumContentPixels else { return }
    throw .contentTooLarge(
      "\(what) lay out to \(pixels) pixels; a zone's content may hold at most \(maximumContentPixels) (1 MiB): fewer or shorter messages, or fewer large icons")
  }

  /// The laid-out content is larger than a framebuffer may be.
  case contentTooLarge(String)
  /// The text's line is taller than the sign (or zone) it must fit.
  case textTallerThanSign(textHeight: Int, signHeight: Int)
  /// A parameter outside what it can take, named with the reason.
  case invalidValue(parameter: String, reason: String)
  /// A message names an icon the renderer's set does not have.
  case unknownIcon(UnknownIcon)

  public var description: String {
    switch self {
    case .contentTooLarge(let reason): "the text is too long to lay out (\(reason))"
    case .textTallerThanSign(let text, let sign):
      "the text is \(text) pixels tall but the sign is \(sign) pixels tall; use a smaller font or a taller sign"
    case .invalidValue(let parameter, let reason): "\(parameter): \(reason)"
    case .unknownIcon(let unknown): unknown.description
    }
  }
}

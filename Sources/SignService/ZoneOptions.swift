import BitmapFonts
import Marquee

/// What one zone shows and how: its messages and exactly the options the catalog lets a
/// zone take (a layout's or config's zone, a feed line, the API, a program), nothing of
/// the sign's own. The command line's values are every zone's defaults.
public struct ZoneOptions: Sendable, Equatable {
  /// The messages to show.
  public var messages: [String] = []
  /// How messages are shown.
  public var mode = DisplayMode.auto
  /// Scroll speed in pixels per second.
  public var speed = 20.0
  /// Dark columns between the end of one message and the start of the next.
  public var gap = 8
  /// The way scrolling text moves.
  public var direction = ScrollDirection.auto
  /// Where still text is placed across the zone.
  public var alignment = HorizontalAlignment.start
  /// Where the line of text is placed down the zone.
  public var verticalAlignment = VerticalAlignment.middle
  /// Inversion and flips, applied to every frame.
  public var presentation = Presentation()
  /// Cycle mode: seconds each message stands.
  public var dwell = 2.0
  /// Cycle mode: the entry effects, `name[+name...]`.
  public var entry = "scroll-up"
  /// Cycle mode: the exit effects (`nil`: the entry effects' exit halves).
  public var exit: String?
  /// Cycle mode: seconds a transition takes.
  public var duration = 0.5
  /// Cycle mode: how transitions follow time.
  public var easing = Easing.linear
  /// The seed of the random effect.
  public var seed: UInt64 = 0x5EED
  /// Fonts, most preferred first: built-in names, font names or paths.
  public var fonts = ["5x7"]
  /// Whether the fonts are used as given or the largest that fits the zone.
  public var fit = ZoneContent.FontFit.none
  /// Dark columns between letters.
  public var letterSpacing = 1
  /// Pages mode: dark rows between lines.
  public var lineSpacing = 0
  /// The direction messages read in: from each one's first letter by default.
  public var textDirection = TextDirection.auto
  /// The LED colour: a name of ``LEDColor`` or `#rrggbb` (RGB boards, the simulator, GIFs).
  public var ledColor = "red"

  /// The defaults.
  public init() {}
}

import FontCore
import MatrixCore

/// What a zone shows and how: everything needed to build its timeline from a list of
/// messages, so the messages can be replaced while the sign runs.
///
/// Each setting exists once: how the text moves (``Motion``, with the settings of that
/// motion only), how it looks (``Style``, the same for every motion), and how one content
/// gives way to the next (``transition``, between messages in cycle mode and for every
/// live update), so a content cannot say two things.
public struct ZoneContent: Sendable, Equatable {
  /// How messages move.
  public enum Motion: Sendable, Equatable {
    /// Still if the text fits, a scrolling ribbon if not.
    case auto(Ribbon = Ribbon())
    /// Always a scrolling ribbon.
    case scroll(Ribbon = Ribbon())
    /// One message at a time, with the content's transition between them.
    case cycle(Cycle = Cycle())

    /// The ribbon's settings, for the motions that scroll as one ribbon.
    public var ribbon: Ribbon? {
      switch self {
      case .auto(let ribbon), .scroll(let ribbon): ribbon
      case .cycle: nil
      }
    }

    /// Whether messages take turns.
    public var isCycle: Bool {
      if case .cycle = self { return true }
      return false
    }
  }

  /// How a ribbon scrolls: every message in one strip.
  public struct Ribbon: Sendable, Equatable {
    /// Pixels per second.
    public var speed: Double
    /// Dark columns between the end of one message and the start of the next.
    public var gap: Int
    /// The way the text moves.
    public var direction: ScrollDirection

    public init(speed: Double = 20, gap: Int = 8, direction: ScrollDirection = .auto) {
      self.speed = speed
      self.gap = gap
      self.direction = direction
    }
  }

  /// How messages take turns.
  public struct Cycle: Sendable, Equatable {
    /// Seconds a message stands still (twice for one that scrolls: at its start and end).
    public var dwell: Double
    /// Pixels per second for a message wider than the zone.
    public var speed: Double
    /// With pages: each message wraps into lines and the lines into pages as tall as the
    /// zone, and the pages take the turns (翻页); without, each message is one line.
    public var pages: Pages?

    public init(dwell: Double = 2, speed: Double = 20, pages: Pages? = nil) {
      self.dwell = dwell
      self.speed = speed
      self.pages = pages
    }
  }

  /// How messages wrap into pages.
  public struct Pages: Sendable, Equatable {
    /// Dark rows between lines.
    public var lineSpacing: Int

    public init(lineSpacing: Int = 0) {
      self.lineSpacing = lineSpacing
    }
  }

  /// How the text looks, whatever the motion.
  public struct Style: Sendable, Equatable {
    /// Fonts and letter spacing.
    public var renderer: TextRenderer
    /// Where text that fits stands across the zone.
    public var alignment: HorizontalAlignment
    /// Where the line stands down the zone.
    public var verticalAlignment: VerticalAlignment
    /// Inversion and flips, applied to every frame.
    public var presentation: Presentation
    /// Whether the renderer's fonts are used as given or the largest that fits the zone.
    public var fit: FontFit

    public init(
      renderer: TextRenderer = TextRenderer(), alignment: HorizontalAlignment = .start,
      verticalAlignment: VerticalAlignment = .middle, presentation: Presentation = Presentation(), fit: FontFit = .none
    ) {
      self.renderer = renderer
      self.alignment = alignment
      self.verticalAlignment = verticalAlignment
      self.presentation = presentation
      self.fit = fit
    }

    /// The renderer for an area `height` pixels tall: with ``FontFit/shrink``, the largest
    /// font of the chain whose line fits comes first, and fonts taller than the area go.
    public func renderer(forHeight height: Int) -> TextRenderer {
      guard fit == .shrink else { return renderer }
      var fitted = renderer
      fitted.fonts = renderer.fonts.fitting(height: height)
      return fitted
    }
  }

  /// How a zone's fonts meet its height.
  public enum FontFit: String, Sendable, CaseIterable {
    /// The fonts as given: the first font's line must fit.
    case none
    /// The largest font of the chain whose line fits the zone's height.
    case shrink
  }

  /// The messages.
  public var messages: [String]
  /// How they move.
  public var motion: Motion
  /// How they look.
  public var style: Style
  /// How one message gives way to the next in cycle mode, and how new content replaces
  /// this one when the zone is updated.
  public var transition: Transition
  /// The seed of the random effects' order.
  public var seed: UInt64
  /// The sprite of the sprite effect.
  public var sprite: Sprite
  /// The Unix time of the sign's `t = 0`, for time placeholders in messages
  /// (`{time:%H:%M}`); `nil` leaves placeholders as written.
  public var epoch: Double?

  /// Creates content; the defaults are a still line of the built-in font that scrolls when
  /// it does not fit.
  public init(
    messages: [String], motion: Motion = .auto(), style: Style = Style(), transition: Transition = .scrollUp,
    seed: UInt64 = 0x5EED, sprite: Sprite = .pacman
  ) {
    self.messages = messages
    self.motion = motion
    self.style = style
    self.transition = transition
    self.seed = seed
    self.sprite = sprite
  }

  /// Builds the timeline for a `width` x `height` area.
  ///
  /// - Throws: ``MarqueeError/unknownIcon(_:)`` when a message names an icon the renderer's
  ///   set lacks, besides the errors of laying the text out.
  public func makeTimeline(width: Int, height: Int) throws(MarqueeError) -> any ZoneTimeline {
    var content = self
    content.style.renderer = style.renderer(forHeight: height)
    content.style.fit = .none
    return try content.makeFittedTimeline(width: width, height: height)
  }

  func makeFittedTimeline(width: Int, height: Int) throws(MarqueeError) -> any ZoneTimeline {
    let templates = messages.map(TextTemplate.init)
    let icons = style.renderer.fonts.icons
    for template in templates {
      for name in template.iconNames where icons[name] == nil {
        throw .unknownIcon(icons.unknown(name))
      }
    }
    #if !hasFeature(Embedded)
      // Text of the time: laid out again as it changes (not in an Embedded Swift build,
      // where the time's placeholders read as plain text).
      if let epoch, templates.contains(where: { $0.isDynamic }) {
        var plain = self
        plain.epoch = nil
        return try TemplateTimeline(content: plain, width: width, height: height, epoch: epoch)
      }
    #endif
    // Text without placeholders of the time: its braces and icons, once.
    let messages = templates.map { $0.expand(at: 0) }
    switch motion {
    case .auto(let ribbon), .scroll(let ribbon):
      let settings = MarqueeSettings(
        alwaysScrolls: motion == .scroll(ribbon), speed: ribbon.speed, gap: ribbon.gap, direction: ribbon.direction,
        alignment: style.alignment, verticalAlignment: style.verticalAlignment, presentation: style.presentation)
      return try RibbonTimeline(messages: messages, renderer: style.renderer, width: width, height: height, settings: settings)
    case .cycle(let cycle):
      let settings = CycleSettings(
        dwell: cycle.dwell, transition: transition, speed: cycle.speed, alignment: style.alignment,
        verticalAlignment: style.verticalAlignment, presentation: style.presentation, seed: seed, sprite: sprite)
      if let pages = cycle.pages {
        return try CycleTimeline(
          pagesOf: messages, renderer: style.renderer, width: width, height: height, lineSpacing: pages.lineSpacing, settings: settings)
      }
      return try CycleTimeline(messages: messages, renderer: style.renderer, width: width, height: height, settings: settings)
    }
  }
}

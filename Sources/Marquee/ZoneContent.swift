import BitmapFonts
import MatrixCore

/// What a zone shows and how: everything needed to build its timeline from a list of
/// messages, so the messages can be replaced while the sign runs.
public struct ZoneContent: Sendable, Equatable {
  /// How messages are shown.
  public enum Mode: String, Sendable, CaseIterable {
    /// Still if the text fits, a scrolling ribbon if not.
    case auto
    /// Always a scrolling ribbon.
    case scroll
    /// One message at a time, with transitions.
    case cycle
  }

  /// The messages.
  public var messages: [String]
  /// How they are shown.
  public var mode: Mode
  /// Fonts and letter spacing.
  public var renderer: TextRenderer
  /// Ribbon settings (auto and scroll modes; also alignment and presentation for all).
  public var marquee: MarqueeSettings
  /// Cycle settings (cycle mode; its transition also bridges live updates).
  public var cycle: CycleSettings
  /// The Unix time of the sign's `t = 0`, for time placeholders in messages
  /// (`{time:%H:%M}`); `nil` leaves placeholders as written.
  public var epoch: Double?

  /// Creates content.
  public init(
    messages: [String], mode: Mode = .auto, renderer: TextRenderer = TextRenderer(),
    marquee: MarqueeSettings = MarqueeSettings(), cycle: CycleSettings = CycleSettings()
  ) {
    self.messages = messages
    self.mode = mode
    self.renderer = renderer
    self.marquee = marquee
    self.cycle = cycle
  }

  /// Builds the timeline for a `width` x `height` area.
  public func makeTimeline(width: Int, height: Int) throws(MarqueeError) -> any ZoneTimeline {
    if let epoch, messages.contains(where: { TextTemplate($0).isDynamic }) {
      var plain = self
      plain.epoch = nil
      return try TemplateTimeline(content: plain, width: width, height: height, epoch: epoch)
    }
    switch mode {
    case .auto, .scroll:
      var settings = marquee
      settings.mode = mode == .scroll ? .scroll : .auto
      return try RibbonTimeline(messages: messages, renderer: renderer, width: width, height: height, settings: settings)
    case .cycle:
      return try CycleTimeline(messages: messages, renderer: renderer, width: width, height: height, settings: cycle)
    }
  }
}

import FontCore
import MatrixCore

/// The horizontal marquee: text that fits stands still; text that does not scrolls as a
/// seamless ribbon (the messages one after another, each followed by a gap, wrapping from
/// the last back to the first).
///
/// The scroll position at time `t` is `floor(speed * t)` pixels: a pure function of `t`, so
/// frames do not depend on the frame rate and never drift.
///
/// Messages that read right to left (Arabic, Hebrew) make a ribbon that reads that way:
/// the first message on the right, the next to its left, scrolling towards the right
/// (unless the settings say otherwise), the first message's start at the sign's right edge.
public final class RibbonTimeline: Timeline {
  public let width: Int
  public let height: Int
  /// The ribbon: every message followed by the gap, one period of the loop.
  public let ribbon: Framebuffer
  /// Where each message starts and ends on the ribbon, in ribbon columns.
  public let segments: [Range<Int>]
  /// Whether the content scrolls (it does not fit) or stands still.
  public let scrolls: Bool
  /// The settings the timeline was made with, its direction resolved (never
  /// ``ScrollDirection/auto``).
  public let settings: MarqueeSettings
  /// Whether the ribbon reads right to left: the messages from right to left.
  public let readsRightToLeft: Bool
  /// The ribbon column at the sign's left edge before it moves.
  let origin: Int
  /// The ribbon followed by its own first columns (enough to fill the sign), so a window of
  /// the sign's width never has to wrap.
  let loop: Framebuffer
  /// The column of the ribbon's left edge when still.
  let stillX: Int
  /// The row of the ribbon's top edge.
  let topY: Int
  /// Animated icons, in ribbon columns and rows.
  let animations: [TextRenderer.PlacedAnimation]

  /// Lays out `messages` for a `width` x `height` sign.
  ///
  /// - Throws: ``MarqueeError/contentTooLarge(_:)`` when the ribbon would be wider than a
  ///   framebuffer may be.
  public init(
    messages: [String], renderer: TextRenderer, width: Int, height: Int,
    settings: MarqueeSettings = MarqueeSettings()
  ) throws(MarqueeError) {
    self.width = width
    self.height = height
    let layouts = messages.map(renderer.layout)
    // The ribbon reads right to left when its messages do (those without letters aside).
    let rightToLeft = layouts.contains { $0.direction == .rtl } && !layouts.contains { $0.direction == .ltr }
    var settings = settings
    settings.direction = settings.direction.resolved(rightToLeft: rightToLeft)
    self.settings = settings
    self.readsRightToLeft = rightToLeft
    let lineHeight = layouts.map { $0.height }.max() ?? renderer.lineHeight
    guard lineHeight <= height else { throw .textTallerThanSign(textHeight: lineHeight, signHeight: height) }
    let gap = settings.gap
    var contentWidth = 0
    for (index, layout) in layouts.enumerated() {
      contentWidth += layout.width + (index > 0 ? gap : 0)
    }
    let period = contentWidth + gap
    let scrolls = settings.alwaysScrolls || contentWidth > width
    let ribbonWidth = scrolls ? max(period, 1) : contentWidth
    if let problem = Framebuffer.validateSize(width: ribbonWidth + (scrolls ? width : 0), height: lineHeight) {
      throw .contentTooLarge(problem)
    }
    try MarqueeError.checkContent(pixels: ribbonWidth * lineHeight, "the messages")
    var ribbon = Framebuffer(width: ribbonWidth, height: lineHeight)
    var segments: [Range<Int>] = []
    var animations: [TextRenderer.PlacedAnimation] = []
    // Left to right: each message then its gap. Right to left, the mirror image: each
    // message's gap on its left, the first message last.
    var x = rightToLeft ? ribbonWidth : 0
    for layout in layouts {
      let strip = renderer.draw(layout)
      if rightToLeft { x -= layout.width }
      // Lines of different heights share the baseline: align their bottoms.
      ribbon.draw(strip, atX: x, y: lineHeight - strip.height, mode: .or)
      animations += layout.animations.map { $0.moved(x, lineHeight - strip.height) }
      segments.append(x..<(x + layout.width))
      x += rightToLeft ? -gap : layout.width + gap
    }
    // A right-to-left ribbon starts with its first message's start at the right edge.
    origin = rightToLeft && scrolls ? ((ribbonWidth - width) % ribbonWidth + ribbonWidth) % ribbonWidth : 0
    self.ribbon = ribbon
    self.animations = animations
    var loop = Framebuffer(width: scrolls ? ribbon.width + width : 0, height: scrolls ? ribbon.height : 0)
    if scrolls {
      var x = 0
      while x < loop.width {
        loop.draw(ribbon, atX: x, y: 0)
        x += ribbon.width
      }
    }
    self.loop = loop
    self.segments = segments
    self.scrolls = scrolls
    self.stillX = settings.alignment.offset(contentWidth: contentWidth, areaWidth: width, rightToLeft: rightToLeft)
    self.topY = settings.verticalAlignment.offset(
      contentHeight: lineHeight, areaHeight: height)
  }

  /// The scroll position at time `t`: whole pixels moved since the start.
  public func position(at t: Double) -> Int {
    guard scrolls, settings.speed > 0, t > 0 else { return 0 }
    // A tiny epsilon keeps i/fps * speed on the integer it means (3 * 0.1 * 10 = 2.9999…).
    let travelled = settings.speed * t + 1e-9
    guard travelled.isFinite else { return 0 }
    let whole = travelled.rounded(.down)
    // Below 2^31 pixels (years at a sign's speeds) an integer remainder, which costs a
    // fraction of the floating-point one; past it, wrapped before the conversion: exact
    // (whole pixels below 2^53), and an `Int` of 32 bits (a 32-bit Pi OS, a microcontroller)
    // never sees years of travel. Both give the same position.
    if whole < 2_147_483_647 { return Int(whole) % ribbon.width }
    return Int(whole.truncatingRemainder(dividingBy: Double(ribbon.width)))
  }

  /// The ribbon column shown at the sign's left edge at time `t` (when scrolling).
  public func ribbonOffset(at t: Double) -> Int {
    let position = position(at: t)
    let period = ribbon.width
    switch settings.direction {
    case .left, .auto: return (origin + position) % period
    case .right: return ((origin - position) % period + period) % period
    }
  }

  public func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace) {
    frame.brightness = 1
    if !scrolls || loop.height < height { frame.pixels.clear() }
    defer {
      if !settings.presentation.isIdentity {
        settings.presentation.apply(to: &frame.pixels, scratch: &workspace.scratch)
      }
    }
    guard scrolls else {
      frame.pixels.draw(ribbon, atX: stillX, y: topY)
      if !animations.isEmpty { IconAnimation.draw(animations, atX: stillX, y: topY, time: t, into: &frame.pixels) }
      return
    }
    let offset = ribbonOffset(at: t)
    frame.pixels.copyWindow(of: loop, sourceX: offset, sourceY: 0, toY: topY, rows: loop.height)
    guard !animations.isEmpty else { return }
    // The window shows the ribbon from `offset`, wrapping: each icon where it falls, and
    // again a period further on while that is still on the sign.
    var shift = -offset
    while shift < width {
      IconAnimation.draw(animations, atX: shift, y: topY, time: t, into: &frame.pixels)
      shift += ribbon.width
    }
  }

  public func nextChange(after t: Double) -> Double? {
    guard animations.isEmpty else { return IconAnimation.earlier(scrollChange(after: t), IconAnimation.nextChange(animations, after: t)) }
    return scrollChange(after: t)
  }

  /// The next time the scroll moves a column.
  func scrollChange(after t: Double) -> Double? {
    guard scrolls, settings.speed > 0 else { return nil }
    let travelled = (settings.speed * max(0, t) + 1e-9).rounded(.down)
    return (travelled + 1) / settings.speed
  }

  /// The message under column `x` of the sign at time `t`, or `nil` over a gap.
  public func message(atColumn x: Int, time t: Double) -> Int? {
    guard x >= 0, x < width else { return nil }
    let column: Int
    if scrolls {
      column = (ribbonOffset(at: t) + x) % ribbon.width
    } else {
      column = x - stillX
    }
    return segments.firstIndex { $0.contains(column) }
  }
}

import FontCore
import MatrixCore

/// A message prepared for an area: its strip, and how it stands when it arrives and when
/// it leaves.
///
/// A message that fits stands aligned in the area and its arrival and departure look the
/// same. A wider message arrives showing its start and leaves showing its end, scrolling
/// across in between: towards the left, or towards the right for a message that reads
/// right to left (its start is on the right).
public struct MessageCard: Sendable {
  /// The message laid out one line tall.
  public let strip: Framebuffer
  /// The area as the message arrives.
  public let arrival: Framebuffer
  /// The area as the message leaves.
  public let departure: Framebuffer
  /// The columns the message scrolls across (0 when it fits).
  public let scrollDistance: Int
  /// The row of the strip's top edge in the area.
  public let top: Int
  /// The column of the strip's left edge in the area when the message fits (0 when it
  /// scrolls, at its arrival).
  public let left: Int
  /// Animated icons of the strip, in strip columns and rows.
  public var animations: [TextRenderer.PlacedAnimation] = []
  /// Whether the message reads right to left (it scrolls towards the right).
  public let readsRightToLeft: Bool

  /// Prepares `strip` for a `width` x `height` area; `rightToLeft` says the message reads
  /// right to left.
  public init(
    strip: Framebuffer, width: Int, height: Int, alignment: HorizontalAlignment,
    verticalAlignment: VerticalAlignment, rightToLeft: Bool = false
  ) {
    self.strip = strip
    readsRightToLeft = rightToLeft
    top = verticalAlignment.offset(contentHeight: strip.height, areaHeight: height)
    var arrival = Framebuffer(width: width, height: height)
    left = strip.width <= width ? alignment.offset(contentWidth: strip.width, areaWidth: width, rightToLeft: rightToLeft) : 0
    scrollDistance = max(0, strip.width - width)
    if strip.width <= width {
      arrival.draw(strip, atX: left, y: top)
      self.arrival = arrival
      departure = arrival
    } else {
      let start = rightToLeft ? width - strip.width : 0
      arrival.draw(strip, atX: start, y: top)
      var departure = Framebuffer(width: width, height: height)
      departure.draw(strip, atX: rightToLeft ? 0 : width - strip.width, y: top)
      self.arrival = arrival
      self.departure = departure
    }
  }

  /// The column of the strip's left edge when the message has scrolled `offset` columns.
  func stripX(scrolledBy offset: Int) -> Int {
    if scrollDistance == 0 { return left }
    return readsRightToLeft ? offset - scrollDistance : -offset
  }

  /// Draws the message scrolled `offset` columns into `area` (which it overwrites).
  func draw(scrolledBy offset: Int, into area: inout Framebuffer) {
    area.clear()
    area.draw(strip, atX: stripX(scrolledBy: offset), y: top)
  }
}

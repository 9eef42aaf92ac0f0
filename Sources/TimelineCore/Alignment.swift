/// Where text that fits is placed across the sign.
public enum HorizontalAlignment: String, Sendable, CaseIterable {
  /// Where the text's reading starts: left for English or Chinese, right for Arabic or
  /// Hebrew (the default).
  case start
  case left, center, right
  /// Where the text's reading ends: right for English, left for Arabic.
  case end

  /// The column at which content `contentWidth` wide starts in an area `areaWidth` wide;
  /// `rightToLeft` says which way the content reads, for ``start`` and ``end``.
  public func offset(contentWidth: Int, areaWidth: Int, rightToLeft: Bool = false) -> Int {
    switch self {
    case .left: 0
    case .center: (areaWidth - contentWidth) / 2
    case .right: areaWidth - contentWidth
    case .start: rightToLeft ? areaWidth - contentWidth : 0
    case .end: rightToLeft ? 0 : areaWidth - contentWidth
    }
  }
}

/// Where a line of text is placed down the sign.
public enum VerticalAlignment: String, Sendable, CaseIterable {
  case top, middle, bottom

  /// The row at which content `contentHeight` tall starts in an area `areaHeight` tall.
  public func offset(contentHeight: Int, areaHeight: Int) -> Int {
    switch self {
    case .top: 0
    case .middle: (areaHeight - contentHeight) / 2
    case .bottom: areaHeight - contentHeight
    }
  }
}

/// The way scrolling text moves.
public enum ScrollDirection: String, Sendable, CaseIterable {
  /// The way the text reads (the default): towards the left for English or Chinese,
  /// towards the right for Arabic or Hebrew. A timeline resolves it to one of the others.
  case auto
  /// Text moves towards the left, entering from the right (the way English reads).
  case left
  /// Text moves towards the right, entering from the left (the way Arabic reads).
  case right

  /// This direction for content that reads right to left or not: ``auto`` made concrete.
  public func resolved(rightToLeft: Bool) -> ScrollDirection {
    self == .auto ? (rightToLeft ? .right : .left) : self
  }
}

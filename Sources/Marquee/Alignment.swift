/// Where text that fits is placed across the sign.
public enum HorizontalAlignment: String, Sendable, CaseIterable {
  case left, center, right

  /// The column at which content `contentWidth` wide starts in an area `areaWidth` wide.
  public func offset(contentWidth: Int, areaWidth: Int) -> Int {
    switch self {
    case .left: 0
    case .center: (areaWidth - contentWidth) / 2
    case .right: areaWidth - contentWidth
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
  /// Text moves towards the left, entering from the right (the way one reads).
  case left
  /// Text moves towards the right.
  case right
}

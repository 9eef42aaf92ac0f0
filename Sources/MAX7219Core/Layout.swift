/// A corner of a grid or panel: where a chain of modules or LEDs starts.
public enum Corner: String, Sendable, CaseIterable {
  case topLeft = "top-left", topRight = "top-right"
  case bottomLeft = "bottom-left", bottomRight = "bottom-right"

  /// Whether the corner is on the right side.
  public var isRight: Bool { self == .topRight || self == .bottomRight }
  /// Whether the corner is at the bottom.
  public var isBottom: Bool { self == .bottomLeft || self == .bottomRight }
}

/// Whether a chain runs along rows or down columns.
public enum ChainDirection: String, Sendable, CaseIterable {
  case rows, columns
}

/// The order of a chain through a grid of `columns` x `rows` places: where it starts, which
/// way it runs, and whether every other line runs back (serpentine, or zigzag).
public struct ChainOrder: Sendable, Equatable {
  /// Where the chain starts.
  public var start: Corner
  /// Along rows or down columns.
  public var direction: ChainDirection
  /// Whether every other row (or column) runs back the other way.
  public var serpentine: Bool

  /// Creates an order.
  public init(start: Corner, direction: ChainDirection, serpentine: Bool) {
    self.start = start
    self.direction = direction
    self.serpentine = serpentine
  }

  /// The place (column, row) of the `index`-th element of the chain.
  public func place(_ index: Int, columns: Int, rows: Int) -> (column: Int, row: Int) {
    switch direction {
    case .rows:
      let step = index / columns, along = index % columns
      let row = start.isBottom ? rows - 1 - step : step
      let reversed = start.isRight != (serpentine && step % 2 == 1)
      return (reversed ? columns - 1 - along : along, row)
    case .columns:
      let step = index / rows, along = index % rows
      let column = start.isRight ? columns - 1 - step : step
      let reversed = start.isBottom != (serpentine && step % 2 == 1)
      return (column, reversed ? rows - 1 - along : along)
    }
  }
}

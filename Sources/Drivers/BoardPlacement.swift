import SimpleJSON

/// The one placement model of board files: units of one size (modules, backpacks, panels)
/// in a `"grid": {"columns", "rows"}`, reached by the data in the order of
/// `"chain": {"start", "direction", "serpentine"}`. Every family reads it with this; the
/// families whose units may stand anywhere (HT16K33 backpacks, LED panels) also take an
/// explicit list of units with `x` and `y`, in data order.
public struct BoardPlacement: Sendable, Equatable {
  /// Units across and down.
  public var columns: Int, rows: Int
  /// The order the data reaches them.
  public var chain: ChainOrder

  /// Reads `grid` and `chain` of a board file; `nil` when it has neither (a `chain` alone
  /// is one unit).
  ///
  /// - Parameters:
  ///   - columnRange, rowRange: the grid sizes the family takes.
  ///   - chain: the order when the file gives no `chain` (each family's usual wiring).
  static func decode(
    _ fields: JSONFields, columnRange: ClosedRange<Int>, rowRange: ClosedRange<Int>, chain defaults: ChainOrder,
    columnsRequired: Bool = false
  ) throws(JSONFieldError) -> BoardPlacement? {
    let grid = try fields.object("grid"), chainObject = try fields.object("chain")
    guard grid != nil || chainObject != nil else { return nil }
    var columns = 1, rows = 1
    if let grid {
      try grid.rejectUnknownKeys(["columns", "rows"])
      columns = columnsRequired ? try grid.requiredInteger("columns", in: columnRange) : try grid.integer("columns", in: columnRange) ?? 1
      rows = try grid.integer("rows", in: rowRange) ?? 1
    } else if columnsRequired {
      throw fields.missing("grid")
    }
    var chain = defaults
    if let object = chainObject {
      try object.rejectUnknownKeys(["start", "direction", "serpentine"])
      chain.start = try object.choice("start", Corner.allCases.map(\.rawValue)).flatMap(Corner.init) ?? chain.start
      chain.direction = try object.choice("direction", ChainDirection.allCases.map(\.rawValue)).flatMap(ChainDirection.init) ?? chain.direction
      chain.serpentine = try object.bool("serpentine") ?? defaults.serpentine
    }
    return BoardPlacement(columns: columns, rows: rows, chain: chain)
  }

  /// The top-left pixel of each unit, `width` x `height` pixels, in data order.
  public func places(unitWidth width: Int, unitHeight height: Int) -> [(x: Int, y: Int)] {
    (0..<(columns * rows)).map { index in
      let place = chain.place(index, columns: columns, rows: rows)
      return (place.column * width, place.row * height)
    }
  }

  /// The error for a file that gives both forms.
  static func bothGiven(_ list: String) -> JSONFieldError {
    JSONFieldError(field: list, reason: "give the units either as '\(list)' or as 'grid' and 'chain', not both")
  }
}

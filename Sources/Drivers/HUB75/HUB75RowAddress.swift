/// How a panel picks the row pair to light from its A-E lines, under hzeller's
/// `--led-row-addr-type` kinds (0 to 5).
public enum HUB75RowAddress: String, Sendable, CaseIterable {
  /// 0: the row pair's number on A (lowest bit) to E, only the lines the count needs.
  case direct
  /// 1: a shift register of one stage per row pair (AB panels): A clocks, B is the data, and
  /// the row whose stage holds a 0 lights; written with one extra clock at the end.
  case abShift = "ab-shift"
  /// 2: one line per row pair, A to D, low for the one that lights (1:4 outdoor panels).
  case abcdLine = "abcd-line"
  /// 3: a shift register clocked by A with the data on C, the lit row's stage high;
  /// written before every bitplane.
  case abcShift = "abc-shift"
  /// 4: the SM5266 row driver: 8 stages shifted in on A (clock) from B (data), high bit
  /// first, while C (enable) is high; D and E pick the group of 8 row pairs.
  case sm5266
  /// 5: a walking 1: one clock on A per row change while B (enable) is high, the data on C
  /// high only for row pair 0 (128x64 ABC panels).
  case b707

  /// hzeller's number for the kind.
  public var hzellerNumber: Int { HUB75RowAddress.allCases.firstIndex(of: self)! }

  /// The lines a direct address of `rowPairs` row pairs needs: A, and B above 2, C above 4,
  /// D above 8, E above 16 (the lines 0 to this count − 1).
  static func directLineCount(_ rowPairs: Int) -> Int {
    var count = 1
    while count < 5 && rowPairs > 1 << count { count += 1 }
    return count
  }

  /// The address lines (indexes 0-4 for A-E) the kind drives for `rowPairs` row pairs.
  public func lines(rowPairs: Int) -> [Int] {
    switch self {
    case .direct: Array(0..<HUB75RowAddress.directLineCount(rowPairs))
    case .abShift: [0, 1]
    case .abcdLine: [0, 1, 2, 3]
    case .abcShift: [0, 2]
    case .sm5266: [0, 1, 2] + (rowPairs > 8 ? [3] : []) + (rowPairs > 16 ? [4] : [])
    case .b707: [0, 1, 2]
    }
  }

  /// The row pair counts the kind can address, as a reason when `rowPairs` is not one.
  public func misfit(rowPairs: Int) -> String? {
    switch self {
    case .direct, .abShift, .abcShift, .sm5266, .b707:
      rowPairs <= 32 ? nil : "it addresses at most 32 row pairs, and the panel has \(rowPairs)"
    case .abcdLine:
      rowPairs <= 4 ? nil : "it addresses at most 4 row pairs (one line each), and the panel has \(rowPairs)"
    }
  }

  /// Whether the panel's row circuit holds a state (a shift register of row stages), which
  /// comes up as it will at power-up.
  public var holdsRowState: Bool { self != .direct && self != .abcdLine }

  /// Whether the lines are written again before every bitplane, not only when the row
  /// changes.
  public var rewritesEveryPlane: Bool { self == .abcShift }

  /// Appends the register writes that select `row` of `rowPairs` (the lines `a`-`e` as
  /// GPIO masks) to `program`, as set and clear words.
  func select(_ row: Int, rowPairs: Int, lines a: [UInt32], into program: inout HUB75Program) {
    let (lineA, lineB, lineC) = (a[0], a[1], a[2])
    switch self {
    case .direct:
      var high: UInt32 = 0, all: UInt32 = 0
      for index in 0..<HUB75RowAddress.directLineCount(rowPairs) {
        all |= a[index]
        if row & (1 << index) != 0 { high |= a[index] }
      }
      program.write(high: high, mask: all)
    case .abcdLine:
      let all = a[0] | a[1] | a[2] | a[3]
      program.write(high: all & ~a[row % 4], mask: all)
    case .abShift, .abcShift:
      // One stage per row pair, the first value shifted ending in the last stage.
      let (clock, data) = self == .abShift ? (lineA, lineB) : (lineA, lineC)
      for stage in 0..<rowPairs {
        program.clear(clock)
        let selected = stage == rowPairs - 1 - row
        // AB panels select with a 0, ABC panels with a 1.
        if selected == (self == .abcShift) { program.set(data) } else { program.clear(data) }
        program.set(clock)
      }
      if self == .abShift {
        program.clear(clock)
        program.set(clock)
      } else {
        program.clear(clock)
      }
    case .sm5266:
      let (clock, data, enable) = (lineA, lineB, lineC)
      program.set(enable)
      for stage in stride(from: 7, through: 0, by: -1) {
        if row % 8 == stage { program.set(data) } else { program.clear(data) }
        program.set(clock)
        program.clear(clock)
      }
      program.clear(enable)
      var high: UInt32 = 0, all: UInt32 = 0
      if rowPairs > 8 { all |= a[3]; if row & 8 != 0 { high |= a[3] } }
      if rowPairs > 16 { all |= a[4]; if row & 16 != 0 { high |= a[4] } }
      if all != 0 { program.write(high: high, mask: all) }
    case .b707:
      let (clock, enable, data) = (lineA, lineB, lineC)
      program.set(enable)
      if row == 0 { program.set(data) } else { program.clear(data) }
      program.set(clock)
      program.clear(clock)
      program.clear(enable)
    }
  }
}

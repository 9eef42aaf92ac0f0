/// How one 8x8 module's LEDs are wired to its MAX7219's digit registers and bits, in the
/// three flags of MD_MAX72XX: digits drive rows (DR), columns reversed (CR), rows reversed (RR).
///
/// Positions are as the module is seen in its reference orientation: column 0 is the module's
/// leftmost column, row 0 its top row.
public struct ModuleWiring: Sendable, Hashable {
  /// The digit registers drive rows (otherwise columns).
  public var digitsAreRows: Bool
  /// The column order is reversed.
  public var columnsReversed: Bool
  /// The row order is reversed.
  public var rowsReversed: Bool

  /// Creates a wiring from the three flags.
  public init(digitsAreRows: Bool, columnsReversed: Bool, rowsReversed: Bool) {
    self.digitsAreRows = digitsAreRows
    self.columnsReversed = columnsReversed
    self.rowsReversed = rowsReversed
  }

  /// FC-16 4-in-1 blocks (DR1 CR0 RR0): digit register n+1 holds row n, bit 7 the leftmost
  /// pixel. Viewed with the input connector on the right.
  public static let fc16 = ModuleWiring(digitsAreRows: true, columnsReversed: false, rowsReversed: false)
  /// The common single module with the chip at the top (DR0 CR1 RR0): digit n+1 holds the
  /// n-th column from the right, bit 7 the top row.
  public static let generic = ModuleWiring(digitsAreRows: false, columnsReversed: true, rowsReversed: false)
  /// MD_Parola's own board (DR1 CR1 RR0): digit n+1 holds row n, bit 0 the leftmost pixel.
  public static let parola = ModuleWiring(digitsAreRows: true, columnsReversed: true, rowsReversed: false)
  /// ICStation kits (DR1 CR1 RR1): an FC-16 turned 180 degrees.
  public static let icstation = ModuleWiring(digitsAreRows: true, columnsReversed: true, rowsReversed: true)

  /// The named variants, as board files spell them.
  public static let named: [(String, ModuleWiring)] = [
    ("fc16", .fc16), ("generic", .generic), ("parola", .parola), ("icstation", .icstation),
  ]

  /// The variant for a name: one of ``named``, or `drXcrYrrZ` with 0/1 flags.
  public static func named(_ name: String) -> ModuleWiring? {
    if let found = named.first(where: { $0.0 == name }) { return found.1 }
    let flags = Array(name.lowercased())
    guard flags.count == 9, String(flags[0..<2]) == "dr", String(flags[3..<5]) == "cr",
      String(flags[6..<8]) == "rr"
    else { return nil }
    func bit(_ c: Character) -> Bool? { c == "1" ? true : c == "0" ? false : nil }
    guard let dr = bit(flags[2]), let cr = bit(flags[5]), let rr = bit(flags[8]) else { return nil }
    return ModuleWiring(digitsAreRows: dr, columnsReversed: cr, rowsReversed: rr)
  }

  /// The pixel (column from the left, row from the top) lit by bit `bit` of digit
  /// register `digit + 1` (`digit` and `bit` in 0...7).
  public func pixel(digit: Int, bit: Int) -> (x: Int, y: Int) {
    // MD_MAX72XX counts columns from the right: column c is x = 7 - c.
    if digitsAreRows {
      let row = rowsReversed ? 7 - digit : digit
      let columnFromRight = columnsReversed ? 7 - bit : bit
      return (7 - columnFromRight, row)
    } else {
      let columnFromRight = rowsReversed ? 7 - digit : digit
      let row = columnsReversed ? 7 - bit : bit
      return (7 - columnFromRight, row)
    }
  }
}

/// A module turned as it is mounted, in quarter turns clockwise.
public enum ModuleRotation: Int, Sendable, CaseIterable {
  case none = 0, quarter = 90, half = 180, threeQuarters = 270

  /// Where a pixel of the module in its reference orientation appears on the sign, within
  /// the module's 8x8 cell.
  public func apply(x: Int, y: Int) -> (x: Int, y: Int) {
    apply(x: x, y: y, width: 8, height: 8)
  }

  /// Where a pixel of a `width` x `height` module in its reference orientation appears
  /// within the cell the turned module covers (``turned(width:height:)``).
  public func apply(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
    switch self {
    case .none: (x, y)
    case .quarter: (height - 1 - y, x)
    case .half: (width - 1 - x, height - 1 - y)
    case .threeQuarters: (y, width - 1 - x)
    }
  }

  /// The size a `width` x `height` module covers once turned.
  public func turned(width: Int, height: Int) -> (width: Int, height: Int) {
    self == .quarter || self == .threeQuarters ? (height, width) : (width, height)
  }
}

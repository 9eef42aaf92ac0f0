import MatrixCore

/// The built-in proportional 5x7 font: printable ASCII, the Latin-1 letters and symbols,
/// and a few typographic marks (curly quotes, dashes, the euro sign).
///
/// Capitals are 7 rows tall on the baseline; descenders use one row below it, so a line is
/// 8 rows. Accented capitals squeeze the letter to 6 rows under a 1-row accent, as small
/// LED fonts do (Å loses two rows to its ring); accented small letters keep their shape under a 2-row accent.
public final class BuiltinFont5x7: Font {
  public let name = "5x7"
  public let ascent = 7
  public let descent = 1

  /// Creates the font (its pixels are constant data, `BuiltinFont5x7+Data.swift`).
  public init() {}

  /// The glyph, drawn from the font's constant data at each call (nothing is kept).
  public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
    let code = scalar.value
    if code == 0x20 || code == 0xA0 { return Glyph(bitmap: Framebuffer(width: 0, height: 0), advance: 3, top: 0) }
    let isDigit = (0x30...0x39).contains(code)
    // A drawn glyph straight from its 8 bytes (the common case: text is laid out glyph by
    // glyph); a composed letter through its rows.
    if let index = SortedSearch.index(of: code, in: BuiltinFont5x7.drawnCodes) {
      return Glyph.drawn(fromRows: BuiltinFont5x7.drawnRows[index], width: 5, height: 8, top: 7, fullWidth: isDigit)
    }
    guard let rows = BuiltinFont5x7.rows(of: code) else { return nil }
    return BuiltinFont5x7.makeGlyph(rows, keepFullWidth: isDigit)
  }

  public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
    let code = scalar.value
    return code == 0x20 || code == 0xA0 || SortedSearch.index(of: code, in: BuiltinFont5x7.drawnCodes) != nil
      || BuiltinFont5x7.composedLetters.contains { $0.0 == code }
  }

  /// All code points the font has, in ascending order.
  public var scalars: [Unicode.Scalar] {
    (BuiltinFont5x7.drawnCodes + BuiltinFont5x7.composedLetters.map { $0.0 } + [0x20, 0xA0]).sorted().compactMap(Unicode.Scalar.init)
  }

  // MARK: - Drawing

  /// Rows of a glyph before trimming: 8 rows of 5 pixels.
  typealias Rows = [[Bool]]

  /// The 8 rows of a drawn or composed letter, or `nil` when the font lacks it.
  static func rows(of code: UInt32) -> Rows? {
    if let index = SortedSearch.index(of: code, in: drawnCodes) {
      let word = drawnRows[index]
      return (0..<8).map { y in (0..<5).map { x in word >> (8 * y + x) & 1 == 1 } }
    }
    guard let letter = composedLetters.first(where: { $0.0 == code }), let base = rows(of: letter.1) else { return nil }
    return compose(base, accent: letter.2, capital: letter.1 < 0x61)
  }

  /// Turns 8 rows into a glyph trimmed to its lit columns.
  static func makeGlyph(_ rows: Rows, keepFullWidth: Bool) -> Glyph {
    var first = 5, last = -1
    for row in rows {
      for (x, lit) in row.enumerated() where lit {
        first = min(first, x)
        last = max(last, x)
      }
    }
    if keepFullWidth || last < first { first = 0; last = 4 }
    var bitmap = Framebuffer(width: last - first + 1, height: 8)
    for (y, row) in rows.enumerated() {
      for x in first...last where row[x] { bitmap[x - first, y] = true }
    }
    return Glyph(bitmap: bitmap, advance: bitmap.width, top: 7)
  }

  /// The accents of the Latin-1 letters.
  enum Accent {
    case grave, acute, circumflex, tilde, dieresis, ring, cedilla

    /// The accent above a capital: one row (two for the ring, which the letter's top closes).
    var capitalRows: [String] {
      switch self {
      case .grave: [".#..."]
      case .acute: ["...#."]
      case .circumflex: ["..#.."]
      case .tilde: [".##.#"]
      case .dieresis: [".#.#."]
      case .ring: ["..#..", ".#.#."]
      case .cedilla: []
      }
    }

    /// The accent above a small letter: two rows.
    var smallRows: [String] {
      switch self {
      case .grave: [".#...", "..#.."]
      case .acute: ["...#.", "..#.."]
      case .circumflex: ["..#..", ".#.#."]
      case .tilde: [".##.#", "#.##."]
      case .dieresis: [".#.#.", "....."]
      case .ring: [".###.", ".#.#."]
      case .cedilla: [".....", "....."]
      }
    }
  }

  /// Places an accent on a base letter. Capitals lose one of their repeated rows to make
  /// room; small letters have two free rows above their x-height.
  static func compose(_ base: Rows, accent: Accent, capital: Bool) -> Rows {
    var rows = base
    if accent == .cedilla {
      rows[7] = "..##.".map { $0 == "#" }
      return rows
    }
    if capital {
      var letter = Array(rows[0..<7])
      for _ in accent.capitalRows { letter.remove(at: droppableRow(letter)) }
      rows = accent.capitalRows.map { $0.map { $0 == "#" } } + letter + [rows[7]]
    } else {
      let accentRows = accent.smallRows
      rows[0] = accentRows[0].map { $0 == "#" }
      rows[1] = accentRows[1].map { $0 == "#" }
    }
    return rows
  }

  /// The row to drop when squeezing a 7-row capital to 6: one of the longest run of equal
  /// neighbouring rows (nearest the middle), so the letter keeps its shape.
  static func droppableRow(_ rows: Rows) -> Int {
    var best = 3, bestRun = 0
    var start = 0
    while start < rows.count {
      var end = start
      while end + 1 < rows.count, rows[end + 1] == rows[start] { end += 1 }
      let run = end - start + 1
      if run > bestRun || (run == bestRun && abs((start + end) / 2 - 3) < abs(best - 3)) {
        bestRun = run
        best = (start + end + 1) / 2
      }
      start = end + 1
    }
    return best
  }

  /// The accented Latin-1 letters as (code point, base letter, accent).
  static let composedLetters: [(UInt32, UInt32, Accent)] = {
    let vowels: [(UInt32, UInt32, [Accent])] = [
      (0xC0, 0x41, [.grave, .acute, .circumflex, .tilde, .dieresis, .ring]),
      (0xC8, 0x45, [.grave, .acute, .circumflex, .dieresis]),
      (0xCC, 0x49, [.grave, .acute, .circumflex, .dieresis]),
      (0xD2, 0x4F, [.grave, .acute, .circumflex, .tilde, .dieresis]),
      (0xD9, 0x55, [.grave, .acute, .circumflex, .dieresis]),
    ]
    var list: [(UInt32, UInt32, Accent)] = []
    for (first, base, accents) in vowels {
      for (offset, accent) in accents.enumerated() {
        list.append((first + UInt32(offset), base, accent))
        // The small letter sits 0x20 above; small i takes its accent on the dotless i.
        let smallBase: UInt32 = base == 0x49 ? 0x131 : base + 0x20
        list.append((first + UInt32(offset) + 0x20, smallBase, accent))
      }
    }
    list += [
      (0xC7, 0x43, .cedilla), (0xE7, 0x63, .cedilla),
      (0xD1, 0x4E, .tilde), (0xF1, 0x6E, .tilde),
      (0xDD, 0x59, .acute), (0xFD, 0x79, .acute), (0xFF, 0x79, .dieresis),
    ]
    return list
  }()
}

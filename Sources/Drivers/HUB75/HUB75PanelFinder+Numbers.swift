import MatrixCore

extension HUB75PanelFinder {
  /// The numbers' glyphs, 5 x 7, `#` lit: shapes no scrambled picture makes by chance, each
  /// with a corner or a bar the others lack.
  static let glyphs: [[String]] = [
    ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
    [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
    ["#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."],
    ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."],
    ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."],
    ["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."],
    ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."],
    [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."],
  ]
  static let glyphWidth = 5, glyphHeight = 7

  /// Draws `number` (1 to 8) with its top-left corner at (x, y).
  static func draw(_ number: Int, atX x: Int, y: Int, into pixels: inout Framebuffer) {
    for (row, line) in glyphs[number - 1].enumerated() {
      for (column, mark) in line.enumerated() where mark == "#" {
        let (px, py) = (x + column, y + row)
        if px >= 0 && px < pixels.width && py >= 0 && py < pixels.height { pixels[px, py] = true }
      }
    }
  }

  /// Whether `number` shows whole anywhere in `lit`, as a person would read it: its glyph
  /// exactly in a 5 x 7 box, and nothing lit touching it from outside the box (beyond the
  /// panel's edge counts as dark).
  static func canRead(_ number: Int, in lit: Framebuffer) -> Bool {
    let glyph = glyphs[number - 1].map { Array($0).map { $0 == "#" } }
    let isLit = { (x: Int, y: Int) in x >= 0 && x < lit.width && y >= 0 && y < lit.height && lit[x, y] }
    guard lit.width >= glyphWidth, lit.height >= glyphHeight else { return false }
    for top in 0...(lit.height - glyphHeight) {
      for left in 0...(lit.width - glyphWidth) {
        if reads(glyph, atX: left, y: top, isLit) { return true }
      }
    }
    return false
  }

  static func reads(_ glyph: [[Bool]], atX left: Int, y top: Int, _ isLit: (Int, Int) -> Bool) -> Bool {
    for row in 0..<glyphHeight {
      for column in 0..<glyphWidth where isLit(left + column, top + row) != glyph[row][column] { return false }
    }
    // Outside the box, no lit pixel beside a lit one of the glyph.
    for row in 0..<glyphHeight {
      for column in 0..<glyphWidth where glyph[row][column] {
        for dy in -1...1 {
          for dx in -1...1 {
            let (x, y) = (column + dx, row + dy)
            let inside = x >= 0 && x < glyphWidth && y >= 0 && y < glyphHeight
            if !inside && isLit(left + x, top + y) { return false }
          }
        }
      }
    }
    return true
  }
}

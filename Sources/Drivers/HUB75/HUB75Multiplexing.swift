/// How an outdoor panel's LEDs hang on its shift registers, under the names hzeller's
/// `--led-multiplexing` uses (his mapper names in lower case).
///
/// A multiplexed panel of C x R pixels is driven as a plain panel of (C x s) x (R / s)
/// ("the matrix"), s being the scheme's stretch; each scheme says where a pixel (x, y) of
/// the panel sits in the matrix. `direct` is a panel whose LEDs are where the matrix says.
public enum HUB75Multiplexing: String, Sendable, CaseIterable {
  case direct
  /// hzeller's 1: each half of the panel in a top and a bottom stripe; the top stripe is
  /// shifted after the bottom one.
  case stripe
  /// 2: as `stripe`, in checks half the panel wide.
  case checkered
  /// 3: quarters of the width, the top stripe mirrored inside each.
  case spiral
  /// 4: 8x4 tiles, odd rows of tiles shifted by one tile ("Z" order).
  case zstripe
  /// 5: `zstripe` with both rows of tiles shifted by half a tile.
  case znmirrorzstripe
  /// 6: the coreman panel, 32 rows: rows 0-7 and 16-23 as `stripe`'s bottom, the others as
  /// `checkered`'s top.
  case coreman
  /// 7: Kaler 1:2 scan 32x16 panels (stretch 4): groups of 8 columns, every other one
  /// reversed.
  case kaler2scan
  /// 8: `zstripe` with the even rows of tiles shifted instead.
  case zstripeuneven
  /// 9: P10 1:2 outdoor 32x16 panels (stretch 4), used with `rowAddress` `abcd-line`.
  case p10_128x4_z = "p10-128x4-z"

  /// hzeller's number for the scheme (`--led-multiplexing=N`).
  public var hzellerNumber: Int { HUB75Multiplexing.allCases.firstIndex(of: self)! }

  /// How many times wider (and fewer rows) the matrix is than the panel.
  public var stretch: Int {
    switch self {
    case .direct: 1
    case .kaler2scan, .p10_128x4_z: 4
    default: 2
    }
  }

  /// Where pixel (x, y) of a `columns` x `rows` panel sits in its matrix.
  public func matrixPosition(x: Int, y: Int, columns: Int, rows: Int) -> (x: Int, y: Int) {
    let half = rows / 2, quarter = rows / 4
    // The matrix row of the stripe schemes: each half's stripes share their rows.
    let stripeRow = (y / half) * quarter + y % quarter
    let inTopStripe = y % half < quarter
    switch self {
    case .direct:
      return (x, y)
    case .stripe:
      return (inTopStripe ? x + columns : x, stripeRow)
    case .checkered:
      let left = x < columns / 2
      let shifted = inTopStripe ? (left ? x + columns / 2 : x + columns) : (left ? x : x + columns / 2)
      return (shifted, stripeRow)
    case .spiral:
      let width = columns / 4
      let (part, offset) = (x / width, x % width)
      return (2 * part * width + (inTopStripe ? width - 1 - offset : width + offset), stripeRow)
    case .zstripe, .znmirrorzstripe, .zstripeuneven:
      let (even, odd) = self == .zstripe ? (0, 8) : self == .znmirrorzstripe ? (4, 4) : (8, 0)
      let oddTileRow = (y / 4) % 2 == 1
      let shift = oddTileRow ? 0 : even
      return (x + ((x + shift) / 8) * 8 + (oddTileRow ? odd : 0), y % 4 + 4 * (y / 8))
    case .coreman:
      if y < 8 || (y >= 16 && y < 24) {
        return ((x / (columns / 2)) * columns + x % (columns / 2), stripeRow)
      }
      return (x < columns / 2 ? x + columns / 2 : x + columns, stripeRow)
    case .kaler2scan:
      let reversed = (y % 4) / 2 == 0
      let column = ((y % 8) / 4 == 0 ? 64 : 0) + 16 * (x / 8) + (reversed ? 7 - x % 8 : 8 + x % 8)
      return (column, y % 2 + (y / 8) * 2)
    case .p10_128x4_z:
      let base = [127, 112, 111, 96][(y % 8) / 2]
      let mirrored = (y / 2) % 2 == 0
      let column = mirrored ? base - x - 24 * (x / 8) : base + x - 40 * (x / 8)
      let row = y < 8 ? 3 - y % 2 : 1 - y % 2
      return (column, row)
    }
  }

  /// Why the scheme does not fit a `columns` x `rows` panel, or `nil`: every pixel must
  /// land on its own place in the matrix.
  public func misfit(columns: Int, rows: Int) -> String? {
    let s = stretch
    guard rows % (2 * s) == 0 else { return "it needs a row count divisible by \(2 * s)" }
    let matrixColumns = columns * s, matrixRows = rows / s
    var taken = [Bool](repeating: false, count: matrixColumns * matrixRows)
    for y in 0..<rows {
      for x in 0..<columns {
        let place = matrixPosition(x: x, y: y, columns: columns, rows: rows)
        guard (0..<matrixColumns).contains(place.x), (0..<matrixRows).contains(place.y), !taken[place.y * matrixColumns + place.x] else {
          return "its pixels do not fit a \(columns)x\(rows) panel (pixel \(x),\(y))"
        }
        taken[place.y * matrixColumns + place.x] = true
      }
    }
    return nil
  }
}

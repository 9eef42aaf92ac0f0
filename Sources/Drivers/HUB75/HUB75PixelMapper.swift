/// hzeller's pixel mappers (`--led-pixel-mapper`), in his syntax and meaning, for panels laid
/// out otherwise than one straight chain: `"U-mapper;Rotate:90"` in a board file.
///
/// Written from the arrangements his documentation draws (rpi-rgb-led-matrix,
/// examples-api-use/README "Remapping coordinates"), each as a map from the visible canvas
/// the sign draws to the chain's canvas (the matrix: panels side by side in chain order,
/// parallel chains below each other):
///
/// - `U-mapper`: each chain folded in a U. Its first half (the panels nearest the Pi) is the
///   top row, as it is; the second half comes back underneath, upside down. The canvas is
///   half as wide and twice as tall. The chain's length must be even.
/// - `V-mapper`: each chain's panels stacked upwards from the Pi's connector, the parallel
///   chains side by side: the canvas is one panel times the parallel chains wide and the
///   chain's length tall. `V-mapper:Z` turns every other panel upside down, counted from
///   the one nearest the Pi (which stays upright), for short cables.
/// - `Rotate:ANGLE` (0, 90, 180, 270): the picture turned that far clockwise on the panels.
/// - `Mirror:H` (or `Mirror`) and `Mirror:V`: the picture mirrored left to right, or top to
///   bottom.
///
/// Mappers apply in the order given, each on the canvas the one before made; `U-mapper` and
/// `V-mapper` describe the chain itself, so they come first.
public struct HUB75PixelMapper: Sendable, Equatable, CustomStringConvertible {
  /// One mapper of the list.
  public enum Step: Sendable, Equatable {
    case u
    case v(zigzag: Bool)
    case rotate(degrees: Int)
    case mirror(horizontal: Bool)
  }

  public var steps: [Step]

  /// No mapping: the chain's canvas as it is.
  public static let none = HUB75PixelMapper(steps: [])

  public init(steps: [Step]) { self.steps = steps }

  /// Reads hzeller's syntax: mappers separated by `;`, a parameter after `:`; names as his
  /// documentation spells them (`U-mapper`, `V-mapper`, `Vmapper`, `Rotate`, `Mirror`), in any case.
  ///
  /// - Throws: ``InvalidBoardValue`` naming `pixelMapper` for an unknown mapper, a bad
  ///   parameter, or a U or V mapper after another.
  public init(parsing text: String) throws(InvalidBoardValue) {
    var steps: [Step] = []
    for part in text.split(separator: ";").map({ String($0).filter { $0 != " " } }) where !part.isEmpty {
      let pieces = part.split(separator: ":", maxSplits: 1).map(String.init)
      let name = String(pieces[0].lowercased().filter { $0 != "-" })
      let parameter = pieces.count > 1 ? pieces[1] : nil
      let bad = { (reason: String) in InvalidBoardValue(field: "pixelMapper", reason: "'\(part)': \(reason)") }
      switch name {
      case "umapper":
        guard parameter == nil else { throw bad("U-mapper takes no parameter") }
        guard steps.isEmpty else { throw bad("U-mapper describes the chain: put it first") }
        steps.append(.u)
      case "vmapper":
        guard parameter == nil || parameter?.uppercased() == "Z" else { throw bad("V-mapper takes no parameter, or Z") }
        guard steps.isEmpty else { throw bad("V-mapper describes the chain: put it first") }
        steps.append(.v(zigzag: parameter != nil))
      case "rotate":
        guard let degrees = parameter.flatMap({ Int($0) }), [0, 90, 180, 270].contains(degrees) else {
          throw bad("Rotate takes 0, 90, 180 or 270 (clockwise)")
        }
        steps.append(.rotate(degrees: degrees))
      case "mirror":
        switch parameter?.uppercased() {
        case nil, "H": steps.append(.mirror(horizontal: true))
        case "V": steps.append(.mirror(horizontal: false))
        default: throw bad("Mirror takes H or V")
        }
      default:
        throw bad("not one of U-mapper, V-mapper, V-mapper:Z, Rotate:ANGLE, Mirror:H, Mirror:V")
      }
    }
    self.steps = steps
  }

  public var description: String {
    steps.map { step in
      switch step {
      case .u: "U-mapper"
      case .v(let zigzag): zigzag ? "V-mapper:Z" : "V-mapper"
      case .rotate(let degrees): "Rotate:\(degrees)"
      case .mirror(let horizontal): horizontal ? "Mirror:H" : "Mirror:V"
      }
    }.joined(separator: ";")
  }

  /// The chain's geometry the mappers work on.
  public struct Chain: Sendable, Equatable {
    public var panelColumns: Int, panelRows: Int, length: Int, parallel: Int
    public init(panelColumns: Int, panelRows: Int, length: Int, parallel: Int) {
      (self.panelColumns, self.panelRows, self.length, self.parallel) = (panelColumns, panelRows, length, parallel)
    }
    var width: Int { panelColumns * length }
    var height: Int { panelRows * parallel }
  }

  /// Why the mappers do not fit `chain` (a U needs an even chain), or nil.
  public func problem(for chain: Chain) -> String? {
    if steps.first == .u && (chain.length < 2 || chain.length % 2 != 0) {
      return "U-mapper folds each chain in two: its length (grid.columns) must be even, not \(chain.length)"
    }
    return nil
  }

  /// The canvases' sizes: the chain's, then after each step (the last is the visible one).
  func sizes(for chain: Chain) -> [(width: Int, height: Int)] {
    var sizes = [(width: chain.width, height: chain.height)]
    for step in steps { sizes.append(size(after: step, from: sizes[sizes.count - 1], chain: chain)) }
    return sizes
  }

  /// The visible canvas's size for `chain`.
  public func size(for chain: Chain) -> (width: Int, height: Int) {
    sizes(for: chain)[steps.count]
  }

  /// One step's canvas from the one before it.
  func size(after step: Step, from size: (width: Int, height: Int), chain: Chain) -> (width: Int, height: Int) {
    switch step {
    case .u: (size.width / 2, size.height * 2)
    case .v: (chain.panelColumns * chain.parallel, chain.panelRows * chain.length)
    case .rotate(let degrees): degrees % 180 == 90 ? (size.height, size.width) : size
    case .mirror: size
    }
  }

  /// For each visible pixel, row by row, its index on the chain's canvas (`y * width + x`
  /// there): worked out once, for the encoder's table and the emulator's picture.
  public func table(for chain: Chain) -> [Int32] {
    let sizes = sizes(for: chain)
    let (width, height) = sizes[steps.count]
    var table = [Int32](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        let place = matrixPosition(x: x, y: y, chain: chain, sizes: sizes)
        table[y * width + x] = Int32(place.y * chain.width + place.x)
      }
    }
    return table
  }

  /// The chain canvas's position of the visible pixel (x, y).
  public func matrixPosition(x: Int, y: Int, chain: Chain) -> (x: Int, y: Int) {
    matrixPosition(x: x, y: y, chain: chain, sizes: sizes(for: chain))
  }

  /// The same, with the canvases' sizes known: the steps undone from the visible end.
  func matrixPosition(x: Int, y: Int, chain: Chain, sizes: [(width: Int, height: Int)]) -> (x: Int, y: Int) {
    var (x, y) = (x, y)
    for index in steps.indices.reversed() {
      let inputWidth = sizes[index].width
      let (outputWidth, outputHeight) = sizes[index + 1]
      switch steps[index] {
      case .u:
        // Per chain, a slab two panels tall: the top half is the chain's second half as it
        // is (the panels nearest the Pi); the bottom half its first half, turned round.
        let slab = 2 * chain.panelRows
        let base = (y / slab) * chain.panelRows
        let inSlab = y % slab
        if inSlab < chain.panelRows {
          (x, y) = (x + inputWidth / 2, base + inSlab)
        } else {
          (x, y) = (inputWidth / 2 - 1 - x, base + slab - 1 - inSlab)
        }
      case .v(let zigzag):
        // Column block c is chain c; panel row r from the top is the chain's panel r (the
        // last, nearest the Pi, at the bottom); with Z, every other one from the bottom is
        // upside down.
        let (columns, rows) = (chain.panelColumns, chain.panelRows)
        let (panelRow, block) = (y / rows, x / columns)
        var (inX, inY) = (x % columns, y % rows)
        if zigzag && (chain.length - 1 - panelRow) % 2 == 1 { (inX, inY) = (columns - 1 - inX, rows - 1 - inY) }
        (x, y) = (panelRow * columns + inX, block * rows + inY)
      case .rotate(let degrees):
        // The panels show the visible picture turned clockwise: a quarter turn takes the
        // visible (x, y) to (height - 1 - y, x).
        switch degrees {
        case 90: (x, y) = (outputHeight - 1 - y, x)
        case 180: (x, y) = (outputWidth - 1 - x, outputHeight - 1 - y)
        case 270: (x, y) = (y, outputWidth - 1 - x)
        default: break
        }
      case .mirror(let horizontal):
        if horizontal { x = outputWidth - 1 - x } else { y = outputHeight - 1 - y }
      }
    }
    return (x, y)
  }
}

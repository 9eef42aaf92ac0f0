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
/// - `StackToRow` (`:Z`, `:F`, `:ZF`): the parallel chains, stacked on the chain's canvas, set
///   side by side in a row instead: the canvas is as many times wider as there are chains and
///   one chain tall. `Z` turns every other band (the second, the fourth) upside down, `F`
///   the right half of them (both: the two turns cancel where they meet).
/// - `Remap:WIDTH,HEIGHT|X,Y<FACING>|…`: any arrangement: a canvas of WIDTH x HEIGHT and, for
///   each panel in data order (the first chain's from the Pi, then the next chain's), the
///   top-left corner of the box it covers and which way the panel's top edge faces on the
///   sign: `n` up, `s` down (turned round), `e` right and `w` left (a quarter turn, the box
///   then as tall as the panel is wide), `x` not shown. Places no panel covers stay dark; two
///   panels over one place both show it. (His code is the only description of this one.)
///
/// Mappers apply in the order given, each on the canvas the one before made; `U-mapper`,
/// `V-mapper`, `StackToRow` and `Remap` describe the chain itself, so they come first.
public struct HUB75PixelMapper: Sendable, Equatable, CustomStringConvertible {
  /// One mapper of the list.
  public enum Step: Sendable, Equatable {
    case u
    case v(zigzag: Bool)
    case rotate(degrees: Int)
    case mirror(horizontal: Bool)
    case stackToRow(zigzag: Bool, flipRight: Bool)
    case remap(width: Int, height: Int, tiles: [Tile])

    /// Whether the step describes the chain (it must come first).
    var describesTheChain: Bool {
      switch self {
      case .u, .v, .stackToRow, .remap: true
      case .rotate, .mirror: false
      }
    }
  }

  /// One panel's place in a `Remap`: its box's top-left corner on the canvas, and which way
  /// its top edge faces.
  public struct Tile: Sendable, Equatable {
    public enum Facing: Character, Sendable {
      case north = "n", east = "e", south = "s", west = "w", unused = "x"
    }

    public var x: Int, y: Int, facing: Facing

    public init(x: Int, y: Int, facing: Facing) { (self.x, self.y, self.facing) = (x, y, facing) }

    /// Where the panel's LED (x, y) lands on the canvas (`nil`: not shown).
    func place(x inX: Int, y inY: Int, columns: Int, rows: Int) -> (x: Int, y: Int)? {
      switch facing {
      case .north: (x + inX, y + inY)
      case .south: (x + columns - 1 - inX, y + rows - 1 - inY)
      case .west: (x + inY, y + columns - 1 - inX)
      case .east: (x + rows - 1 - inY, y + inX)
      case .unused: nil
      }
    }
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
      let first = { (mapper: String) throws(InvalidBoardValue) in
        guard steps.isEmpty else { throw bad("\(mapper) describes the chain: put it first") }
      }
      switch name {
      case "umapper":
        guard parameter == nil else { throw bad("U-mapper takes no parameter") }
        try first("U-mapper")
        steps.append(.u)
      case "vmapper":
        guard parameter == nil || parameter?.uppercased() == "Z" else { throw bad("V-mapper takes no parameter, or Z") }
        try first("V-mapper")
        steps.append(.v(zigzag: parameter != nil))
      case "stacktorow":
        let letters = (parameter ?? "").uppercased().filter { $0 != "," }
        guard letters.allSatisfy({ $0 == "Z" || $0 == "F" }) else { throw bad("StackToRow takes Z, F or both") }
        try first("StackToRow")
        steps.append(.stackToRow(zigzag: letters.contains("Z"), flipRight: letters.contains("F")))
      case "remap":
        try first("Remap")
        steps.append(try HUB75PixelMapper.remap(parameter ?? "", bad: bad))
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
        throw bad("not one of U-mapper, V-mapper, V-mapper:Z, StackToRow, Remap, Rotate:ANGLE, Mirror:H, Mirror:V")
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
      case .stackToRow(let zigzag, let flipRight): "StackToRow" + (zigzag || flipRight ? ":" + (zigzag ? "Z" : "") + (flipRight ? "F" : "") : "")
      case .remap(let width, let height, let tiles):
        "Remap:\(width),\(height)" + tiles.map { "|\($0.x),\($0.y)\($0.facing.rawValue)" }.joined()
      }
    }.joined(separator: ";")
  }

  /// The largest canvas a `Remap` makes, in pixels (each a link worked out at start).
  static let largestRemap = 1 << 22

  /// Why a `Remap` canvas of `width` x `height` is too large or empty, or nil: each side 1 to
  /// 16384, ``largestRemap`` pixels at most (each a link worked out at start).
  static func canvasProblem(width: Int, height: Int) -> String? {
    guard (1...16384).contains(width), (1...16384).contains(height), width * height <= largestRemap else {
      return "Remap's canvas is \(width)x\(height): each side 1 to 16384, \(largestRemap) pixels at most"
    }
    return nil
  }

  /// `Remap`'s parameter: `WIDTH,HEIGHT|X,Y<FACING>|…`.
  static func remap(_ text: String, bad: (String) -> InvalidBoardValue) throws(InvalidBoardValue) -> Step {
    let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    let size = parts[0].split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
    guard size.count == 2, let width = size[0], let height = size[1], canvasProblem(width: width, height: height) == nil else {
      throw bad("Remap begins with the canvas's WIDTH,HEIGHT (each 1 to 16384, \(largestRemap) pixels at most), then |X,Y and a facing (n, e, s, w or x) for each panel")
    }
    var tiles: [Tile] = []
    for (index, part) in parts.dropFirst().enumerated() {
      let facing = part.last.flatMap { Tile.Facing(rawValue: Character($0.lowercased())) }
      let corner = part.dropLast().split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
      guard let facing, corner.count == 2, let x = corner[0], let y = corner[1], abs(x) <= 16384, abs(y) <= 16384 else {
        throw bad("panel \(index + 1) is '\(part)', not X,Y and a facing (n, e, s, w or x), like 0,32n")
      }
      tiles.append(Tile(x: x, y: y, facing: facing))
    }
    guard !tiles.isEmpty else { throw bad("Remap needs a place for each panel: |X,Y and a facing (n, e, s, w or x)") }
    return .remap(width: width, height: height, tiles: tiles)
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
    if case .remap(let width, let height, let tiles)? = steps.first {
      if let problem = HUB75PixelMapper.canvasProblem(width: width, height: height) { return problem }
      let panels = chain.length * chain.parallel
      guard tiles.count == panels else {
        return "Remap places \(tiles.count) panel\(tiles.count == 1 ? "" : "s"), and the board has \(panels) (grid.columns x grid.rows): one place each"
      }
      for (index, tile) in tiles.enumerated() {
        guard let a = tile.place(x: 0, y: 0, columns: chain.panelColumns, rows: chain.panelRows),
          let b = tile.place(x: chain.panelColumns - 1, y: chain.panelRows - 1, columns: chain.panelColumns, rows: chain.panelRows)
        else { continue }
        if max(a.x, b.x) < 0 || min(a.x, b.x) >= width || max(a.y, b.y) < 0 || min(a.y, b.y) >= height {
          return "Remap puts panel \(index + 1) at \(tile.x),\(tile.y), wholly outside the \(width)x\(height) canvas"
        }
      }
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
    case .stackToRow: (size.width * chain.parallel, size.height / chain.parallel)
    case .remap(let width, let height, _): (width, height)
    }
  }

  /// Every pair of a visible pixel and the LED of the chain's canvas that shows it (each
  /// `y * width + x` on its canvas), worked out once for the encoder, the emulator's picture
  /// and the panels' places: one LED per visible pixel, except after `Remap`, where a place
  /// no panel covers has none and one two panels cover has two.
  public func links(for chain: Chain) -> [(visible: Int32, matrix: Int32)] {
    let sizes = sizes(for: chain)
    let (width, height) = sizes[steps.count]
    var links: [(visible: Int32, matrix: Int32)] = []
    guard case .remap(let canvasWidth, _, let tiles)? = steps.first else {
      links.reserveCapacity(width * height)
      for y in 0..<height {
        for x in 0..<width {
          let place = matrixPosition(x: x, y: y, chain: chain, sizes: sizes)
          links.append((Int32(y * width + x), Int32(place.y * chain.width + place.x)))
        }
      }
      return links
    }
    // The steps after the Remap, undone: which visible pixel each place of its canvas is.
    let canvasHeight = sizes[1].height
    var shownAt = [Int32](repeating: -1, count: canvasWidth * canvasHeight)
    for y in 0..<height {
      for x in 0..<width {
        let place = matrixPosition(x: x, y: y, chain: chain, sizes: sizes, downTo: 1)
        shownAt[place.y * canvasWidth + place.x] = Int32(y * width + x)
      }
    }
    // Each LED through its panel's place; the panel nearest the Pi is at the canvas's right.
    let (columns, rows) = (chain.panelColumns, chain.panelRows)
    for y in 0..<chain.height {
      for x in 0..<chain.width {
        let panel = (y / rows) * chain.length + chain.length - 1 - x / columns
        guard let place = tiles[panel].place(x: x % columns, y: y % rows, columns: columns, rows: rows),
          (0..<canvasWidth).contains(place.x), (0..<canvasHeight).contains(place.y)
        else { continue }
        links.append((shownAt[place.y * canvasWidth + place.x], Int32(y * chain.width + x)))
      }
    }
    return links
  }

  /// The position of the visible pixel (x, y) on the canvas before step `first` (the
  /// chain's, for 0): the steps undone from the visible end. A `Remap` is never undone so
  /// (a place on its canvas may have no LED or two: ``links(for:)``).
  func matrixPosition(x: Int, y: Int, chain: Chain, sizes: [(width: Int, height: Int)], downTo first: Int = 0) -> (x: Int, y: Int) {
    var (x, y) = (x, y)
    for index in steps.indices.reversed() where index >= first {
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
      case .stackToRow(let zigzag, let flipRight):
        // Band b of the row is chain b; Z turns the odd bands round, F the right half.
        let (bands, bandHeight) = (chain.parallel, sizes[index].height / chain.parallel)
        let band = x / inputWidth
        var (inX, inY) = (x % inputWidth, y)
        if (zigzag && band % 2 == 1) != (flipRight && band >= bands / 2) { (inX, inY) = (inputWidth - 1 - inX, bandHeight - 1 - inY) }
        (x, y) = (inX, band * bandHeight + inY)
      case .remap:
        break
      }
    }
    return (x, y)
  }
}

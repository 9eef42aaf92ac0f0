import MatrixCore

extension HUB75PanelFinder {
  /// The digits 0 to 9, 5 x 7, `#` lit, for the panels' numbers in the chain test.
  static let digits: [[String]] = [
    [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."],
    glyphs[0], glyphs[1], glyphs[2], glyphs[3], glyphs[4], glyphs[5], glyphs[6], glyphs[7],
    [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."],
  ]

  /// The sign's chains, driven with `setting` (found): `chain` panels a chain, `parallel`
  /// chains, as wired (no pixel mapper) or as `pixelMapper` arranges them.
  public func chainBoard(
    for setting: Setting, colorOrder: HUB75ColorOrder, chain: Int, parallel: Int, pixelMapper: HUB75PixelMapper = .none
  ) throws(InvalidBoardValue) -> HUB75Board {
    try HUB75Board(
      name: "finder", panelColumns: panelColumns, panelRows: setting.panelRows, chainLength: chain, parallel: parallel, pins: pins,
      rowAddress: setting.rowAddress, multiplexing: setting.multiplexing, colorDepth: 1, panelInit: panelInit, pixelMapper: pixelMapper,
      colorOrder: colorOrder)
  }

  /// One panel's picture in the chain test, as the panel shows it upright: a bar along its
  /// top edge (where the bar shows tells which way the panel is turned) and its number in
  /// data order, as large as fits, in the middle; on a panel `rows` high (the height given
  /// by default).
  public func panelPicture(_ number: Int, rows: Int? = nil) -> Framebuffer {
    let panelRows = rows ?? self.panelRows
    var pixels = Framebuffer(width: panelColumns, height: panelRows)
    pixels.fill(x: 0, y: 0, width: panelColumns, height: 1, lit: true)
    let text = String(number).compactMap { $0.wholeNumberValue }
    let naturalWidth = text.count * (Self.glyphWidth + 1) - 1
    let scale = max(1, min((panelColumns - 2) / naturalWidth, (panelRows - 3) / Self.glyphHeight))
    let (width, height) = (naturalWidth * scale, Self.glyphHeight * scale)
    let (left, top) = ((panelColumns - width) / 2, 2 + (panelRows - 2 - height) / 2)
    for (index, digit) in text.enumerated() {
      for (row, line) in HUB75PanelFinder.digits[digit].enumerated() {
        for (column, mark) in line.enumerated() where mark == "#" {
          pixels.fill(x: left + (index * (Self.glyphWidth + 1) + column) * scale, y: top + row * scale, width: scale, height: scale, lit: true)
        }
      }
    }
    return pixels
  }

  /// The chain test's refresh on `board` (``chainBoard(for:colorOrder:chain:parallel:)``):
  /// every panel its own picture, numbered in data order: 1 is the first chain's panel
  /// nearest the Pi, then along it, then the next chain's.
  public func chainProgram(on board: HUB75Board) -> HUB75Program {
    var pixels = Framebuffer(width: board.matrixWidth, height: board.matrixHeight)
    for chain in 0..<board.parallel {
      for place in 0..<board.chainLength {
        // The chain's canvas has its panel nearest the Pi at the right.
        let x = (board.chainLength - 1 - place) * panelColumns
        pixels.draw(
          panelPicture(chain * board.chainLength + place + 1, rows: board.panelRows), atX: x, y: chain * board.panelRows, mode: .or)
      }
    }
    var encoder = HUB75Encoder(board: board, color: RGBColor(red: 255, green: 255, blue: 255))
    var program = HUB75Program()
    encoder.encode(Frame(pixels: pixels), into: &program)
    return program
  }

  /// The mapper for the panels (each `panelRows` high) as a person sees them: `rows` from
  /// the top, each a list of panel numbers from the left with the way each is turned (its
  /// top edge facing). `nil` when they are as the chains are wired (no mapper needed).
  ///
  /// - Throws: ``InvalidBoardValue`` when a number is not a panel's or is given twice.
  public func arrangement(
    _ rows: [[(number: Int, facing: HUB75PixelMapper.Tile.Facing)]], panelRows: Int, chain: Int, parallel: Int
  ) throws(InvalidBoardValue) -> HUB75PixelMapper? {
    let count = chain * parallel
    var tiles = [HUB75PixelMapper.Tile](repeating: HUB75PixelMapper.Tile(x: 0, y: 0, facing: .unused), count: count)
    var seen = Set<Int>()
    var (y, width) = (0, 0)
    for row in rows {
      var (x, height) = (0, 0)
      for panel in row {
        guard (1...count).contains(panel.number), seen.insert(panel.number).inserted else {
          throw InvalidBoardValue(field: "arrangement", reason: "\(panel.number) is not a panel of 1 to \(count), each once")
        }
        let turned = panel.facing == .east || panel.facing == .west
        tiles[panel.number - 1] = HUB75PixelMapper.Tile(x: x, y: y, facing: panel.facing)
        x += turned ? panelRows : panelColumns
        height = max(height, turned ? panelColumns : panelRows)
      }
      (y, width) = (y + height, max(width, x))
    }
    guard !seen.isEmpty else { throw InvalidBoardValue(field: "arrangement", reason: "no panel was given") }
    let mapper = HUB75PixelMapper(steps: [.remap(width: width, height: y, tiles: tiles)])
    let chainGeometry = HUB75PixelMapper.Chain(panelColumns: panelColumns, panelRows: panelRows, length: chain, parallel: parallel)
    if let problem = mapper.problem(for: chainGeometry) { throw InvalidBoardValue(field: "arrangement", reason: problem) }
    // As wired: the same LEDs show the same pixels without a mapper.
    let links = { (mapper: HUB75PixelMapper) in Set(mapper.links(for: chainGeometry).map { [$0.visible, $0.matrix] }) }
    return mapper.size(for: chainGeometry) == HUB75PixelMapper.none.size(for: chainGeometry) && links(mapper) == links(.none) ? nil : mapper
  }
}

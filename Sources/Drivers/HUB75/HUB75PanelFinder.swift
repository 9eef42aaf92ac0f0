import MatrixCore

/// Finds a HUB75 panel's row address kind and multiplexing, and its height when asked to, by
/// asking a person what it shows.
///
/// Every setting that fits the panel's size is a candidate (with each height a panel of its
/// width is made in, when the height is to be found). A probe drives the panel as one
/// candidate would be driven and lights a test pattern (everything, or numbers in each part
/// of the panel); what the person sees depends on the panel's true setting, which the finder
/// predicts for every candidate by running the probe through an emulated panel of that
/// setting (``HUB75Emulator``). Each answer keeps the candidates whose prediction matches;
/// the next probe is the one whose answers split the rest into the smallest groups, rows
/// (the whole panel lit) before columns (the numbers). It ends when no probe tells the rest
/// apart: they show every pattern alike, so the first (the commoner) is the panel's.
public struct HUB75PanelFinder: Sendable {
  /// A candidate: how many rows of LEDs the panel has, how it picks its row pair and how
  /// its LEDs hang on its registers.
  public struct Setting: Hashable, Sendable, CustomStringConvertible {
    public let rowAddress: HUB75RowAddress
    public let multiplexing: HUB75Multiplexing
    public let panelRows: Int

    public init(rowAddress: HUB75RowAddress, multiplexing: HUB75Multiplexing, panelRows: Int) {
      (self.rowAddress, self.multiplexing, self.panelRows) = (rowAddress, multiplexing, panelRows)
    }

    public var description: String { "\(panelRows) rows, rowAddress \(rowAddress.rawValue), multiplexing \(multiplexing.rawValue)" }

    /// The kind of panel: height, row address kind and stretch. Panels of one kind drive
    /// their row circuit and registers alike; only where their LEDs hang differs.
    var kind: String { "\(panelRows) \(rowAddress.rawValue) \(multiplexing.stretch)" }
  }

  /// What a probe lights.
  public enum Pattern: Hashable, Sendable {
    /// Every LED, white, at one level.
    case everything
    /// The numbers 1 to ``numberCount`` in a grid over the panel, white.
    case numbers
    /// One part of the panel lit whole: the cell of the grid that holds number `n` in the
    /// number pattern (1 to 4 across the top, 5 to 8 across the bottom).
    case part(Int)
  }

  /// One look at the panel: driven as `drive`, lighting `pattern`.
  public struct Probe: Hashable, Sendable {
    public let drive: Setting
    public let pattern: Pattern

    public init(drive: Setting, pattern: Pattern) { (self.drive, self.pattern) = (drive, pattern) }
  }

  /// What the person saw.
  public enum Answer: Hashable, Sendable {
    /// Every LED lit, all alike.
    case even
    /// Some lit and some dark, or some brighter than others.
    case uneven
    /// Nothing lit.
    case dark
    /// The numbers that could be read, whole.
    case numbers(Set<Int>)
    /// The parts of the panel with any light.
    case parts(Set<Int>)
    /// No telling (a prediction, never an answer): what the panel shows depends on the state
    /// its row circuit came up in, which the probe never sets.
    case unknown
  }

  /// The panel's width, its height as given (the first of ``rowChoices``), and the wiring
  /// from the Pi.
  public let panelColumns: Int, panelRows: Int
  /// The heights the panel may have: the one given, or with ``init(panelColumns:findingRowsFrom:pins:panelInit:)``
  /// every height a panel of its width is made in, the commonest first.
  public let rowChoices: [Int]
  public let pins: HUB75PinMap
  /// The driver chips taken to need starting (FM6126A, FM6127), or none: every board the
  /// finder drives starts them, and every panel it predicts for has them.
  public let panelInit: HUB75PanelInit?
  /// Every setting that fits the panel, the commoner first.
  public let settings: [Setting]
  /// The settings the answers so far leave.
  public private(set) var remaining: [Setting]
  /// The probes shown and their answers, in order.
  public private(set) var asked: [(probe: Probe, answer: Answer)] = []
  /// What each probe shows on a panel of each setting, worked out when first needed.
  var predictions: [Probe: [Setting: Answer]] = [:]
  /// Each setting's LEDs on the registers, worked out when first needed.
  var wirings: [Setting: HUB75Emulator.Wiring] = [:]

  /// A finder for a panel of `columns` x `rows` pixels wired as `pins`.
  ///
  /// - Throws: ``InvalidBoardValue`` for a size no HUB75 board takes.
  public init(panelColumns columns: Int, panelRows rows: Int, pins: HUB75PinMap = .regular, panelInit: HUB75PanelInit? = nil) throws(InvalidBoardValue) {
    try self.init(panelColumns: columns, rowChoices: [rows], pins: pins, panelInit: panelInit)
  }

  /// A finder for a panel `columns` pixels wide whose height is found too: `rows` (a guess,
  /// asked about first) and the other heights of ``rowChoices(columns:)``. A guess under 16
  /// rows is taken as it is: the number pattern has one row of parts there, two on the others,
  /// so their answers could not be weighed together.
  ///
  /// - Throws: ``InvalidBoardValue`` for a width (or a guessed size) no HUB75 board takes.
  public init(panelColumns columns: Int, findingRowsFrom rows: Int? = nil, pins: HUB75PinMap = .regular, panelInit: HUB75PanelInit? = nil) throws(InvalidBoardValue) {
    let usual = HUB75PanelFinder.rowChoices(columns: columns)
    let choices = rows.map { guess in guess < 16 ? [guess] : [guess] + usual.filter { $0 != guess } } ?? usual
    guard !choices.isEmpty else { throw InvalidBoardValue(field: "panel", reason: "no HUB75 panel is \(columns) pixels wide") }
    try self.init(panelColumns: columns, rowChoices: choices, pins: pins, panelInit: panelInit)
  }

  init(panelColumns columns: Int, rowChoices: [Int], pins: HUB75PinMap, panelInit: HUB75PanelInit?) throws(InvalidBoardValue) {
    (panelColumns, panelRows, self.rowChoices, self.pins, self.panelInit) = (columns, rowChoices[0], rowChoices, pins, panelInit)
    for rows in rowChoices { _ = try HUB75Board(name: "finder", panelColumns: columns, panelRows: rows, pins: pins, colorDepth: 1) }
    var settings: [Setting] = []
    for rows in rowChoices {
      for multiplexing in HUB75Multiplexing.allCases {
        for rowAddress in HUB75RowAddress.allCases {
          let setting = Setting(rowAddress: rowAddress, multiplexing: multiplexing, panelRows: rows)
          if (try? HUB75PanelFinder.board(setting, columns: columns, pins: pins)) != nil { settings.append(setting) }
        }
      }
    }
    self.settings = settings
    remaining = settings
  }

  /// The heights HUB75 panels `columns` wide are made in (16, 32 and 64 rows; the number
  /// pattern's two rows of parts need 16), the commonest first: half the width (64x32,
  /// 32x16, 128x64), then square, then the rest.
  public static func rowChoices(columns: Int) -> [Int] {
    let heights = [16, 32, 64].filter { rows in
      (try? HUB75Board(name: "finder", panelColumns: columns, panelRows: rows, colorDepth: 1)) != nil
    }
    return heights.sorted { a, b in
      let rank = { (rows: Int) in rows * 2 == columns ? 0 : rows == columns ? 1 : 2 }
      return (rank(a), a) < (rank(b), b)
    }
  }

  /// The same finder with the driver chips started as `chips` says, from its first question.
  public func starting(_ chips: HUB75PanelInit?) -> HUB75PanelFinder {
    try! HUB75PanelFinder(panelColumns: panelColumns, rowChoices: rowChoices, pins: pins, panelInit: chips)
  }

  /// The board a setting drives: one panel, one bitplane (every lit LED alike), its colour
  /// inputs lighting `colorOrder`.
  public func board(for setting: Setting, colorOrder: HUB75ColorOrder = .rgb) -> HUB75Board {
    try! HUB75PanelFinder.board(setting, columns: panelColumns, pins: pins, colorOrder: colorOrder, panelInit: panelInit)
  }

  static func board(
    _ setting: Setting, columns: Int, pins: HUB75PinMap, colorOrder: HUB75ColorOrder = .rgb, panelInit: HUB75PanelInit? = nil
  ) throws(InvalidBoardValue) -> HUB75Board {
    try HUB75Board(
      name: "finder", panelColumns: columns, panelRows: setting.panelRows, pins: pins, rowAddress: setting.rowAddress,
      multiplexing: setting.multiplexing, colorDepth: 1, panelInit: panelInit, colorOrder: colorOrder)
  }

  /// The colour test, driven as `setting` (found): three blocks side by side, the left one
  /// on the R input alone, the middle one on G, the right one on B. The colours a person
  /// sees, left to right, are the panel's ``HUB75ColorOrder`` (``HUB75ColorOrder/init(seen:)``).
  public func colorProgram(for setting: Setting) -> HUB75Program {
    let (third, panelRows) = (panelColumns / 3, setting.panelRows)
    let colors = [RGBColor(red: 255, green: 0, blue: 0), RGBColor(red: 0, green: 255, blue: 0), RGBColor(red: 0, green: 0, blue: 255)]
    let regions = colors.enumerated().map { ColorRegion(x: $0.offset * third, y: 0, width: third, height: panelRows, color: $0.element) }
    var pixels = Framebuffer(width: panelColumns, height: panelRows)
    // A dark pixel between the blocks and round them, where the panel is wide enough.
    let gap = third > 4 ? 1 : 0
    for block in 0..<3 { pixels.fill(x: block * third + gap, y: gap, width: third - 2 * gap, height: panelRows - 2 * gap, lit: true) }
    var encoder = HUB75Encoder(board: board(for: setting), color: colors[0], regions: regions)
    var program = HUB75Program()
    encoder.encode(Frame(pixels: pixels), into: &program)
    return program
  }

  /// The refresh that shows `probe` (run it again and again to show it).
  public func program(for probe: Probe) -> HUB75Program {
    let board = board(for: probe.drive)
    var encoder = HUB75Encoder(board: board, color: RGBColor(red: 255, green: 255, blue: 255))
    var program = HUB75Program()
    encoder.encode(Frame(pixels: picture(probe.pattern, rows: probe.drive.panelRows)), into: &program)
    return program
  }

  /// The pattern as it should look on a panel `rows` high (the height given by default).
  public func picture(_ pattern: Pattern, rows: Int? = nil) -> Framebuffer {
    let panelRows = rows ?? self.panelRows
    var pixels = Framebuffer(width: panelColumns, height: panelRows)
    switch pattern {
    case .everything:
      pixels.fill(x: 0, y: 0, width: panelColumns, height: panelRows, lit: true)
    case .numbers:
      for (number, place) in numberPlaces(rows: panelRows).enumerated() {
        HUB75PanelFinder.draw(number + 1, atX: place.x, y: place.y, into: &pixels)
      }
    case .part(let number):
      let cell = cells(rows: panelRows)[number - 1]
      pixels.fill(x: cell.x, y: cell.y, width: cell.width, height: cell.height, lit: true)
    }
    return pixels
  }

  /// The grid's cells on a panel of the height given, number 1's first: 4 (or fewer, on a
  /// narrow panel) across, 2 down (1 on an 8-row panel).
  public var cells: [(x: Int, y: Int, width: Int, height: Int)] { cells(rows: panelRows) }

  /// The grid's cells on a panel `rows` high: the parts a person names are the panel's
  /// own, whatever height a probe was drawn for.
  public func cells(rows: Int) -> [(x: Int, y: Int, width: Int, height: Int)] {
    let across = min(4, panelColumns / 8), down = rows >= 16 ? 2 : 1
    let (width, height) = (panelColumns / across, rows / down)
    return (0..<down).flatMap { row in (0..<across).map { column in (x: column * width, y: row * height, width: width, height: height) } }
  }

  /// How many numbers the number pattern shows: one in each of up to 4 x 2 parts of the
  /// panel (the same for every height the finder tries).
  public var numberCount: Int { cells.count }

  /// The top-left corner of each number on a panel `rows` high, 1 first, left to right and
  /// top to bottom.
  func numberPlaces(rows: Int) -> [(x: Int, y: Int)] {
    cells(rows: rows).map { cell in
      (x: cell.x + (cell.width - HUB75PanelFinder.glyphWidth) / 2, y: cell.y + (cell.height - HUB75PanelFinder.glyphHeight) / 2)
    }
  }

  // MARK: Asking

  /// The next probe to show, or `nil` when none tells the remaining settings apart.
  public mutating func nextProbe() -> Probe? {
    guard remaining.count > 1 else { return nil }
    // Rows first (everything lit), then columns (the numbers, or one part lit).
    for patterns in [[Pattern.everything], [.numbers] + (1...numberCount).map(Pattern.part)] {
      var best: (probe: Probe, cost: Int)?
      for pattern in patterns {
      for drive in drives(for: pattern) {
        let probe = Probe(drive: drive, pattern: pattern)
        let seen = predict(probe)
        var groups: [Answer: Int] = [:]
        for setting in remaining { groups[seen[setting]!, default: 0] += 1 }
        // A panel whose picture depends on its power-up state stays whatever the answer.
        let unknown = groups.removeValue(forKey: .unknown) ?? 0
        // Only a look that splits the panels it can predict: any answer rules one out.
        guard groups.count > 1 else { continue }
        // The expected number left after the answer, times the count: smaller is better.
        let cost = groups.values.reduce(unknown * unknown) { $0 + $1 * ($1 + unknown) }
        if best == nil || cost < best!.cost { best = (probe, cost) }
      }
      }
      if let best { return best.probe }
    }
    return nil
  }

  /// The settings to drive a pattern with: for everything lit, one per height, row address
  /// kind and stretch (the multiplexing moves pixels only); for numbers, the remaining settings.
  ///
  /// None that drives the E line while a panel that does not use it is still possible: on
  /// many panels without it (32 rows and fewer) that pin of the connector is ground. A
  /// program without E on a panel that uses it leaves it low, which tells them apart as well
  /// (bands of rows stay dark).
  func drives(for pattern: Pattern) -> [Setting] {
    let mayDriveE = remaining.allSatisfy(HUB75PanelFinder.drivesE)
    let allowed = { (setting: Setting) in mayDriveE || !HUB75PanelFinder.drivesE(setting) }
    guard pattern == .everything else { return remaining.filter(allowed) }
    var seen: Set<String> = []
    return settings.filter {
      allowed($0) && seen.insert($0.kind).inserted
    }
  }

  /// Whether a panel of `setting` uses (and its program drives) the E address line.
  static func drivesE(_ setting: Setting) -> Bool {
    setting.rowAddress.lines(rowPairs: setting.panelRows / setting.multiplexing.stretch / 2).contains(4)
  }

  /// Whether some remaining setting's panel shows `probe` as `answer` for certain (not only
  /// perhaps, by the state its row circuit came up in).
  public mutating func explains(_ answer: Answer, for probe: Probe) -> Bool {
    let seen = predict(probe)
    return remaining.contains { seen[$0] == answer }
  }

  /// Keeps the settings whose panel shows `probe` as `answer`.
  public mutating func record(_ answer: Answer, for probe: Probe) {
    let seen = predict(probe)
    remaining = remaining.filter { seen[$0] == answer || seen[$0] == .unknown }
    asked.append((probe, answer))
  }

  /// The setting found once no probe tells the remaining ones apart (`nil` while one does,
  /// or when the answers fit no setting): the first whose own pictures (everything lit, the
  /// numbers) show right on a panel of every remaining setting, or else the first.
  ///
  /// Settings no look tells apart may still drive each other's panels differently: a B707
  /// panel ignores the ABC shift kind's writes (they never raise its enable line), while an
  /// ABC shift panel follows B707's walking 1. B707 is then the one that works on both.
  public mutating func found() -> Setting? {
    guard nextProbe() == nil else { return nil }
    let right = [Answer.even, .numbers(Set(1...numberCount))]
    return remaining.first { drive in
      zip([Pattern.everything, .numbers], right).allSatisfy { pattern, answer in
        let seen = predict(Probe(drive: drive, pattern: pattern))
        return remaining.allSatisfy { seen[$0] == answer }
      }
    } ?? remaining.first
  }

  /// What `probe` shows on a panel of each remaining setting.
  ///
  /// The row circuit and the registers behave alike on every panel of one height, row
  /// address kind and stretch: only where the LEDs hang on the registers differs. So the
  /// probe is emulated once for each such kind of panel, counting what each register place
  /// lit, and each setting's picture is read from that through its own wiring.
  mutating func predict(_ probe: Probe) -> [Setting: Answer] {
    var seen = predictions[probe] ?? [:]
    let missing = remaining.filter { seen[$0] == nil }
    if !missing.isEmpty {
      let program = program(for: probe)
      var panels: [String: HUB75Emulator?] = [:]
      for setting in missing {
        let wiring = wirings[setting] ?? HUB75Emulator.Wiring(board(for: setting))
        wirings[setting] = wiring
        if panels[setting.kind] == nil {
          panels[setting.kind] = .some(HUB75PanelFinder.run(program, on: wiring, starting: panelInit, settledOnly: true, countingPlaces: true))
        }
        seen[setting] = panels[setting.kind]!.map { answer(seeing: $0.seen(as: wiring), probe.pattern) } ?? .unknown
      }
      predictions[probe] = seen
    }
    return seen
  }

  /// A panel of `board` after showing `program` for a while: the refresh after one that
  /// shifted its row stages through (or, if none did, after two); the driver first starts
  /// the chips as `starting` says (as a scanner does at its start), which a panel of
  /// FM6126A or FM6127 chips (`board.panelInit`) needs to light at all.
  public static func run(_ program: HUB75Program, on board: HUB75Board, starting: HUB75PanelInit? = nil) -> HUB75Emulator {
    run(program, on: HUB75Emulator.Wiring(board), starting: starting, settledOnly: false)!
  }

  /// The same, and with `settledOnly`, `nil` when the picture still depends on the state the
  /// row circuit came up in: the first refresh did not shift every stage, and two panels,
  /// one come up with every stage low and one with every stage high, have not reached the
  /// same stages after two.
  static func run(
    _ program: HUB75Program, on wiring: HUB75Emulator.Wiring, starting: HUB75PanelInit?, settledOnly: Bool, countingPlaces: Bool = false
  ) -> HUB75Emulator? {
    let board = wiring.board
    let start = starting?.program(for: board)
    var panel = HUB75Emulator(wiring: wiring, countingPlaces: countingPlaces)
    if let start { panel.run(start) }
    panel.run(program)
    if board.rowAddress.holdsRowState && panel.stageShifts < panel.stages.count {
      panel.run(program)
      if settledOnly {
        var other = HUB75Emulator(wiring: wiring, rowStages: true)
        if let start { other.run(start) }
        for _ in 0..<2 { other.run(program) }
        guard other.stages == panel.stages else { return nil }
      }
    }
    panel.resetCounts()
    panel.run(program)
    return panel
  }

  /// What a person sees on `panel` (of any height the finder tries) when asked about `pattern`.
  public func answer(seeing panel: HUB75Emulator, _ pattern: Pattern) -> Answer {
    let panelRows = panel.board.panelRows
    // The first panel's red weights, row by row.
    var weights = [Int](repeating: 0, count: panelRows * panelColumns)
    let width = panel.board.matrixWidth
    for y in 0..<panelRows {
      for x in 0..<panelColumns { weights[y * panelColumns + x] = panel.weights[(y * width + x) * 3] }
    }
    switch pattern {
    case .everything:
      if weights.allSatisfy({ $0 == 0 }) { return .dark }
      return weights.allSatisfy { $0 == weights[0] } ? .even : .uneven
    case .numbers:
      var lit = Framebuffer(width: panelColumns, height: panelRows)
      for (index, weight) in weights.enumerated() where weight > 0 { lit[index % panelColumns, index / panelColumns] = true }
      return .numbers(Set((1...numberCount).filter { HUB75PanelFinder.canRead($0, in: lit) }))
    case .part:
      let cells = cells(rows: panelRows)
      return .parts(Set(cells.indices.filter { number in
        let cell = cells[number]
        return (cell.y..<(cell.y + cell.height)).contains { y in (cell.x..<(cell.x + cell.width)).contains { weights[y * panelColumns + $0] > 0 } }
      }.map { $0 + 1 }))
    }
  }
}

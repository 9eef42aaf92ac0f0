import MatrixCore

/// A sign of HUB75 panels modelled from the protocol, for tests and for users without a
/// panel: it takes the GPIO register writes and output-enable pulses and says what lights.
///
/// Each chain has six shift registers (R1 G1 B1 R2 G2 B2) as long as the chain; on the
/// clock's rising edge every one takes its line's level, the first bit clocked ending in the
/// panel farthest from the Pi. LAT's rising edge copies them to the output latches. The row
/// address circuit is the panel's kind: a decoder reading A-E, one line per row pair, or a
/// shift register of row stages (AB and ABC kinds shift on A's falling edge; SM5266 and
/// B707 on its rising edge while their enable line is high). A pulse lights the selected
/// row pairs' latched bits for its plane's weight; each LED adds up its lit weight, so one
/// refresh gives each colour's level.
public struct HUB75Emulator: Sendable {
  public private(set) var board: HUB75Board
  /// The level of every GPIO line.
  public private(set) var levels: UInt32 = 0
  /// Shift registers as rings, one per chain and colour line, one after the other:
  /// position q from the input (0: the last bit clocked) is
  /// `shifted[line * length + (head + q) % length]`.
  var shifted: [Bool]
  var head = 0
  /// The output latches, by column from the far end of the chain: `latched[line * length + column]`.
  var latched: [Bool]
  /// The row stages of shift-register address kinds.
  var stages: [Bool]
  /// Each LED's lit weight so far, red, green and blue, (x + y × width) × 3.
  public private(set) var weights: [Int]
  /// With `countingPlaces`, each register place's lit weight by colour input, (place × 3 +
  /// input), places as in `pixelAt`: what the panel lights whatever LEDs hang there.
  var placeWeights: [Int] = []
  /// Pulses seen for each row pair and plane (one refresh lights each once).
  public private(set) var pulses: [Int]
  /// Rising clock edges written together with a change of a colour line (a setup-time
  /// violation: the panel may take the old or the new bit).
  public private(set) var clockWithData = 0
  /// Pulses while no row pair, or several, were selected.
  public private(set) var badSelections = 0
  /// Register words written, clock rising edges, latches and pulses.
  public private(set) var writes = 0, clocks = 0, latches = 0, pulseCount = 0
  /// Control-register writes of the driver chips (FM6126A and kin): the clocks LAT stayed
  /// high for, and the last 16 bits shifted on the first colour line (the first of them the
  /// top bit), each time LAT fell after clocks while high.
  public private(set) var registerWrites: [(latchClocks: Int, bits: UInt16)] = []
  /// Whether the driver chips light anything: a panel of FM6126A or FM6127 chips (the
  /// board's `panelInit`) stays dark from power-up until each of its control registers has
  /// been written as its type needs (hzeller's README: such panels show nothing without
  /// it); other panels always light.
  public private(set) var outputsEnabled: Bool
  var clocksWhileLatched = 0
  /// The sign pixel of each (chain, half, column from the far end, row pair), or -1.
  var pixelAt: [Int32]
  let lines: [UInt32]
  /// Every colour line, as one mask.
  let dataMask: UInt32
  let (clock, latch): (UInt32, UInt32)
  /// The LED colour (0 red, 1 green, 2 blue) each colour input lights on this panel.
  let colorLit: [Int]
  let address: [UInt32]

  /// A sign at power-up: every line low, registers clear, the row stages of shift-register
  /// address kinds all `rowStages` (a real panel's come up as they will). With
  /// `countingPlaces`, it also counts what each register place lit, so that
  /// ``seen(as:)`` can tell what panels wired otherwise would show.
  public init(board: HUB75Board, rowStages: Bool = false, countingPlaces: Bool = false) {
    self.init(wiring: Wiring(board), rowStages: rowStages, countingPlaces: countingPlaces)
  }

  /// The same, for a board whose wiring is worked out already.
  public init(wiring: Wiring, rowStages: Bool = false, countingPlaces: Bool = false) {
    let board = wiring.board
    self.board = board
    let length = board.clocksPerRow
    lines = (0..<board.parallel).flatMap { board.pins.chains[$0].lines.map { UInt32(1) << UInt32($0) } }
    dataMask = lines.reduce(0, |)
    shifted = [Bool](repeating: false, count: length * lines.count)
    latched = shifted
    stages = [Bool](repeating: rowStages, count: board.rowAddress == .sm5266 ? 8 : board.rowPairs)
    weights = [Int](repeating: 0, count: board.matrixWidth * board.matrixHeight * 3)
    pulses = [Int](repeating: 0, count: board.rowPairs * board.colorDepth)
    clock = 1 << UInt32(board.pins.clk)
    latch = 1 << UInt32(board.pins.lat)
    address = board.pins.addressMasks
    outputsEnabled = board.panelInit == nil
    colorLit = board.colorOrder.channels
    pixelAt = wiring.pixelAt
    if countingPlaces { placeWeights = [Int](repeating: 0, count: pixelAt.count * 3) }
  }

  /// The panels' wiring: each pixel of a panel hangs on the matrix place its multiplexing
  /// gives; the matrix's row pair r holds rows r (upper half) and r + row pairs (lower).
  static func pixelTable(_ board: HUB75Board) -> [Int32] {
    let length = board.clocksPerRow
    var table = [Int32](repeating: -1, count: board.parallel * 2 * length * board.rowPairs)
    for y in 0..<board.matrixHeight {
      for x in 0..<board.matrixWidth {
        let place = board.multiplexing.matrixPosition(
          x: x % board.panelColumns, y: y % board.panelRows, columns: board.panelColumns, rows: board.panelRows)
        let column = (x / board.panelColumns) * board.matrixColumns + place.x
        let (half, row) = (place.y / board.rowPairs, place.y % board.rowPairs)
        table[(((y / board.panelRows) * 2 + half) * length + column) * board.rowPairs + row] = Int32(y * board.matrixWidth + x)
      }
    }
    return table
  }

  /// A board's LEDs on its register places, worked out once for many ``seen(as:)``.
  public struct Wiring: Sendable {
    public let board: HUB75Board
    let pixelAt: [Int32]

    public init(_ board: HUB75Board) { (self.board, pixelAt) = (board, HUB75Emulator.pixelTable(board)) }
  }

  /// What a panel wired as `wiring` would have lit in this one's place: the same lines
  /// driven the same way reach the same register places, which it wires to its own LEDs.
  /// Its board may differ from this panel's only in its multiplexing, not its stretch (its
  /// registers' length); the emulator must count places (`countingPlaces`).
  public func seen(as wiring: Wiring) -> HUB75Emulator {
    let board = wiring.board
    precondition(!placeWeights.isEmpty && board.clocksPerRow == self.board.clocksPerRow && board.rowPairs == self.board.rowPairs
      && board.rowAddress == self.board.rowAddress && board.parallel == self.board.parallel && board.colorOrder == self.board.colorOrder
      && board.panelInit == self.board.panelInit)
    var other = self
    other.board = board
    other.pixelAt = wiring.pixelAt
    other.weights = [Int](repeating: 0, count: board.matrixWidth * board.matrixHeight * 3)
    for (place, pixel) in other.pixelAt.enumerated() where pixel >= 0 {
      for channel in 0..<3 { other.weights[Int(pixel) * 3 + colorLit[channel]] += placeWeights[place * 3 + channel] }
    }
    return other
  }

  /// Runs the steps of a program (one refresh, or any part of one).
  public mutating func run(_ program: HUB75Program) {
    for word in program.words { run(HUB75Program.step(word)) }
  }

  /// Runs one step.
  public mutating func run(_ step: HUB75Program.Step) {
    switch step {
    case .set(let mask): self.write(levels | mask)
    case .clear(let mask): self.write(levels & ~mask)
    case .pulse(let plane): light(plane: plane)
    }
  }

  /// Forgets the lit weights and pulse counts (the registers and lines stay).
  public mutating func resetCounts() {
    for index in weights.indices { weights[index] = 0 }
    for index in pulses.indices { pulses[index] = 0 }
    for index in placeWeights.indices { placeWeights[index] = 0 }
    (clockWithData, badSelections, writes, clocks, latches, pulseCount) = (0, 0, 0, 0, 0, 0)
  }

  /// What each LED of the chain's canvas showed since the last reset (before the pixel
  /// mappers: ``HUB75Board/matrixWidth``): its lit weight per colour.
  public func color(x: Int, y: Int) -> (red: Int, green: Int, blue: Int) {
    let at = (y * board.matrixWidth + x) * 3
    return (weights[at], weights[at + 1], weights[at + 2])
  }

  mutating func write(_ new: UInt32) {
    writes += 1
    let old = levels
    levels = new
    let rising = { (line: UInt32) in old & line == 0 && new & line != 0 }
    let falling = { (line: UInt32) in old & line != 0 && new & line == 0 }
    if rising(clock) {
      clocks += 1
      if new & latch != 0 { clocksWhileLatched += 1 }
      if (old ^ new) & dataMask != 0 { clockWithData += 1 }
      let length = board.clocksPerRow
      head = head == 0 ? length - 1 : head - 1
      for line in lines.indices { shifted[line * length + head] = new & lines[line] != 0 }
    }
    if falling(latch) {
      if clocksWhileLatched > 0 {
        let length = board.clocksPerRow
        var bits: UInt16 = 0
        for q in stride(from: 15, through: 0, by: -1) where q < length {
          bits = bits << 1 | (shifted[(head + q) % length] ? 1 : 0)
        }
        registerWrites.append((clocksWhileLatched, bits))
        if !outputsEnabled, let panelInit = board.panelInit {
          outputsEnabled = panelInit.registers.allSatisfy { register in
            registerWrites.contains { $0.latchClocks == register.latchClocks && $0.bits == UInt16(register.pattern, radix: 2) }
          }
        }
      }
      clocksWhileLatched = 0
    }
    if rising(latch) {
      latches += 1
      let length = board.clocksPerRow
      for line in lines.indices {
        // Position q from the input is column length - 1 - q from the far end.
        let base = line * length
        for q in 0..<length {
          let at = head + q
          latched[base + length - 1 - q] = shifted[base + (at < length ? at : at - length)]
        }
      }
    }
    let (a, b, c) = (address[0], address[1], address[2])
    switch board.rowAddress {
    case .direct, .abcdLine:
      break
    case .abShift where falling(a):
      shiftStage(in: new & b != 0)
    case .abcShift where falling(a):
      shiftStage(in: new & c != 0)
    case .sm5266 where rising(a) && new & c != 0:
      shiftStage(in: new & b != 0)
    case .b707 where rising(a) && new & b != 0:
      shiftStage(in: new & c != 0)
    default:
      break
    }
  }

  /// Row stage shifts since power-up: once a shift register of N stages has shifted N
  /// times, its state no longer depends on the state it came up in.
  public private(set) var stageShifts = 0

  mutating func shiftStage(in value: Bool) {
    stageShifts += 1
    for stage in stride(from: stages.count - 1, to: 0, by: -1) { stages[stage] = stages[stage - 1] }
    stages[0] = value
  }

  /// Whether the address circuit selects row pair `row` now.
  public func isSelected(_ row: Int) -> Bool {
    let line = { (index: Int) in levels & address[index] != 0 }
    switch board.rowAddress {
    case .direct:
      var selected = 0
      for index in 0..<HUB75RowAddress.directLineCount(board.rowPairs) where line(index) { selected |= 1 << index }
      return row == selected
    case .abcdLine:
      return !line(row)
    case .abShift:
      return !stages[row]
    case .abcShift, .b707:
      return stages[row]
    case .sm5266:
      let group = (line(3) ? 1 : 0) + (line(4) ? 2 : 0)
      return row / 8 == group && stages[row % 8]
    }
  }

  mutating func light(plane: Int) {
    pulseCount += 1
    var selected = 0, row = 0
    for candidate in 0..<board.rowPairs where isSelected(candidate) { (selected, row) = (selected + 1, candidate) }
    guard selected == 1 else {
      badSelections += 1
      return
    }
    pulses[row * board.colorDepth + plane] += 1
    guard outputsEnabled else { return }
    let weight = 1 << plane
    let length = board.clocksPerRow
    for chain in 0..<board.parallel {
      for half in 0..<2 {
        for channel in 0..<3 {
          let base = (chain * 6 + half * 3 + channel) * length
          for column in 0..<length where latched[base + column] {
            let place = ((chain * 2 + half) * length + column) * board.rowPairs + row
            let pixel = Int(pixelAt[place])
            if pixel >= 0 { weights[pixel * 3 + colorLit[channel]] += weight }
            if !placeWeights.isEmpty { placeWeights[place * 3 + channel] += weight }
          }
        }
      }
    }
  }
}

/// HUB75 panels on their board (``ChipEmulation``): each refresh program is run through
/// the emulated panels, and what it lights is drawn.
public struct HUB75BoardEmulator: BoardEmulator {
  /// The panels as the last refresh left them.
  public private(set) var panels: HUB75Emulator
  var onFraction = 0.0

  /// Each pixel of the sign and an LED on the chain's canvas that shows it (through the
  /// pixel mappers).
  let links: [(visible: Int32, matrix: Int32)]

  /// The panels of `board` at power-up.
  public init(board: HUB75Board) {
    panels = HUB75Emulator(board: board)
    links = board.pixelMapper.links(for: board.chain)
    // The driver writes a panel's control registers once at start, as the scanner does.
    if let panelInit = board.panelInit { panels.run(panelInit.program(for: board)) }
  }

  public var width: Int { panels.board.width }
  public var height: Int { panels.board.height }

  public mutating func receive(_ program: HUB75Program) {
    panels.resetCounts()
    panels.run(program)
    onFraction = program.onFraction
  }

  public func draw(into frame: inout Frame) {
    frame.pixels.clear()
    // The sign's pixel, lit where the pixel mappers put it on the chain.
    for link in links {
      let at = Int(link.matrix) * 3
      if panels.weights[at] | panels.weights[at + 1] | panels.weights[at + 2] != 0 {
        frame.pixels[Int(link.visible) % width, Int(link.visible) / width] = true
      }
    }
    frame.brightness = onFraction
  }
}

/// A HUB75 sign's encoder feeding its emulated panels (``EmulatedDisplay``).
public typealias HUB75Emulation = ChipEmulation<HUB75Encoder, HUB75BoardEmulator>

extension ChipEmulation where Encoder == HUB75Encoder, Emulator == HUB75BoardEmulator {
  /// Starts the emulated panels of `board`, dark.
  public init(board: HUB75Board, color: RGBColor, regions: [ColorRegion] = []) {
    self.init(encoder: HUB75Encoder(board: board, color: color, regions: regions), emulator: HUB75BoardEmulator(board: board))
  }
}

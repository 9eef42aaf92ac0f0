import MatrixCore

/// A chain of HUB12 panels modelled from the parts on them, for tests and for users without
/// hardware: 74HC595-type shift registers and a row decoder, driven by SPI bytes and the
/// control lines, with time.
///
/// Each clock shifts one bit in (MSB of each byte first); every bit already in moves one
/// place away from the input, the last place of one panel feeding the next. A rising edge of
/// LAT copies the shift registers to their output latches (74HC595: storage register clock).
/// A, B, C, D pick the row group (a 74HC138-type decoder); while OE is active, the selected
/// group's rows light where the latched bit says so. ``advance(to:)`` integrates each LED's
/// lit time.
public struct HUB12Emulator: Sendable {
  public let board: HUB12Board
  /// Shift register bits as a ring: position q from the input (0: the last bit shifted) is
  /// `shifted[(head + q) % count]`.
  var shifted: [Bool]
  var head = 0
  /// Output latches, by position from the input.
  var latched: [Bool]
  /// The levels of the control lines, bit i high for `Signal.allCases[i]`.
  public private(set) var levels: UInt8 = 0
  /// For each latched bit: its pixel for each row group, x + y × width (precomputed).
  let pixelOfBit: [Int32]
  /// The time of the last event, in nanoseconds.
  public private(set) var now: Int64 = 0
  /// Each pixel's lit time so far, in nanoseconds, x + y × width.
  public private(set) var litTime: [Int64]
  /// Each row group's OE-on time so far, and how many separate times it was lit.
  public private(set) var groupOnTime: [Int64]
  public private(set) var groupLitCount: [Int]
  /// What each row group showed, each distinct picture once (ghosting shows as a second).
  public private(set) var groupPictures: [Set<Framebuffer>]
  /// Every time a row group lit, in order: the group and what it showed.
  public private(set) var lightings: [(group: Int, pixels: Framebuffer)] = []
  /// Times the latch or the row select changed while OE was active (a ghost).
  public private(set) var switchesWhileLit = 0
  /// How long each row group stayed lit each time it was, in nanoseconds, in order.
  public private(set) var onIntervals: [[Int64]]
  var litSince: Int64 = 0
  /// Whether pictures are recorded (the simulator skips it).
  let records: Bool

  /// A chain of panels at power-up: registers clear, lines low.
  public init(board: HUB12Board, records: Bool = true) {
    self.board = board
    self.records = records
    let bits = board.panelCount * board.bitsPerPanel
    shifted = [Bool](repeating: false, count: bits)
    latched = shifted
    litTime = [Int64](repeating: 0, count: board.width * board.height)
    groupOnTime = [Int64](repeating: 0, count: board.scan)
    groupLitCount = [Int](repeating: 0, count: board.scan)
    groupPictures = [Set<Framebuffer>](repeating: [], count: board.scan)
    onIntervals = [[Int64]](repeating: [], count: records ? board.scan : 0)
    // The panel wiring: bit j shifted into a panel (j = 0 first) is its pixel (x, row k of
    // the group); bit position q from the chain's input is panel q / B, j = B - 1 - q % B.
    let chain = board.chain
    let perPanel = board.bitsPerPanel
    var map = [Int32](repeating: 0, count: bits * board.scan)
    for q in 0..<bits {
      let panel = chain[q / perPanel]
      let j = perPanel - 1 - q % perPanel
      let (x, k): (Int, Int)
      switch board.order {
      case .dmd:
        let byte = j / 8
        (x, k) = (8 * (byte / 4) + j % 8, 3 - byte % 4)
      case .rows:
        (x, k) = (j % board.panelWidth, board.rowsPerGroup - 1 - j / board.panelWidth)
      }
      for group in 0..<board.scan {
        map[q * board.scan + group] = Int32(panel.x + x + (panel.y + group + k * board.scan) * board.width)
      }
    }
    pixelOfBit = map
  }

  /// The bit of a signal in ``levels``.
  public static func bit(_ signal: HUB12Board.Signal) -> UInt8 {
    1 << UInt8(HUB12Board.Signal.allCases.firstIndex(of: signal)!)
  }

  func level(_ signal: HUB12Board.Signal) -> Bool { levels & HUB12Emulator.bit(signal) != 0 }

  /// Whether OE lights the rows now.
  public var isLit: Bool { level(.oe) == board.oeActiveHigh }

  /// The row group the decoder selects now.
  public var selectedGroup: Int {
    (level(.a) ? 1 : 0) | (level(.b) ? 2 : 0) | (level(.c) ? 4 : 0) | (level(.d) ? 8 : 0)
  }

  /// Clocks bytes into the chain at time `t` (the outputs do not change).
  public mutating func shift(_ bytes: some Sequence<UInt8>, at t: Int64) {
    advance(to: t)
    let count = shifted.count
    for byte in bytes {
      for bit in stride(from: 7, through: 0, by: -1) {
        head = head == 0 ? count - 1 : head - 1
        shifted[head] = (byte >> UInt8(bit)) & 1 == 1
      }
    }
  }

  /// Sets control lines at time `t`: each signal of `changes` to its level.
  public mutating func set(_ changes: KeyValuePairs<HUB12Board.Signal, Bool>, at t: Int64) {
    var mask: UInt8 = 0, high: UInt8 = 0
    for (signal, level) in changes {
      mask |= HUB12Emulator.bit(signal)
      if level { high |= HUB12Emulator.bit(signal) }
    }
    set(mask: mask, levels: high, at: t)
  }

  /// Sets the lines of `mask` to `high` at time `t`: a rising LAT latches; a new select or
  /// a latch while OE is active is counted as a switch while lit.
  public mutating func set(mask: UInt8, levels high: UInt8, at t: Int64) {
    advance(to: t)
    let wasLit = isLit
    let (group, latchWasHigh) = (selectedGroup, level(.lat))
    levels = (levels & ~mask) | (high & mask)
    let rising = !latchWasHigh && level(.lat)
    if rising {
      let count = shifted.count
      for q in 0..<count { latched[q] = shifted[(head + q) % count] }
    }
    if wasLit && isLit && (rising || group != selectedGroup) { switchesWhileLit += 1 }
    guard records else { return }
    if wasLit && (!isLit || group != selectedGroup) && group < board.scan {
      onIntervals[group].append(t - litSince)
    }
    if isLit && (!wasLit || group != selectedGroup) && selectedGroup < board.scan {
      litSince = t
      groupLitCount[selectedGroup] += 1
      let pixels = litPixels()
      groupPictures[selectedGroup].insert(pixels)
      lightings.append((selectedGroup, pixels))
    }
  }

  /// What lights now: the selected group's rows where the latched bits say so.
  public func litPixels() -> Framebuffer {
    var pixels = Framebuffer(width: board.width, height: board.height)
    drawLit(into: &pixels)
    return pixels
  }

  /// Lights in `pixels` (the sign's size) what lights now.
  public func drawLit(into pixels: inout Framebuffer) {
    guard isLit, selectedGroup < board.scan else { return }
    let (group, scan, width) = (selectedGroup, board.scan, board.width)
    let on = !board.dataActiveLow
    for q in latched.indices where latched[q] == on {
      let pixel = Int(pixelOfBit[q * scan + group])
      pixels[pixel % width, pixel / width] = true
    }
  }

  /// Lets time pass to `t`, adding the lit LEDs' time.
  public mutating func advance(to t: Int64) {
    defer { now = max(now, t) }
    guard records, isLit, t > now, selectedGroup < board.scan else { return }
    let duration = t - now
    let group = selectedGroup
    groupOnTime[group] += duration
    let on = !board.dataActiveLow
    for q in latched.indices where latched[q] == on {
      litTime[Int(pixelOfBit[q * board.scan + group])] += duration
    }
  }
}

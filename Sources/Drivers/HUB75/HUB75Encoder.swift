import MatrixCore

/// Turns frames into the refresh program of a HUB75 sign (``HUB75Program``): for each row
/// pair, for each bitplane, the columns shifted in (data on the clock's falling edge, the
/// rising edge in a write of its own), the row address, the latch, and one output-enable
/// pulse of the plane's weight.
///
/// Each lit pixel takes its colour (the sign's, or its zone's) at the board's colour depth,
/// through the lightness correction unless the board turns it off; the board's brightness
/// and the frame's set the share of each pulse that is lit.
public struct HUB75Encoder: FrameEncoder, Sendable {
  public let board: HUB75Board
  public let width: Int, height: Int
  /// For each (row pair, matrix column of the chain, slot): the source pixel's bit in the
  /// frame's words, or -1 where no LED is. Slot = chain × 2 + half (0 upper, 1 lower).
  let sources: [Int32]
  /// The palette index of each source (the colour of its zone).
  let sourceColors: [UInt8]
  /// For each refresh of the dither cycle, palette colour and plane shown: its red, green
  /// and blue bits (1, 2, 4).
  let planeBits: [UInt8]
  /// For each slot and each combination of colour bits: the GPIO mask.
  let slotMasks: [UInt32]
  /// Every colour line, the clock and the latch.
  let colourMask: UInt32, clock: UInt32, latch: UInt32
  /// The address lines A-E as masks.
  let addressLines: [UInt32]
  let slots: Int
  /// The most words a refresh can take: output programs are given that room at the first
  /// frame, so no later frame (one with more lines changing than any before) grows them.
  let maximumWords: Int
  /// The brightness at full, as a share of each pulse.
  let fullOn: Double
  /// The palette: the sign's colour and each zone's, as levels of the colour depth.
  public let palette: [(red: Int, green: Int, blue: Int)]

  /// Prepares an encoder: the sign in `base`, each region in its own colour (later regions
  /// win where they overlap).
  public init(board: HUB75Board, color base: RGBColor, regions: [ColorRegion] = []) {
    self.board = board
    (width, height) = (board.width, board.height)
    let depth = board.colorDepth
    var colors: [RGBColor] = [base]
    for region in regions where !colors.contains(region.color) { colors.append(region.color) }
    palette = colors.map { color in
      let level = { (value: UInt8) in HUB75Encoder.level(value, depth: depth, lightness: board.lightnessCorrection) }
      return (level(color.red), level(color.green), level(color.blue))
    }
    // With d dither bits, refresh i of 2^d shows each level's high bits, plus one where the
    // low bits say (spread over the refreshes): their average is the level.
    let dither = board.ditherBits, shown = depth - dither
    var planeBits: [UInt8] = []
    for refresh in 0..<(1 << dither) {
      for color in palette {
        // Each colour input gets the level of the colour it lights on this panel.
        let channels = [color.red, color.green, color.blue]
        let levels = board.colorOrder.channels.map { channels[$0] }.map { level in
          min((level >> dither) + (HUB75Encoder.ditherRank(refresh, bits: dither) < level & ((1 << dither) - 1) ? 1 : 0), (1 << shown) - 1)
        }
        for plane in 0..<shown {
          let red = (levels[0] >> plane) & 1, green = (levels[1] >> plane) & 1, blue = (levels[2] >> plane) & 1
          planeBits.append(UInt8(red | green << 1 | blue << 2))
        }
      }
    }
    self.planeBits = planeBits
    let pins = board.pins
    slots = 2 * board.parallel
    var masks: [UInt32] = []
    for chain in 0..<board.parallel {
      let lines = pins.chains[chain]
      for (red, green, blue) in [(lines.r1, lines.g1, lines.b1), (lines.r2, lines.g2, lines.b2)] {
        let lines: [UInt32] = [1 << UInt32(red), 1 << UInt32(green), 1 << UInt32(blue)]
        for bits in 0..<8 {
          var mask: UInt32 = 0
          for channel in 0..<3 where bits & (1 << channel) != 0 { mask |= lines[channel] }
          masks.append(mask)
        }
      }
    }
    slotMasks = masks
    colourMask = masks.reduce(0, |)
    (clock, latch) = (1 << UInt32(pins.clk), 1 << UInt32(pins.lat))
    addressLines = pins.addressMasks
    fullOn = Double(board.intensity + 1) / 16

    // Where each pixel of the sign is shifted: its place on the chain's canvas (through the
    // pixel mappers), its panel (chain, place in the chain), the matrix position within
    // the panel, the row pair and half.
    let stride = (board.width + 63) >> 6
    let (clocks, rowPairs, matrixColumns) = (board.clocksPerRow, board.rowPairs, board.matrixColumns)
    var sources = [Int32](repeating: -1, count: rowPairs * clocks * slots)
    var sourceColors = [UInt8](repeating: 0, count: sources.count)
    for link in board.pixelMapper.links(for: board.chain) {
      let (visibleX, visibleY) = (Int(link.visible) % board.width, Int(link.visible) / board.width)
      let (x, y) = (Int(link.matrix) % board.matrixWidth, Int(link.matrix) / board.matrixWidth)
      let (chain, panel) = (y / board.panelRows, x / board.panelColumns)
      let place = board.multiplexing.matrixPosition(x: x % board.panelColumns, y: y % board.panelRows, columns: board.panelColumns, rows: board.panelRows)
      let (half, row) = (place.y / rowPairs, place.y % rowPairs)
      let column = panel * matrixColumns + place.x
      let index = (row * clocks + column) * slots + chain * 2 + half
      sources[index] = Int32((visibleY * stride + (visibleX >> 6)) * 64 + (63 - (visibleX & 63)))
      let color = regions.last { $0.contains(visibleX, visibleY) }?.color ?? base
      sourceColors[index] = UInt8(colors.firstIndex(of: color)!)
    }
    self.sources = sources
    self.sourceColors = sourceColors
    // Every clock's three writes, every plane's latch and pulse, and each row's address
    // select (on every plane where the address is written again).
    var selectWords = 0
    for row in 0..<rowPairs {
      var select = HUB75Program()
      board.rowAddress.select(row, rowPairs: rowPairs, lines: pins.addressMasks, into: &select)
      selectWords += select.words.count
    }
    maximumWords = 1 + (1 << dither) * (rowPairs * shown * (3 * clocks + 3) + (board.rowAddress.rewritesEveryPlane ? shown : 1) * selectWords)
  }

  /// The turn (0 to 2^bits − 1) of refresh `refresh` to show a level's extra step: refresh
  /// turns in bit-reversed order, so a step shown in half the refreshes alternates.
  static func ditherRank(_ refresh: Int, bits: Int) -> Int {
    var rank = 0
    for bit in 0..<bits where refresh & (1 << bit) != 0 { rank |= 1 << (bits - 1 - bit) }
    return rank
  }

  /// The level (0 to 2^depth − 1) of an 8-bit colour value: its CIE 1931 lightness
  /// turned into luminance, or linear.
  public static func level(_ value: UInt8, depth: Int, lightness: Bool) -> Int {
    let top = Double((1 << depth) - 1)
    return Int((share(value, lightness: lightness) * top).rounded())
  }

  /// The share of full on-time an 8-bit colour value asks for: its CIE 1931 lightness
  /// turned into luminance, or linear.
  public static func share(_ value: UInt8, lightness: Bool) -> Double {
    let fraction = Double(value) / 255
    guard lightness else { return fraction }
    let l = fraction * 100
    return l <= 8 ? l / 902.3 : ((l + 16) / 116) * ((l + 16) / 116) * ((l + 16) / 116)
  }

  /// Dark until the first frame: nothing to run.
  public mutating func startUp(into output: inout HUB75Program) {
    output.removeAll()
  }

  /// The refresh that shows `frame`; a frame with nothing lit (or no brightness) is dark.
  public mutating func encode(_ frame: Frame, into output: inout HUB75Program) {
    precondition(frame.pixels.width == width && frame.pixels.height == height, "frame size is not the board's")
    output.removeAll()
    output.reserveCapacity(maximumWords)
    let on = fullOn * frame.brightness
    guard on > 0, frame.pixels.words.contains(where: { $0 != 0 }) else { return }
    output.onFraction = on
    encode(frame.pixels.words, into: &output)
  }

  /// Dark: nothing to run, output enable off.
  public mutating func shutDown(into output: inout HUB75Program) {
    output.removeAll()
  }

  func encode(_ words: [UInt64], into program: inout HUB75Program) {
    let (clocks, slots, dither) = (board.clocksPerRow, self.slots, board.ditherBits)
    let shown = board.colorDepth - dither, colorCount = palette.count
    let (clock, latch, colourMask) = (self.clock, self.latch, self.colourMask)
    program.refreshes = 1 << dither
    // A known start: colour lines, clock and latch low.
    program.clear(colourMask | clock | latch)
    var levels: UInt32 = 0
    sources.withUnsafeBufferPointer { sources in
      sourceColors.withUnsafeBufferPointer { colors in
        planeBits.withUnsafeBufferPointer { planeBits in
          slotMasks.withUnsafeBufferPointer { masks in
            words.withUnsafeBufferPointer { words in
              for refresh in 0..<(1 << dither) {
                for row in 0..<board.rowPairs {
                  for plane in 0..<shown {
                    let bitsBase = refresh * colorCount * shown + plane
                    var at = row * clocks * slots
                    for _ in 0..<clocks {
                      var word: UInt32 = 0
                      for slot in 0..<slots {
                        let source = Int(sources[at + slot])
                        if source >= 0 && (words[source >> 6] >> UInt64(source & 63)) & 1 != 0 {
                          word |= masks[slot << 3 + Int(planeBits[bitsBase + Int(colors[at + slot]) * shown])]
                        }
                      }
                      at += slots
                      // The falling edge carries the lines that go low; those that go high
                      // are set next, and the rising edge comes in a write of its own.
                      program.clear(levels & ~word | clock)
                      program.set(word & ~levels)
                      program.set(clock)
                      levels = word
                    }
                    if plane == 0 || board.rowAddress.rewritesEveryPlane {
                      board.rowAddress.select(row, rowPairs: board.rowPairs, lines: addressLines, into: &program)
                    }
                    program.set(latch)
                    program.clear(latch)
                    // The plane's own weight: the lowest `dither` planes are never shown.
                    program.pulse(plane: plane + dither)
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

/// The driver chips of some panels that stay dark until their control registers are
/// written at start (hzeller's `--led-panel-type`): a 16-bit pattern shifted along the whole
/// chain with LAT held high for the last N clocks, N picking the register.
public enum HUB75PanelInit: String, Sendable, CaseIterable {
  /// FM6126A (many recent P2.5-P5 indoor panels): register 1 all on but the first bit (full
  /// brightness), register 2 with bit 9 (the panel on); written on every colour line, with A
  /// high.
  case fm6126a
  /// FM6127: three registers, written on the first chain's colour lines.
  case fm6127

  /// Each register as hzeller writes it: the bits (the first shifted first) and the clocks
  /// LAT stays high at the end.
  var registers: [(pattern: String, latchClocks: Int)] {
    switch self {
    case .fm6126a: [("0111111111111111", 11), ("0000000001000000", 12)]
    case .fm6127: [("1111111111001110", 11), ("1110000001100010", 12), ("0101111100000000", 10)]
    }
  }

  /// The register writes for `board`, run once before the first refresh.
  public func program(for board: HUB75Board) -> HUB75Program {
    var program = HUB75Program()
    let pins = board.pins
    let lines = self == .fm6126a ? (0..<board.parallel).flatMap { pins.chains[$0].lines } : pins.chains[0].lines
    let colours = lines.reduce(UInt32(0)) { $0 | 1 << UInt32($1) }
    let (clock, latch, a) = (UInt32(1) << UInt32(pins.clk), UInt32(1) << UInt32(pins.lat), UInt32(1) << UInt32(pins.address[0]))
    let (on, off, mask) = self == .fm6126a ? (colours | a, a, colours | a | latch) : (colours, 0, colours | latch)
    let columns = board.clocksPerRow
    program.clear(clock | latch)
    for (pattern, latchClocks) in registers {
      let bits = Array(pattern.utf8)
      for column in 0..<columns {
        var value = bits[column % 16] == UInt8(ascii: "1") ? on : off
        if column >= columns - latchClocks { value |= latch }
        program.write(high: value, mask: mask)
        program.set(clock)
        program.clear(clock)
      }
      program.clear(latch)
    }
    return program
  }
}

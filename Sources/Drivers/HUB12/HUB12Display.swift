import Platform
import MatrixCore

/// A sign of HUB12 panels as a ``Display``: frames are encoded into scan cycles and handed
/// to the scanning loop (``HUB12Scanner``), which keeps the panels lit. On shutdown the rows
/// go dark, the loop stops with OE off and the lines are released. The panels hold nothing:
/// they cannot keep the last frame once marquee ends.
public typealias HUB12Display = EncodedDisplay<HUB12Encoder, HUB12Scanner>

extension EncodedDisplay where Encoder == HUB12Encoder, Transport == HUB12Scanner {
  /// Opens the board's SPI device and GPIO lines and starts scanning, dark.
  ///
  /// `onFailure` is called from the scanning thread if the loop stops on a failure.
  public init(board: HUB12Board, onFailure: (@Sendable () -> Void)? = nil) throws {
    let scanner = try HUB12Scanner(board: board, onFailure: onFailure)
    do {
      try self.init(encoder: HUB12Encoder(board: board), transport: scanner)
    } catch {
      try? scanner.finish()
      throw error
    }
  }
}

/// HUB12 panels on their board (``ChipEmulation``): each scan cycle is run through the
/// emulated shift registers, latches and row decoder, and what each row group lights is
/// drawn.
public struct HUB12BoardEmulator: BoardEmulator {
  /// The panels' parts as the last cycle left them.
  public private(set) var panels: HUB12Emulator
  var seen: Framebuffer
  var onFraction = 0.0

  /// The panels of `board` at power-up.
  public init(board: HUB12Board) {
    panels = HUB12Emulator(board: board, records: false)
    seen = Framebuffer(width: board.width, height: board.height)
  }

  public var width: Int { panels.board.width }
  public var height: Int { panels.board.height }

  /// One scan cycle, slot by slot, as the scanning loop runs it.
  /// The row-select signals' bits, A to D.
  static let selectBits = [HUB12Board.Signal.a, .b, .c, .d].map(HUB12Emulator.bit)

  public mutating func receive(_ cycle: HUB12Cycle) {
    let board = panels.board
    let (oe, lat) = (HUB12Emulator.bit(.oe), HUB12Emulator.bit(.lat))
    let select = HUB12BoardEmulator.selectBits.reduce(0, |)
    let oeOn: UInt8 = board.oeActiveHigh ? oe : 0, oeOff: UInt8 = board.oeActiveHigh ? 0 : oe
    seen.clear()
    onFraction = cycle.onFraction
    guard cycle.groups.count == board.scan else { return }
    for group in 0..<board.scan {
      panels.shift(cycle.groups.transaction(group), at: 0)
      var rows: UInt8 = 0
      for index in 0..<4 where group & (1 << index) != 0 { rows |= HUB12BoardEmulator.selectBits[index] }
      panels.set(mask: oe, levels: oeOff, at: 0)
      panels.set(mask: lat | select, levels: lat | rows, at: 0)
      panels.set(mask: lat | oe, levels: cycle.onFraction > 0 ? oeOn : oeOff, at: 0)
      panels.drawLit(into: &seen)
    }
    panels.set(mask: oe, levels: oeOff, at: 0)
  }

  public func draw(into frame: inout Frame) {
    frame.pixels.assign(seen)
    frame.brightness = onFraction
  }
}

/// A HUB12 sign's encoder feeding its emulated panels (``EmulatedDisplay``).
public typealias HUB12Emulation = ChipEmulation<HUB12Encoder, HUB12BoardEmulator>

extension ChipEmulation where Encoder == HUB12Encoder, Emulator == HUB12BoardEmulator {
  /// Starts the emulated panels of `board`, dark.
  public init(board: HUB12Board) {
    self.init(encoder: HUB12Encoder(board: board), emulator: HUB12BoardEmulator(board: board))
  }
}

/// Writes each frame's scan cycle to a file (`--spi-dump`): the bytes of every row group, in
/// group order, as they are shifted (the GPIO lines are not in it).
public final class HUB12DumpTransport: BatchTransport {
  let file: DumpTransport

  /// Creates (or truncates) the dump file.
  public init(path: String) throws(SPIError) {
    file = try DumpTransport(path: path)
  }

  public func send(_ cycle: HUB12Cycle) throws {
    try file.send(cycle.groups)
  }

  public func reopen() throws {
    throw SPIError(path: file.path, code: Errno.notSupported, operation: "reopen")
  }
}

/// Records each scan cycle sent, for tests of code that drives a HUB12 sign (as
/// ``RecordingTransport`` does for SPI chips and ``I2CRecordingTransport`` for I2C).
public struct HUB12RecordingTransport: BatchTransport {
  /// Every cycle sent, in order: each row group's bytes and the lit share of its slot.
  public private(set) var cycles: [(groups: [[UInt8]], onFraction: Double)] = []

  /// Creates an empty recorder.
  public init() {}

  public mutating func send(_ cycle: HUB12Cycle) throws {
    cycles.append(((0..<cycle.groups.count).map { Array(cycle.groups.transaction($0)) }, cycle.onFraction))
  }

  public mutating func reopen() throws {}
}

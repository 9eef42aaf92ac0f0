import MatrixCore

/// A sign of HT16K33 backpacks as a ``Display``: frames are encoded for the board and sent
/// through an I2C transport (i2c-dev, a dump file, a recorder). On shutdown every backpack
/// is blanked and its chip put in standby, unless the last frame is to be kept.
public typealias HT16K33Display<Transport: I2CTransport> = EncodedDisplay<HT16K33Encoder, Transport>

extension EncodedDisplay where Encoder == HT16K33Encoder {
  /// Prepares the backpacks of `board` and sends their start-up sequence.
  public init(board: HT16K33Board, transport: Transport, keepLastFrame: Bool = false) throws {
    try self.init(encoder: HT16K33Encoder(board: board), transport: transport, keepLastFrame: keepLastFrame)
  }
}

/// HT16K33 chips on their board (``ChipEmulation``).
public struct HT16K33BoardEmulator: BoardEmulator {
  /// The chips as the writes left them.
  public private(set) var bus: HT16K33Emulator
  let board: HT16K33Board

  /// The chips of `board`'s backpacks at power-up.
  public init(board: HT16K33Board) {
    self.board = board
    bus = HT16K33Emulator(addresses: board.backpacks.map(\.address))
  }

  public var width: Int { board.width }
  public var height: Int { board.height }
  public mutating func receive(_ batch: I2CWrites) { bus.receive(batch) }

  public func draw(into seen: inout Frame) {
    bus.drawVisiblePixels(on: board, into: &seen.pixels)
    seen.brightness = bus.visibleBrightness(on: board)
  }
}

/// An HT16K33 sign's encoder feeding its chip emulator (``EmulatedDisplay``).
public typealias HT16K33Emulation = ChipEmulation<HT16K33Encoder, HT16K33BoardEmulator>

extension ChipEmulation where Encoder == HT16K33Encoder, Emulator == HT16K33BoardEmulator {
  /// Starts the emulated chips of `board` with the start-up sequence.
  public init(board: HT16K33Board) {
    self.init(encoder: HT16K33Encoder(board: board), emulator: HT16K33BoardEmulator(board: board))
  }
}

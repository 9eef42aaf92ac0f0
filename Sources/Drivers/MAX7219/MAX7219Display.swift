import MatrixCore

/// A chain of MAX7219 modules as a ``Display``: frames are encoded for the board and sent
/// through an SPI transport (spidev, a dump file, a recorder). On shutdown every chip is
/// blanked and put in shutdown, unless the last frame is to be kept.
public typealias MAX7219Display<Transport: SPITransport> = EncodedDisplay<MAX7219Encoder, Transport>

extension EncodedDisplay where Encoder == MAX7219Encoder {
  /// Prepares the chain of `board` and sends its start-up sequence.
  public init(board: MAX7219Board, transport: Transport, keepLastFrame: Bool = false) throws {
    try self.init(encoder: MAX7219Encoder(board: board), transport: transport, keepLastFrame: keepLastFrame)
  }
}

/// A MAX7219 chain emulator on its board (``ChipEmulation``).
public struct MAX7219BoardEmulator: BoardEmulator {
  /// The chips as the bytes left them.
  public private(set) var chain: MAX7219ChainEmulator
  let board: MAX7219Board
  /// The board's chain order, computed once.
  let order: [MAX7219Board.ModulePosition]

  /// The chips of `board` at power-up.
  public init(board: MAX7219Board) {
    self.board = board
    order = board.chain
    chain = MAX7219ChainEmulator(chips: board.chipCount)
  }

  public var width: Int { board.width }
  public var height: Int { board.height }
  public mutating func receive(_ batch: SPITransactions) { chain.receive(batch) }

  public func draw(into seen: inout Frame) {
    chain.drawVisiblePixels(on: board, chain: order, into: &seen.pixels)
    seen.brightness = chain.visibleBrightness(on: board)
  }
}

/// A MAX7219 sign's encoder feeding its chain emulator (``EmulatedDisplay``).
public typealias MAX7219Emulation = ChipEmulation<MAX7219Encoder, MAX7219BoardEmulator>

extension ChipEmulation where Encoder == MAX7219Encoder, Emulator == MAX7219BoardEmulator {
  /// Starts the emulated chain of `board` with the start-up sequence.
  public init(board: MAX7219Board) {
    self.init(encoder: MAX7219Encoder(board: board), emulator: MAX7219BoardEmulator(board: board))
  }
}

/// A MAX7219 board shown through its chain emulator on another display.
public typealias EmulatedBoardDisplay<Screen: Display> = EmulatedDisplay<MAX7219Emulation, Screen>

extension EmulatedDisplay where Emulation == MAX7219Emulation {
  /// Starts the emulated chain of `board` and shows it on `screen`.
  ///
  /// - Throws: ``InvalidBoardValue`` when the screen is not the board's size.
  public init(board: MAX7219Board, screen: Screen) throws(InvalidBoardValue) {
    try self.init(MAX7219Emulation(board: board), screen: screen)
  }
}

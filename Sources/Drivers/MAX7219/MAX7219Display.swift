import MatrixCore

/// A chain of MAX7219 modules as a ``Display``: frames are encoded for the board and sent
/// through a transport (spidev, a dump file, a recorder).
///
/// The start-up sequence is sent when the display is created; ``shutdown()`` blanks every
/// chip and puts it in shutdown, unless the last frame is to be kept.
public struct MAX7219Display<Transport: SPITransport>: Display {
  public var width: Int { encoder.board.width }
  public var height: Int { encoder.board.height }
  public var wantsEveryFrame: Bool { false }
  /// The encoder, with what was sent so far.
  public private(set) var encoder: MAX7219Encoder
  /// Where the bytes go.
  public private(set) var transport: Transport
  /// Whether ``shutdown()`` leaves the last frame lit.
  public var keepLastFrame: Bool
  /// When set, a failing device is reopened with growing pauses instead of ending the run.
  public var retry: RetryPolicy?
  var pending = SPITransactions()
  /// A copy of the last frame shown (not a reference to the player's buffer: sharing it
  /// would make the player's next frame copy its storage).
  var lastFrame: Frame
  var hasLastFrame = false

  /// Prepares the chain and sends its start-up sequence.
  public init(board: Board, transport: Transport, keepLastFrame: Bool = false) throws {
    encoder = MAX7219Encoder(board: board)
    lastFrame = Frame(width: board.width, height: board.height)
    self.transport = transport
    self.keepLastFrame = keepLastFrame
    encoder.startUp(into: &pending)
    try flush()
  }

  mutating func flush() throws {
    defer { pending.removeAll() }
    try transport.send(pending)
  }

  public mutating func show(_ frame: Frame, changed: Bool) throws {
    guard changed else { return }
    lastFrame.pixels.assign(frame.pixels)
    lastFrame.brightness = frame.brightness
    hasLastFrame = true
    encoder.encode(frame, into: &pending)
    do {
      try flush()
    } catch {
      guard let retry else { throw error }
      try recover(from: error, retry)
    }
  }

  /// Reopens the device until it works again, then sends the start-up sequence and the
  /// whole last frame (the chips may have lost power).
  mutating func recover(from failure: any Error, _ retry: RetryPolicy) throws {
    try retry.recover(from: failure) {
      pending.removeAll()
      try transport.reopen()
      encoder.startUp(into: &pending)
      if hasLastFrame { encoder.encode(lastFrame, into: &pending) }
      try flush()
    }
  }

  public mutating func shutdown() throws {
    pending.removeAll()
    guard !keepLastFrame else { return }
    encoder.blankAndShutDown(into: &pending)
    try flush()
  }
}

/// A MAX7219 sign's encoder feeding its chain emulator (``EmulatedDisplay``).
public struct MAX7219Emulation: SignEmulation {
  /// The chips as the bytes left them.
  public private(set) var emulator: MAX7219ChainEmulator
  var encoder: MAX7219Encoder
  var pending = SPITransactions()
  let board: Board
  /// The board's chain order, computed once.
  let chain: [Board.ModulePosition]

  /// Starts the emulated chain with the start-up sequence.
  public init(board: Board) {
    self.board = board
    chain = board.chain
    encoder = MAX7219Encoder(board: board)
    emulator = MAX7219ChainEmulator(chips: board.chipCount)
    encoder.startUp(into: &pending)
    emulator.receive(pending)
    pending.removeAll()
  }

  public var width: Int { board.width }
  public var height: Int { board.height }

  public mutating func show(_ frame: Frame, into seen: inout Frame) {
    encoder.encode(frame, into: &pending)
    emulator.receive(pending)
    pending.removeAll()
    emulator.drawVisiblePixels(on: board, chain: chain, into: &seen.pixels)
    seen.brightness = emulator.visibleBrightness(on: board)
  }
}

/// A MAX7219 board shown through its chain emulator on another display.
public typealias EmulatedBoardDisplay<Screen: Display> = EmulatedDisplay<MAX7219Emulation, Screen>

extension EmulatedDisplay where Emulation == MAX7219Emulation {
  /// Starts the emulated chain of `board` and shows it on `screen`.
  ///
  /// - Throws: ``InvalidBoardValue`` when the screen is not the board's size.
  public init(board: Board, screen: Screen) throws(InvalidBoardValue) {
    try self.init(MAX7219Emulation(board: board), screen: screen)
  }
}

import MatrixCore

/// A sign of HT16K33 backpacks as a ``Display``: frames are encoded for the board and sent
/// through an I2C transport (i2c-dev, a dump file, a recorder).
///
/// The start-up sequence is sent when the display is created; ``shutdown()`` blanks every
/// backpack and puts its chip in standby, unless the last frame is to be kept.
public struct HT16K33Display<Transport: I2CTransport>: Display {
  public var width: Int { encoder.board.width }
  public var height: Int { encoder.board.height }
  public var wantsEveryFrame: Bool { false }
  /// The encoder, with what was sent so far.
  public private(set) var encoder: HT16K33Encoder
  /// Where the writes go.
  public private(set) var transport: Transport
  /// Whether ``shutdown()`` leaves the last frame lit.
  public var keepLastFrame: Bool
  /// When set, a failing bus is reopened with growing pauses instead of ending the run.
  public var retry: RetryPolicy?
  var pending = I2CWrites()
  /// A copy of the last frame shown, sent whole after a recovery.
  var lastFrame: Frame

  /// Prepares the backpacks and sends their start-up sequence.
  public init(board: HT16K33Board, transport: Transport, keepLastFrame: Bool = false) throws {
    encoder = HT16K33Encoder(board: board)
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
    encoder.encode(frame, into: &pending)
    do {
      try flush()
    } catch {
      guard let retry else { throw error }
      // Backpacks that lost power forget everything: start them up and send the frame whole.
      try retry.recover(from: error) {
        pending.removeAll()
        try transport.reopen()
        encoder.startUp(into: &pending)
        encoder.encode(lastFrame, into: &pending)
        try flush()
      }
    }
  }

  public mutating func shutdown() throws {
    pending.removeAll()
    guard !keepLastFrame else { return }
    encoder.blankAndStandBy(into: &pending)
    try flush()
  }
}

/// An HT16K33 sign's encoder feeding its chip emulator (``EmulatedDisplay``).
public struct HT16K33Emulation: SignEmulation {
  /// The chips as the writes left them.
  public private(set) var emulator: HT16K33Emulator
  var encoder: HT16K33Encoder
  var pending = I2CWrites()
  let board: HT16K33Board

  /// Starts the emulated chips with the start-up sequence.
  public init(board: HT16K33Board) {
    self.board = board
    encoder = HT16K33Encoder(board: board)
    emulator = HT16K33Emulator(addresses: board.backpacks.map(\.address))
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
    emulator.drawVisiblePixels(on: board, into: &seen.pixels)
    seen.brightness = emulator.visibleBrightness(on: board)
  }
}

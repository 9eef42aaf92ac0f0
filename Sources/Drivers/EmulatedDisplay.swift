import MatrixCore

/// A board's encoder feeding its chip emulator: what the sign would light for each frame.
public protocol SignEmulation {
  /// The sign's width in pixels.
  var width: Int { get }
  /// The sign's height in pixels.
  var height: Int { get }
  /// Encodes `frame`, passes the bytes to the emulated chips and draws what they light
  /// into `seen` (the sign's size).
  mutating func show(_ frame: Frame, into seen: inout Frame)
}

/// Chips modelled from their datasheet, on the board they light: they take the bytes an
/// encoder writes and draw what a person would see.
public protocol BoardEmulator {
  /// What they take: SPI transactions or I2C writes.
  associatedtype Batch: ByteBatch
  /// The sign's width in pixels.
  var width: Int { get }
  /// The sign's height in pixels.
  var height: Int { get }
  /// Takes the bytes, as the chips would.
  mutating func receive(_ batch: Batch)
  /// Draws what the chips light into `seen` (the sign's size), with their brightness.
  func draw(into seen: inout Frame)
}

/// A chip family's encoder feeding its emulator: the encoder's start-up sequence at once,
/// then each frame's bytes.
public struct ChipEmulation<Encoder: FrameEncoder, Emulator: BoardEmulator>: SignEmulation
where Encoder.Batch == Emulator.Batch {
  /// The chips as the bytes left them.
  public private(set) var emulator: Emulator
  var encoder: Encoder
  var pending = Encoder.Batch()

  /// Starts the emulated chips with the encoder's start-up sequence.
  public init(encoder: Encoder, emulator: Emulator) {
    self.encoder = encoder
    self.emulator = emulator
    self.encoder.startUp(into: &pending)
    self.emulator.receive(pending)
    pending.removeAll()
  }

  public var width: Int { emulator.width }
  public var height: Int { emulator.height }

  public mutating func show(_ frame: Frame, into seen: inout Frame) {
    encoder.encode(frame, into: &pending)
    emulator.receive(pending)
    pending.removeAll()
    emulator.draw(into: &seen)
  }
}

/// Shows what a sign would show: frames go through the board's encoder and chip emulator,
/// and what the emulated chips light is shown on another display (the terminal).
///
/// `marquee --board FILE --simulate` uses it, so the preview has the board's exact geometry
/// and proves the bytes right.
public struct EmulatedDisplay<Emulation: SignEmulation, Screen: Display>: Display {
  public var width: Int { screen.width }
  public var height: Int { screen.height }
  public var wantsEveryFrame: Bool { screen.wantsEveryFrame }
  /// The encoder and chips.
  public private(set) var emulation: Emulation
  var screen: Screen
  var seen: Frame

  /// Shows `emulation`'s sign on `screen`.
  ///
  /// - Throws: ``InvalidBoardValue`` when the screen is not the sign's size.
  public init(_ emulation: Emulation, screen: Screen) throws(InvalidBoardValue) {
    guard screen.width == emulation.width && screen.height == emulation.height else {
      throw InvalidBoardValue(
        field: "screen",
        reason: "\(screen.width)x\(screen.height) is not the board's \(emulation.width)x\(emulation.height)")
    }
    self.emulation = emulation
    self.screen = screen
    seen = Frame(width: emulation.width, height: emulation.height)
  }

  public mutating func show(_ frame: Frame, changed: Bool) throws {
    if changed { emulation.show(frame, into: &seen) }
    try screen.show(seen, changed: changed)
  }

  public mutating func shutdown() throws {
    try screen.shutdown()
  }
}

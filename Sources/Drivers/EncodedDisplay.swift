import MatrixCore

/// Where a chip family's bytes go: a kernel driver, a dump file, a recorder.
public protocol BatchTransport {
  /// What it sends: SPI transactions or I2C writes.
  associatedtype Batch: ByteBatch
  /// Sends a batch, in order.
  mutating func send(_ batch: Batch) throws
  /// Closes and opens the device again after a failure (a device that went away and came
  /// back). Transports that cannot reopen throw.
  mutating func reopen() throws
  /// Throws a failure the transport met on its own (a scanning thread's), if any.
  mutating func check() throws
  /// Ends the transport's own work (a scanning thread) after the last batch; called once.
  mutating func finish() throws
}

extension BatchTransport {
  public mutating func check() throws {}
  public mutating func finish() throws {}
}

/// A sign of one chip family as a ``Display``: frames are encoded for the board and sent
/// through a transport. `MAX7219Display`, `HT16K33Display` and `PixelDisplay` are its
/// kinds.
///
/// The start-up sequence is sent when the display is created; ``shutdown()`` leaves the
/// sign dark (and the chips asleep), unless the last frame is to be kept. With ``retry``
/// set, a device that fails is reopened with growing pauses, and the chips (which may have
/// lost power) are started up and sent the whole last frame.
public struct EncodedDisplay<Encoder: FrameEncoder, Transport: BatchTransport>: Display
where Transport.Batch == Encoder.Batch {
  public var width: Int { encoder.width }
  public var height: Int { encoder.height }
  public var wantsEveryFrame: Bool { false }
  /// The encoder, with what was sent so far.
  public private(set) var encoder: Encoder
  /// Where the bytes go.
  public private(set) var transport: Transport
  /// Whether ``shutdown()`` leaves the last frame lit.
  public var keepLastFrame: Bool
  /// When set, a failing device is reopened with growing pauses instead of ending the run.
  public var retry: RetryPolicy?
  var pending = Encoder.Batch()
  /// A copy of the last frame shown (not a reference to the player's buffer: sharing it
  /// would make the player's next frame copy its storage).
  var lastFrame: Frame
  var hasLastFrame = false
  /// Whether ``sleep()`` put the chips to sleep and no frame has woken them since.
  public private(set) var asleep = false

  /// Sends the encoder's start-up sequence through the transport.
  public init(encoder: Encoder, transport: Transport, keepLastFrame: Bool = false) throws {
    self.encoder = encoder
    self.transport = transport
    self.keepLastFrame = keepLastFrame
    lastFrame = Frame(width: encoder.width, height: encoder.height)
    self.encoder.startUp(into: &pending)
    try flush()
  }

  mutating func flush() throws {
    defer { pending.removeAll() }
    try transport.send(pending)
  }

  public mutating func show(_ frame: Frame, changed: Bool) throws {
    try transport.check()
    guard changed || asleep else { return }
    lastFrame.pixels.assign(frame.pixels)
    lastFrame.brightness = frame.brightness
    hasLastFrame = true
    if asleep {
      // Awake again: the chips start up and get the whole frame.
      encoder.startUp(into: &pending)
      asleep = false
    }
    encoder.encode(frame, into: &pending)
    do {
      try flush()
    } catch {
      guard let retry else { throw error }
      try retry.recover(from: error) {
        pending.removeAll()
        try transport.reopen()
        encoder.startUp(into: &pending)
        if hasLastFrame { encoder.encode(lastFrame, into: &pending) }
        try flush()
      }
    }
  }

  /// Sends the encoder's resting sequence (dark, the chips asleep: MAX7219 shutdown, HT16K33
  /// standby, HUB12 output off and the scan idle, LED strips black); the next frame wakes
  /// them.
  public mutating func sleep() throws {
    pending.removeAll()
    encoder.shutDown(into: &pending)
    try flush()
    asleep = true
  }

  public var isAsleep: Bool { asleep }

  public mutating func shutdown() throws {
    pending.removeAll()
    if !keepLastFrame {
      encoder.shutDown(into: &pending)
      do {
        try flush()
      } catch {
        try? transport.finish()
        throw error
      }
    }
    try transport.finish()
  }
}

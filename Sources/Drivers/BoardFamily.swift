import Platform
import MatrixCore
import SimpleJSON

/// One chip family of LED boards (MAX7219, HT16K33, the addressable pixels, HUB12): how its
/// board files read, what its sign is, and how it is driven and emulated. Each family
/// implements it in its own folder; ``SignBoard/families`` lists them, so a new family is a
/// folder and one line there.
public protocol BoardFamily: Sendable, Equatable {
  /// The `driver` values of the family's board files (`max7219`; `ws2812`, `apa102`...).
  static var drivers: [String] { get }
  /// Reads a board file whose `driver` is one of ``drivers``; old keys still read add a
  /// sentence to `notices` naming the key to write now.
  static func decode(_ fields: JSONFields, driver: String, notices: inout [String]) throws(JSONFieldError) -> Self

  /// The board's short name.
  var name: String { get }
  /// The sign's size in pixels.
  var width: Int { get }
  var height: Int { get }
  /// The family and its variant as `marquee boards` lists it (`max7219/fc16`, `ws2812`).
  var kind: String { get }
  /// Every device node the board opens, the data's first.
  var devices: [String] { get }
  /// What one unit is called: `module`, `backpack`, `panel`.
  var unitName: String { get }
  /// The units in data order, with their cells on the sign.
  var units: [SignBoard.Unit] { get }
  /// The bus the board's bytes go over, which says which dump option writes them.
  var dataBus: BoardBus { get }
  /// The steps of full brightness the chips have.
  var intensitySteps: ClosedRange<Int> { get }
  /// This board at another full brightness.
  func with(intensity: Int) throws(InvalidBoardValue) -> Self
  /// Why the family cannot do what `settings` ask (HUB12 panels hold no frame for `--keep`),
  /// or `nil`.
  func refusal(_ settings: BoardSettings) -> String?
  /// Drives the real board (or writes its bytes to `settings.dumpPath`) and hands the
  /// display to `visitor`; it is shut down when the visitor returns or throws.
  func drive(_ settings: BoardSettings, _ visitor: inout some DisplayVisitor) throws
  /// Emulates the board's chips from the datasheet on `screen` and hands that display to
  /// `visitor`.
  func emulate<Screen: Display>(on screen: Screen, _ settings: BoardSettings, _ visitor: inout some DisplayVisitor) throws
}

/// What a run asks of a board's display.
public struct BoardSettings: Sendable {
  /// A file to write the bytes to instead of the device (`--spi-dump`, `--i2c-dump`).
  public var dumpPath: String?
  /// Leave the last frame lit on exit (`--keep`).
  public var keepLastFrame: Bool
  /// Reopen a device that fails mid-run (`--retry`).
  public var retry: RetryPolicy?
  /// What an RGB board lights for a lit pixel, and per region.
  public var color: RGBColor
  public var regions: [ColorRegion]
  /// Where a warning goes (the scanning loop without real-time priority).
  public var warn: @Sendable (String) -> Void
  /// Called when a display's own thread fails (the HUB12 scanner): the run should stop.
  public var onFailure: @Sendable () -> Void
  /// Handed the heartbeat of a display's own thread (the HUB12 scanner), for a watchdog
  /// to look at with the frame loop's.
  public var watch: @Sendable (Heartbeat) -> Void = { _ in }
  /// Handed a scanning loop's figures when it ends (refresh rate, lateness, overruns), as
  /// `name=value` fields on one line: the front end decides where they go.
  public var report: @Sendable (String) -> Void = { _ in }

  public init(
    dumpPath: String? = nil, keepLastFrame: Bool = false, retry: RetryPolicy? = nil, color: RGBColor = LEDColor.red.rgb,
    regions: [ColorRegion] = [], warn: @escaping @Sendable (String) -> Void = { _ in }, onFailure: @escaping @Sendable () -> Void = {}
  ) {
    self.dumpPath = dumpPath
    self.keepLastFrame = keepLastFrame
    self.retry = retry
    self.color = color
    self.regions = regions
    self.warn = warn
    self.onFailure = onFailure
  }
}

/// The bus a board's bytes go over.
public enum BoardBus: String, Sendable, CaseIterable {
  case spi, i2c
  /// GPIO registers written from user space (HUB75 panels).
  case gpio

  /// How a board on it is reached, for messages: `on an SPI bus`.
  public var wiring: String {
    switch self {
    case .spi: "on an SPI bus"
    case .i2c: "on an I2C bus"
    case .gpio: "driven through the GPIO registers"
    }
  }

  /// The command-line option that writes its bytes to a file.
  public var dumpOption: String {
    switch self {
    case .spi: "--spi-dump"
    case .i2c: "--i2c-dump"
    case .gpio: "--hub75-dump"
    }
  }
}

/// Code that runs on a display whatever its type: a family makes the display, the visitor
/// plays frames on it.
public protocol DisplayVisitor {
  mutating func visit<D: Display>(_ display: inout D) throws
}

extension BoardFamily {
  /// Drives `encoder` on `transport`, retrying as the settings say.
  func drive<E: FrameEncoder, T: BatchTransport>(
    _ encoder: E, on transport: T, _ settings: BoardSettings, _ visitor: inout some DisplayVisitor
  ) throws where T.Batch == E.Batch {
    var display = try EncodedDisplay(encoder: encoder, transport: transport, keepLastFrame: settings.keepLastFrame)
    display.retry = settings.retry
    try visitor.visit(&display)
  }

  /// Shows `emulation` on `screen`.
  func show<E: SignEmulation, Screen: Display>(_ emulation: E, on screen: Screen, _ visitor: inout some DisplayVisitor) throws {
    var display = try EmulatedDisplay(emulation, screen: screen)
    try visitor.visit(&display)
  }

  public var intensitySteps: ClosedRange<Int> { 0...15 }
  public func refusal(_ settings: BoardSettings) -> String? { nil }
}

/// A board that cannot be driven as its file says (the SPI driver gave a clock the LEDs'
/// coding does not work at).
public struct BoardDriveError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

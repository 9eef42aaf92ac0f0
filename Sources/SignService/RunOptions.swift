import LiveData
import BitmapFonts
import Drivers
import Marquee
import SimpleJSON

/// Everything the command line says about one run of the sign: the sign's own options
/// (size, pacing, outputs, files, the server), and in ``zone`` the options every zone
/// starts from.
public struct RunOptions: Sendable, Equatable {
  /// What the zones show and how, as the command line gives it: the default of every zone
  /// (a layout's and a config's zones start from it; the messages are the first zone's).
  public var zone = ZoneOptions()

  /// Where frames go.
  public enum Output: String, Sendable, CaseIterable {
    /// The simulated LED sign (dots, in colour) redrawn in place.
    case leds
    /// Plain text frames (`#` and `.`), one after another.
    case ascii
  }

  /// What the sign does when standard input ends (`--stdin`).
  public enum EndOfInput: String, Sendable, CaseIterable {
    /// Keep showing the last content.
    case keep
    /// Blank every zone and keep running.
    case blank
    /// Blank the sign and exit 0, so a service manager restarts the pipeline.
    case exit
  }

  /// Cycle mode: a sprite file for the sprite effect.
  public var spritePath: String?
  /// A folder of pictures messages show by name (`{icon:logo}`), besides the built-in icons.
  public var iconsPath: String?

  /// Record an animated GIF to this file instead of showing the sign.
  public var gifPath: String?
  /// Write the first frame as a PBM image to this file instead of showing the sign.
  public var pbmPath: String?
  /// Seconds to record (GIF), when `--frames` is not given.
  public var seconds: Double?
  /// Image pixels per LED in GIFs.
  public var gifScale = 4
  /// Read updates from standard input while running.
  public var stdin = false
  /// What to do when standard input ends.
  public var onEndOfInput = EndOfInput.keep
  /// The Unix time of the sign's t = 0 for time placeholders (`nil`: when the sign starts).
  public var clockStart: Double?
  /// A layout file: zones, each with its own messages and options.
  public var layoutPath: String?
  /// A config file (`--config`): its options come first, the command line's override them.
  public var configPath: String?
  /// The `zones` array of the config file, read when the sign is built (the command line's
  /// options are the zones' defaults, as for a layout file).
  public var configZones: JSONValue?
  /// The programs, brightness schedule and off periods of the config file, if it has them.
  public var schedule: SignSchedule?
  /// The live data sources of the config file: what `{source:NAME}` in a message shows.
  public var sources: [LiveSource] = []
  /// Whether the sign is split into zones (a layout file, or zones in the config file).
  public var hasZones: Bool { layoutPath != nil || configZones != nil }
  /// A board file: drive that sign (or simulate it).
  public var boardPath: String?
  /// With a board: show the emulated sign instead of driving the device.
  public var simulate = false
  /// With a board: write the SPI bytes to this file instead of the device.
  public var spiDump: String?
  /// With an I2C board: write each I2C message, as text, to this file instead of the bus.
  public var i2cDump: String?
  /// With a HUB75 board: write the refresh of the last frame, as a text trace, to this file
  /// instead of the GPIO registers.
  public var hub75Dump: String?
  /// The dump files given, each with the bus whose bytes it takes.
  public var dumps: [(bus: BoardBus, path: String)] {
    [(BoardBus.spi, spiDump), (.i2c, i2cDump), (.gpio, hub75Dump)].compactMap { bus, path in path.map { (bus, $0) } }
  }
  /// With a board: reopen a failing device with growing pauses instead of stopping.
  public var retry = false
  /// With a board: leave the last frame lit on exit instead of blanking.
  public var keepLastFrame = false
  /// With a board: the chip's step at full brightness (the brightness level 15), 0-15,
  /// instead of the board file's `intensity`.
  public var intensity: Int?
  /// Light each module of the board in chain order instead of showing messages.
  public var identify = false
  /// `marquee serve`: run the sign with an HTTP server beside it.
  public var serve = false
  /// Where `serve` listens (`HOST:PORT`, `[IPv6]:PORT`).
  public var listen = "127.0.0.1:8080"
  /// The file of the bearer token `serve` asks for (made, mode 0600, if missing).
  public var tokenFile: String?
  /// The file `serve` keeps what a person changed in, across restarts.
  public var statePath: String?
  /// Host names `serve` answers to besides this machine's own and IP addresses.
  public var allowHosts: [String] = []
  /// The MQTT broker `serve` connects to (`mqtt://[user:password@]host[:port]`).
  public var mqttURL: String?
  /// A file whose first line is the MQTT broker's password (instead of the URL's).
  public var mqttPasswordFile: String?
  /// The topic filters placeholders may read in content from MQTT or from the API without
  /// a token (none given: the sign's own prefix, `PREFIX/#`).
  public var mqttValues: [String] = []
  /// With MQTT: the group prefixes whose command topics the sign also takes, in order
  /// (`--mqtt-group`, repeatable; `"mqttGroups"` in a config).
  public var mqttGroups: [String] = []
  /// The topic prefix of this sign's MQTT topics (default `marquee/<hostname>`).
  public var mqttTopic: String?
  /// Whether `serve` announces the sign to Home Assistant (MQTT discovery).
  public var haDiscovery = false
  /// The zones whose colour is not the sign's, for boards of RGB LEDs (set when the sign
  /// is built).
  public var colorRegions: [ColorRegion] = []
  /// Whether `--width` or `--height` were given (a board sets its own size).
  public var sizeGiven = false

  /// Sign width in pixels.
  public var width = 64
  /// Sign height in pixels.
  public var height = 8
  /// Frames per second.
  public var fps = 40.0
  /// Stop after this many frames (`nil`: run until interrupted).
  public var frames: Int?
  /// Stop after this many full loops of the content (a pass of the ribbon, a round of the
  /// cycle); `nil`: run until interrupted.
  public var loops: Int?
  /// Render without waiting for each frame's time.
  public var noWait = false
  /// Where frames go (`nil`: LEDs on a terminal, text otherwise).
  public var output: Output?
  /// Whether to colour the simulated LEDs.
  public var color = true

  /// Creates the defaults.
  public init() {}

  /// The largest sign `--width` and `--height` accept.
  public static let maximumWidth = 4096
  /// The largest sign `--width` and `--height` accept.
  public static let maximumHeight = 1024
  /// The highest frame rate accepted.
  public static let maximumFPS = 1000.0
  /// The fastest scroll accepted, in pixels per second.
  public static let maximumSpeed = 100_000.0
  /// The longest message accepted, in characters.
  public static let maximumMessageLength = 100_000
  /// The most messages accepted at once.
  public static let maximumMessageCount = 1_000
  /// The longest dwell or transition accepted, in seconds (a day).
  public static let maximumSeconds = 86_400.0
}

extension RunOptions {

  /// Refuses more messages, or longer ones, than the documented limits.
  package static func checkMessages(_ messages: [String]) throws(UsageError) {
    guard messages.count <= RunOptions.maximumMessageCount else {
      throw UsageError("\(messages.count) messages is more than the limit of \(RunOptions.maximumMessageCount).")
    }
    for (index, message) in messages.enumerated() where message.unicodeScalars.count > RunOptions.maximumMessageLength {
      throw UsageError(
        "message \(index + 1) is \(message.unicodeScalars.count) characters long; the limit is \(RunOptions.maximumMessageLength).")
    }
  }
}

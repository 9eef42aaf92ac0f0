import MQTT
import BitmapFonts
import Marquee
import SimpleJSON

/// Every option, in the order `--help` lists them. Adding an option is one entry here (and
/// its field in ``RunOptions``).
extension Option {
  static let width = value("width", \.width, .integer("<pixels>", in: 1...RunOptions.maximumWidth),
                           places: [.commandLine], help: "Sign width in pixels.").marking(\.sizeGiven)
  static let height = value("height", \.height, .integer("<pixels>", in: 1...RunOptions.maximumHeight),
                            places: [.commandLine], help: "Sign height in pixels.").marking(\.sizeGiven)
  static let speed = value("speed", \.zone.speed, .number("<px-per-second>", in: 0...RunOptions.maximumSpeed),
                           help: "Scroll speed in pixels per second.")
  static let fps = value("fps", \.fps, .positive("<frames-per-second>", upTo: RunOptions.maximumFPS),
                         places: [.commandLine], help: "Frame rate.")
  static let gap = value("gap", \.zone.gap, .integer("<pixels>", in: 0...RunOptions.maximumWidth),
                         help: "Dark columns between the end of the text and its start.")
  static let direction = value("direction", \.zone.direction, .choice(),
                               help: "Scroll direction; auto: the way the text reads (right for Arabic and Hebrew).")
  static let textDirection = value("text-direction", \.zone.textDirection, .choice(),
                                   help: "How messages read: auto (from the first letter), ltr, or rtl (Arabic, Hebrew).")
  static let align = value("align", \.zone.alignment, .choice(),
                           help: "Where text that fits stands; start: where reading starts (right for Arabic).")
  static let valign = value("valign", \.zone.verticalAlignment, .choice(),
                            help: "Where the line stands.")
  static let mode = value("mode", \.zone.mode, .choice(),
                          help: "auto: still if it fits, else scroll; scroll; cycle: one message at a time; pages: wrapped into pages that take turns.")
  static let dwell = value("dwell", \.zone.dwell, .number("<seconds>", in: 0...RunOptions.maximumSeconds),
                           needs: .cycleMode, help: "Cycle: how long each message stands.")
  static let entry = value("in", \.zone.entry, .effects, needs: .cycleMode,
                           help: "Cycle: how messages enter; see 'marquee effects'.")
  static let exit = optional("out", \.zone.exit, .effects, places: [.commandLine, .zone], needs: .cycleMode,
                             default: "the exit half of --in", help: "Cycle: how messages leave.")
  static let duration = value("duration", \.zone.duration, .number("<seconds>", in: 0...RunOptions.maximumSeconds),
                              needs: .cycleMode, help: "Cycle: how long a transition takes.")
  static let ease = value("ease", \.zone.easing, .choice(), needs: .cycleMode,
                          help: "Cycle: how a transition follows time.")
  static let sprite = optional("sprite", \.spritePath, .text("<file>"), needs: .cycleMode,
                               help: "Cycle: frames for the sprite effect ('#'/'.' rows, frames separated by empty lines).")
  static let icons = optional("icons", \.iconsPath, .text("<folder>"),
                              help: "A folder of pictures (PNG, GIF, PBM, XBM) messages show by name: {icon:logo} is logo.png; see 'marquee icons'.")
  static let seed = value("seed", \.zone.seed, .seed, help: "Seed of the random effect's order.")
  static let invert = flag("invert", \.zone.presentation.inverted, places: [.commandLine, .zone],
                           help: "Light the dark pixels and darken the lit ones.")
  /// What `--flip` and `"flip"` take.
  static let flipRule = "use \"h\", \"v\", \"hv\" or \"\" (no flip)"
  static let flip = Option(
    name: "flip", key: "flip", placeholder: "<h|v|hv>", help: "Mirror left-right (h), upside down (v), or both (hv).",
    defaultText: nil, places: [.commandLine, .zone], needs: nil,
    applyText: { text, options throws(UsageError) in
      let text = text ?? ""
      guard Option.setFlips(text, in: &options) else {
        throw UsageError("Invalid value for '--flip <h|v|hv>': \(Option.flipRule)")
      }
    },
    applyJSON: { fields, key, options throws(JSONFieldError) in
      guard let text = try fields.string(key) else { return }
      guard Option.setFlips(text, in: &options) else {
        throw JSONFieldError(field: fields.name(key), reason: Option.flipRule)
      }
    },
    encodeJSON: { options in
      .string((options.zone.presentation.flippedHorizontally ? "h" : "") + (options.zone.presentation.flippedVertically ? "v" : ""))
    })
  static let font = value(
    "font", \.zone.fonts, .fonts,
    help: "Fonts, first choice first: 5x7, 3x5, a font name (unifont, wenquanyi_12pt, Lat15-Terminus16) or a path; see 'marquee fonts'.")
  static let fit = value("fit", \.zone.fit, .choice(),
                         help: "shrink: the largest font of --font whose line fits the sign's (or zone's) height.")
  static let letterSpacing = value("letter-spacing", \.zone.letterSpacing, .integer("<pixels>", in: 0...64),
                                   help: "Dark columns between letters.")
  static let lineSpacing = value("line-spacing", \.zone.lineSpacing, .integer("<pixels>", in: 0...64), needs: .cycleMode,
                                 help: "Pages: dark rows between lines.")
  package static let gif = optional("gif", \.gifPath, .text("<file>"),
                            help: "Record the sign to an animated GIF (no waiting) for --seconds or --frames.")
  static let pbm = optional("pbm", \.pbmPath, .text("<file>"), help: "Write the first frame as a PBM image.")
  static let seconds = optional("seconds", \.seconds, .number("<seconds>", in: 0.001...86_400), needs: .gif,
                                default: "10", help: "With --gif: how long to record.")
  static let gifScale = value("gif-scale", \.gifScale, .integer("<pixels>", in: 1...32), places: [.commandLine],
                              needs: .gif, help: "With --gif: image pixels per LED.")
  static let color = value("color", \.zone.ledColor, .color,
                           help: "LED color: red, green, amber, blue, white, or #rrggbb (RGB boards light each zone in its own).")
  package static let stdin = flag(
    "stdin", \.stdin,
    help: "Read lines from standard input while running: a line replaces the message; a JSON object updates a zone (see Docs/feeds.md).")
  static let onEndOfInput = value(
    "on-eof", \.onEndOfInput, .choice(), places: [.commandLine], needs: .stdin,
    help: "With --stdin, when the input ends: keep the last content, blank the sign, or blank it and exit 0 (so a service manager restarts the feed).")
  static let clockStart = optional(
    "clock-start", \.clockStart, .number("<unix-seconds>", in: 0...1e11),
    help: "Fill {time} and {date} placeholders as if the sign started at this time (for tests and recordings).")
  static let config = optional(
    "config", \.configPath, .text("<file>"), places: [.commandLine],
    help: "Read the sign's options from a JSON file (the options' names in camelCase, messages, zones; see Docs/cli.md); options given here override it.")
  static let layout = optional("layout", \.layoutPath, .text("<file>"),
                               help: "Split the sign into zones described in a JSON file (see Docs/zones.md).")
  package static let board = optional("board", \.boardPath, .text("<name|file>"),
                              help: "Drive the sign a board file describes: a board's name or a path; see 'marquee boards'.")
  static let simulate = flag("simulate", \.simulate, needs: .board,
                             help: "With --board: show the sign's exact geometry here instead of driving it.")
  static let spiDump = optional("spi-dump", \.spiDump, .text("<file>"), needs: .board,
                                help: "With --board: write every latched SPI transaction to a file instead of the device.")
  static let listen = value("listen", \.listen, .text("<addr:port>"), places: [.commandLine], needs: .serve,
                            help: "With serve: where the HTTP server listens; anything but loopback needs --token-file.")
  static let tokenFile = optional("token-file", \.tokenFile, .text("<file>"), needs: .serve,
                                  help: "With serve: every /api/ request needs 'Authorization: Bearer' and this file's token (made, mode 0600, if missing).")
  static let state = optional("state", \.statePath, .text("<file>"), needs: .serve,
                              help: "With serve: keep what is changed over the API in this file (written safely before each answer) and restore it at start.")
  static let allowHost = value(
    "allow-host", \.allowHosts, .names("<name[,name...]>"), places: [.commandLine], needs: .serve, default: "none",
    help: "With serve: more host names to answer to (besides IP addresses, localhost and this machine's name, also under .local); others get 421.")
  static let mqtt = optional("mqtt", \.mqttURL, .text("<mqtt://[user:password@]host[:port]>"), needs: .serve,
                             help: "With serve: connect to this MQTT broker and take content, messages, brightness, pause, power and program on topics under --mqtt-topic; the state is published back (Docs/mqtt.md).")
  static let mqttPasswordFile = optional(
    "mqtt-password-file", \.mqttPasswordFile, .text("<file>"), needs: .serve,
    help: "With --mqtt: read the broker's password from this file (its first line), so it shows neither in the process list nor in the config; or set MARQUEE_MQTT_PASSWORD.")
  static let mqttValues = value(
    "mqtt-values", \.mqttValues, .topicFilters, places: [.commandLine], needs: .serve, default: "the sign's own topics (PREFIX/#)",
    help: "With --mqtt: the topics {mqtt:TOPIC} may read in content that came over MQTT or from the API without a token (config, command line and token holders may name any).")
  static let mqttTopic = optional("mqtt-topic", \.mqttTopic, .text("<prefix>"), needs: .serve, default: "marquee/<hostname>",
                                  help: "With --mqtt: the prefix of the sign's topics.")
  static let mqttGroup = Option(
    name: "mqtt-group", key: "mqttGroups", placeholder: "<prefix>",
    help: "With --mqtt: also take content, messages, notifications and control on this group's topics (repeatable; the sign's own topics win, Docs/fleet.md).",
    defaultText: nil, places: [.commandLine], needs: .serve,
    applyText: { text, options throws(UsageError) in
      let prefix = text ?? ""
      if let problem = MQTTTopic.prefixProblem(prefix) { throw UsageError("'--mqtt-group \(prefix)': \(problem)") }
      if !options.mqttGroups.contains(prefix) { options.mqttGroups.append(prefix) }
    },
    applyJSON: { fields, key, options throws(JSONFieldError) in
      guard let prefixes = try fields.strings(key) else { return }
      for (index, prefix) in prefixes.enumerated() {
        if let problem = MQTTTopic.prefixProblem(prefix) { throw JSONFieldError(field: fields.name(key) + "[\(index)]", reason: problem) }
      }
      options.mqttGroups = prefixes
    },
    encodeJSON: { .array($0.mqttGroups.map { .string($0) }) })
  static let haDiscovery = flag("ha-discovery", \.haDiscovery, needs: .serve,
                                help: "With --mqtt: announce the sign to Home Assistant (MQTT discovery) as a device with its entities.")
  static let i2cDump = optional("i2c-dump", \.i2cDump, .text("<file>"), needs: .board,
                                help: "With an I2C board: write each I2C message to a text file instead of the bus.")
  static let hub75Dump = optional(
    "hub75-dump", \.hub75Dump, .text("<file>"), needs: .board,
    help: "With a HUB75 board: write the refresh of the last frame shown (every row, every bitplane) as a text trace instead of driving the GPIO registers.")
  static let retry = flag(
    "retry", \.retry, needs: .board,
    help: "With --board: when the SPI or I2C device fails, reopen it (1 s, 2 s, … 30 s apart) instead of stopping.")
  static let intensity = optional(
    "intensity", \.intensity, .integer("<0-15>", in: 0...15), needs: .board, default: "the board's",
    help: "With --board: the chip's step at full brightness (the sign's brightness level 15), of 16 on every board; levels and fades dim below it.")
  static let brightness = optional(
    "brightness", \.intensity, .integer("<0-15>", in: 0...15), needs: .board, default: "the board's",
    help: "The old name of --intensity.")
  static let keep = flag("keep", \.keepLastFrame, needs: .board,
                         help: "With --board: leave the last frame lit on exit instead of blanking the sign.")
  package static let frames = optional("frames", \.frames, .integer("<count>", in: 1...Int(Int32.max)),
                               default: "run until Ctrl-C", help: "Stop after this many frames.")
  package static let loops = optional("loops", \.loops, .integer("<count>", in: 1...1_000_000),
                              help: "Stop after this many full passes of the ribbon, or rounds of the cycle.")
  package static let once = Option(
    name: "once", key: "once", placeholder: nil, help: "Stop after one full pass or round (--loops 1).",
    defaultText: nil, places: [.commandLine], needs: nil,
    applyText: { _, options in options.loops = 1 },
    applyJSON: { fields, key, options throws(JSONFieldError) in
      if try fields.bool(key) == true { options.loops = 1 }
    },
    encodeJSON: { .bool($0.loops == 1) })
  static let noWait = flag("no-wait", \.noWait, help: "Render frames as fast as possible instead of in real time.")
  static let output = optional("output", \.output, .choice(), default: "leds on a terminal, else ascii",
                               help: "leds: the simulated sign; ascii: text frames.")
  static let noColor = flag("no-color", \.color, setting: false,
                            help: "Draw the simulated sign without colours (also when NO_COLOR is set).")
  package static let version = action("version", help: "Show the version.")
  package static let help = action("help", short: "h", help: "Show help information.")

  /// Every option, in `--help` order.
  package static let all: [Option] = [
    width, height, speed, fps, gap, direction, textDirection, align, valign, mode, dwell, entry, exit, duration, ease, sprite, seed,
    invert, flip, font, fit, letterSpacing, lineSpacing, icons, gif, pbm, seconds, gifScale, color, stdin, onEndOfInput, clockStart, config, layout,
    board, simulate, spiDump, i2cDump, hub75Dump, retry, listen, tokenFile, state, allowHost, mqtt, mqttPasswordFile, mqttTopic, mqttValues, mqttGroup, haDiscovery, intensity, brightness, keep, frames, loops, once, noWait, output, noColor, version, help,
  ]

  /// The options a layout zone and a feed line take.
  package static let zoneOptions = all.filter { $0.places.contains(.zone) }

  /// Sets both flips from `h`/`v` letters; `false` (nothing set) for other text.
  static func setFlips(_ text: String, in options: inout RunOptions) -> Bool {
    guard text.allSatisfy({ $0 == "h" || $0 == "v" }) else { return false }
    options.zone.presentation.flippedHorizontally = text.contains("h")
    options.zone.presentation.flippedVertically = text.contains("v")
    return true
  }
}

extension Option {
  /// This option, also setting `path` to true when given on the command line.
  func marking(_ path: WritableKeyPath<RunOptions, Bool> & Sendable) -> Option {
    var option = self
    let apply = applyText
    option.applyText = { text, options throws(UsageError) in
      try apply(text, &options)
      options[keyPath: path] = true
    }
    let applyJSON = self.applyJSON
    option.applyJSON = { fields, key, options throws(JSONFieldError) in
      try applyJSON(fields, key, &options)
      if fields.value[key] != nil { options[keyPath: path] = true }
    }
    return option
  }
}

import Marquee

/// What the command line asks for.
public enum Invocation: Sendable, Equatable {
  /// Run the sign.
  case run(RunOptions)
  /// Print help and exit 0.
  case help
  /// Print the version and exit 0.
  case version
  /// List the transition effects.
  case effects
  /// List the board files.
  case boards
  /// List the fonts.
  case fonts
  /// Render the effect gallery into a folder.
  case gallery(String)
}

/// Parses `marquee`'s arguments (without the program name) in swift-argument-parser's style:
/// `--name value`, `--name=value`, flags, `--` to end options, positional messages.
public struct CommandLineParser {
  static let options: [OptionSpec] = [
    OptionSpec(name: "width", value: "<pixels>", help: "Sign width in pixels. (default: 64)"),
    OptionSpec(name: "height", value: "<pixels>", help: "Sign height in pixels. (default: 8)"),
    OptionSpec(name: "speed", value: "<px-per-second>",
               help: "Scroll speed in pixels per second. (default: 20)"),
    OptionSpec(name: "fps", value: "<frames-per-second>", help: "Frame rate. (default: 40)"),
    OptionSpec(name: "gap", value: "<pixels>",
               help: "Dark columns between the end of the text and its start. (default: 8)"),
    OptionSpec(name: "direction", value: "<direction>",
               help: "Scroll direction: left, right. (default: left)"),
    OptionSpec(name: "align", value: "<alignment>",
               help: "Where text that fits stands: left, center, right. (default: left)"),
    OptionSpec(name: "valign", value: "<alignment>",
               help: "Where the line stands: top, middle, bottom. (default: middle)"),
    OptionSpec(name: "mode", value: "<mode>",
               help: "auto (still if it fits, else scroll), scroll, cycle (one message at a time). (default: auto)"),
    OptionSpec(name: "dwell", value: "<seconds>",
               help: "Cycle: how long each message stands. (default: 2)"),
    OptionSpec(name: "in", value: "<effect[+effect...]>",
               help: "Cycle: how messages enter; see 'marquee effects'. (default: scroll-up)"),
    OptionSpec(name: "out", value: "<effect[+effect...]>",
               help: "Cycle: how messages leave. (default: the exit half of --in)"),
    OptionSpec(name: "duration", value: "<seconds>",
               help: "Cycle: how long a transition takes. (default: 0.5)"),
    OptionSpec(name: "ease", value: "<easing>",
               help: "Cycle: linear, ease-in, ease-out, ease-in-out. (default: linear)"),
    OptionSpec(name: "sprite", value: "<file>",
               help: "Cycle: frames for the sprite effect ('#'/'.' rows, frames separated by empty lines)."),
    OptionSpec(name: "seed", value: "<number>",
               help: "Seed of the random effect's order. (default: 24301)"),
    OptionSpec(name: "invert", value: nil, help: "Light the dark pixels and darken the lit ones."),
    OptionSpec(name: "flip", value: "<h|v|hv>",
               help: "Mirror left-right (h), upside down (v), or both (hv)."),
    OptionSpec(name: "font", value: "<name[,name...]>",
               help: "Fonts, first choice first: 5x7, 3x5, a font name (unifont, wenquanyi_12pt, Lat15-Terminus16) or a path; see 'marquee fonts'. (default: 5x7)"),
    OptionSpec(name: "letter-spacing", value: "<pixels>",
               help: "Dark columns between letters. (default: 1)"),
    OptionSpec(name: "gif", value: "<file>",
               help: "Record the sign to an animated GIF (no waiting) for --seconds or --frames."),
    OptionSpec(name: "pbm", value: "<file>", help: "Write the first frame as a PBM image."),
    OptionSpec(name: "seconds", value: "<seconds>", help: "With --gif: how long to record. (default: 10)"),
    OptionSpec(name: "gif-scale", value: "<pixels>", help: "With --gif: image pixels per LED. (default: 4)"),
    OptionSpec(name: "color", value: "<color>", help: "LED color: red, green, amber, blue, white. (default: red)"),
    OptionSpec(name: "stdin", value: nil,
               help: "Read lines from standard input while running: a line replaces the message; a JSON object updates a zone (see Docs/feeds.md)."),
    OptionSpec(name: "on-eof", value: "<keep|blank|exit>",
               help: "With --stdin, when the input ends: keep the last content, blank the sign, or blank it and exit 0 (so a service manager restarts the feed). (default: keep)"),
    OptionSpec(name: "clock-start", value: "<unix-seconds>",
               help: "Fill {time} and {date} placeholders as if the sign started at this time (for tests and recordings)."),
    OptionSpec(name: "layout", value: "<file>",
               help: "Split the sign into zones described in a JSON file (see Docs/zones.md)."),
    OptionSpec(name: "board", value: "<file>",
               help: "Drive the MAX7219 sign this board file describes; see 'marquee boards'."),
    OptionSpec(name: "simulate", value: nil,
               help: "With --board: show the sign's exact geometry here instead of driving it."),
    OptionSpec(name: "spi-dump", value: "<file>",
               help: "With --board: write every latched SPI transaction to a file instead of the device."),
    OptionSpec(name: "retry", value: nil,
               help: "With --board: when the SPI device fails, reopen it (1 s, 2 s, … 30 s apart) instead of stopping."),
    OptionSpec(name: "keep", value: nil,
               help: "With --board: leave the last frame lit on exit instead of blanking the sign."),
    OptionSpec(name: "frames", value: "<count>",
               help: "Stop after this many frames. (default: run until Ctrl-C)"),
    OptionSpec(name: "no-wait", value: nil,
               help: "Render frames as fast as possible instead of in real time."),
    OptionSpec(name: "output", value: "<output>",
               help: "leds (simulated sign) or ascii (text frames). (default: leds on a terminal, else ascii)"),
    OptionSpec(name: "no-color", value: nil,
               help: "Draw the simulated sign without colours (also when NO_COLOR is set)."),
    OptionSpec(name: "version", value: nil, help: "Show the version."),
    OptionSpec(name: "help", short: "h", value: nil, help: "Show help information."),
  ]

  /// Parses the arguments.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var options = RunOptions()
    var index = 0
    var onlyMessages = false
    var onEndOfInputGiven = false
    if arguments.first == "effects" { return .effects }
    if arguments.first == "boards" { return .boards }
    if arguments.first == "fonts" { return .fonts }
    if arguments.first == "gallery" {
      guard arguments.count == 2 else { throw UsageError("'gallery' needs one folder: marquee gallery DIR") }
      return .gallery(arguments[1])
    }
    if arguments.first == "identify" {
      options.identify = true
      index = 1
    }
    func value(for spec: OptionSpec, inline: String?) throws(UsageError) -> String {
      if let inline { return inline }
      index += 1
      guard index < arguments.count else {
        throw UsageError("Missing value for '--\(spec.name) \(spec.value ?? "")'")
      }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      defer { index += 1 }
      if onlyMessages || !argument.hasPrefix("-") || argument == "-" {
        options.messages.append(argument)
        continue
      }
      if argument == "--" {
        onlyMessages = true
        continue
      }
      let spec: OptionSpec
      var inline: String?
      if argument.hasPrefix("--") {
        var name = String(argument.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inline = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
        guard let found = Self.spec(named: name) else {
          throw UsageError("Unknown option '--\(name)'.\(suggestion(for: name))")
        }
        spec = found
      } else {
        let letters = argument.dropFirst()
        guard letters.count == 1, let found = Self.options.first(where: { $0.short == letters.first })
        else {
          throw UsageError("Unknown option '\(argument)'.")
        }
        spec = found
      }
      if spec.value == nil, let inline {
        throw UsageError("The flag '--\(spec.name)' does not take a value (got '\(inline)').")
      }
      switch spec.name {
      case "help": return .help
      case "version": return .version
      case "no-wait": options.noWait = true
      case "simulate": options.simulate = true
      case "keep": options.keepLastFrame = true
      case "retry": options.retry = true
      case "board": options.boardPath = try value(for: spec, inline: inline)
      case "layout": options.layoutPath = try value(for: spec, inline: inline)
      case "stdin": options.stdin = true
      case "on-eof":
        options.onEndOfInput = try choice(value(for: spec, inline: inline), spec)
        onEndOfInputGiven = true
      case "gif": options.gifPath = try value(for: spec, inline: inline)
      case "pbm": options.pbmPath = try value(for: spec, inline: inline)
      case "seconds": options.seconds = try number(value(for: spec, inline: inline), spec, in: 0.001...86_400)
      case "gif-scale": options.gifScale = try integer(value(for: spec, inline: inline), spec, in: 1...32)
      case "color":
        let name = try value(for: spec, inline: inline)
        guard LEDColor.named[name] != nil else {
          throw UsageError("The value '\(name)' is invalid for '--color <color>': use one of \(LEDColor.names.joined(separator: ", ")).")
        }
        options.ledColor = name
      case "clock-start":
        options.clockStart = try number(value(for: spec, inline: inline), spec, in: 0...1e11)
      case "spi-dump": options.spiDump = try value(for: spec, inline: inline)
      case "no-color": options.color = false
      case "width":
        options.sizeGiven = true
        options.width = try integer(value(for: spec, inline: inline), spec, in: 1...RunOptions.maximumWidth)
      case "height":
        options.sizeGiven = true
        options.height = try integer(value(for: spec, inline: inline), spec, in: 1...RunOptions.maximumHeight)
      case "gap":
        options.marquee.gap = try integer(value(for: spec, inline: inline), spec, in: 0...RunOptions.maximumWidth)
      case "letter-spacing":
        options.letterSpacing = try integer(value(for: spec, inline: inline), spec, in: 0...64)
      case "frames":
        options.frames = try integer(value(for: spec, inline: inline), spec, in: 1...Int(Int32.max))
      case "speed":
        options.marquee.speed = try number(
          value(for: spec, inline: inline), spec, in: 0...RunOptions.maximumSpeed)
      case "fps":
        options.fps = try number(value(for: spec, inline: inline), spec, in: 0...RunOptions.maximumFPS)
        if options.fps == 0 { throw UsageError("'--fps' must be greater than 0.") }
      case "direction":
        options.marquee.direction = try choice(value(for: spec, inline: inline), spec)
      case "align":
        options.marquee.alignment = try choice(value(for: spec, inline: inline), spec)
      case "valign":
        options.marquee.verticalAlignment = try choice(value(for: spec, inline: inline), spec)
      case "mode":
        options.mode = try choice(value(for: spec, inline: inline), spec)
      case "dwell":
        options.dwell = try number(value(for: spec, inline: inline), spec, in: 0...RunOptions.maximumSeconds)
      case "duration":
        options.duration = try number(value(for: spec, inline: inline), spec, in: 0...RunOptions.maximumSeconds)
      case "in", "out":
        let list = try value(for: spec, inline: inline)
        do {
          _ = try EffectCatalog.parse(list)
        } catch {
          throw UsageError("The value '\(list)' is invalid for '--\(spec.name)': \(error).")
        }
        if spec.name == "in" { options.entry = list } else { options.exit = list }
      case "ease":
        options.easing = try choice(value(for: spec, inline: inline), spec)
      case "font":
        let list = try value(for: spec, inline: inline)
        let names = list.split(separator: ",").map { String($0) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw UsageError("'--font' needs at least one font name.") }
        options.fonts = names
      case "sprite":
        options.spritePath = try value(for: spec, inline: inline)
      case "seed":
        let text = try value(for: spec, inline: inline)
        guard let seed = UInt64(text) else {
          throw UsageError("The value '\(text)' is invalid for '--seed <number>': not a whole number from 0 to \(UInt64.max).")
        }
        options.seed = seed
      case "invert":
        options.marquee.presentation.inverted = true
      case "flip":
        let text = try value(for: spec, inline: inline)
        guard !text.isEmpty, text.allSatisfy({ $0 == "h" || $0 == "v" }) else {
          throw UsageError("The value '\(text)' is invalid for '--flip <h|v|hv>': use h, v or hv.")
        }
        if text.contains("h") { options.marquee.presentation.flippedHorizontally = true }
        if text.contains("v") { options.marquee.presentation.flippedVertically = true }
      case "output":
        options.output = try choice(value(for: spec, inline: inline), spec) as RunOptions.Output
      default:
        throw UsageError("Unknown option '--\(spec.name)'.")
      }
    }
    if options.boardPath == nil {
      for (flag, given) in [("--simulate", options.simulate), ("--spi-dump", options.spiDump != nil), ("--keep", options.keepLastFrame), ("--retry", options.retry)] where given {
        throw UsageError("'\(flag)' needs '--board <file>'.")
      }
    }
    if options.simulate && options.spiDump != nil {
      throw UsageError("Use '--simulate' or '--spi-dump', not both.")
    }
    if options.retry && (options.spiDump != nil || options.simulate) {
      throw UsageError("'--retry' reopens a failing SPI device; it does not apply to '\(options.simulate ? "--simulate" : "--spi-dump")'.")
    }
    if onEndOfInputGiven && !options.stdin {
      throw UsageError("'--on-eof' needs '--stdin'.")
    }
    try checkMessages(options.messages)
    if options.identify {
      guard options.boardPath != nil else { throw UsageError("'identify' needs '--board <file>'.") }
      guard options.messages.isEmpty else { throw UsageError("'identify' takes no message.") }
      return .run(options)
    }
    guard !options.messages.isEmpty || options.layoutPath != nil || options.stdin else {
      throw UsageError("Missing expected argument '<message> ...'")
    }
    return .run(options)
  }

  /// Refuses more messages, or longer ones, than the documented limits.
  static func checkMessages(_ messages: [String]) throws(UsageError) {
    guard messages.count <= RunOptions.maximumMessageCount else {
      throw UsageError("\(messages.count) messages is more than the limit of \(RunOptions.maximumMessageCount).")
    }
    for (index, message) in messages.enumerated() where message.unicodeScalars.count > RunOptions.maximumMessageLength {
      throw UsageError(
        "message \(index + 1) is \(message.unicodeScalars.count) characters long; the limit is \(RunOptions.maximumMessageLength).")
    }
  }

  static func spec(named name: String) -> OptionSpec? {
    options.first { $0.name == name }
  }

  /// " Did you mean '--speed'?" for a near miss, else "".
  static func suggestion(for name: String) -> String {
    let best = options.map { ($0.name, editDistance($0.name, name)) }.min { $0.1 < $1.1 }
    guard let (candidate, distance) = best, distance <= max(2, name.count / 3) else { return "" }
    return " Did you mean '--\(candidate)'?"
  }

  static func integer(_ text: String, _ spec: OptionSpec, in range: ClosedRange<Int>) throws(UsageError) -> Int {
    guard let value = Int(text) else {
      throw UsageError("The value '\(text)' is invalid for '--\(spec.name) \(spec.value ?? "")': not a whole number.")
    }
    guard range.contains(value) else {
      throw UsageError(
        "The value '\(text)' is invalid for '--\(spec.name) \(spec.value ?? "")': must be from \(range.lowerBound) to \(range.upperBound).")
    }
    return value
  }

  static func number(_ text: String, _ spec: OptionSpec, in range: ClosedRange<Double>) throws(UsageError) -> Double {
    guard let value = Double(text), value.isFinite else {
      throw UsageError("The value '\(text)' is invalid for '--\(spec.name) \(spec.value ?? "")': not a finite number.")
    }
    guard range.contains(value) else {
      throw UsageError(
        "The value '\(text)' is invalid for '--\(spec.name) \(spec.value ?? "")': must be from \(formatted(range.lowerBound)) to \(formatted(range.upperBound)).")
    }
    return value
  }

  static func formatted(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  static func choice<T: RawRepresentable & CaseIterable>(_ text: String, _ spec: OptionSpec) throws(UsageError) -> T
  where T.RawValue == String {
    if let value = T(rawValue: text) { return value }
    let names = T.allCases.map(\.rawValue).joined(separator: ", ")
    throw UsageError("The value '\(text)' is invalid for '--\(spec.name) \(spec.value ?? "")': use one of \(names).")
  }
}

import SignService

/// The subcommands of `marquee`, in one table: the parser reads the first argument against
/// it and `--help` lists it.
struct Subcommand: Sendable {
  /// The word (`fonts`).
  let name: String
  /// How help shows its arguments (`fonts [<pattern>]`).
  let usage: String
  let help: String
  /// What the rest of the arguments make: an invocation of its own, or `nil` to parse
  /// them as a run with `options` set up for the subcommand.
  let parse: @Sendable (_ rest: [String], _ options: inout RunOptions) throws(UsageError) -> Invocation?

  /// The arguments of a subcommand that takes one option with a value and `--json`: the
  /// value (nil when not given) and whether `--json` was.
  ///
  /// - Throws: ``UsageError`` for the option without its value, or any other argument.
  static func valueAndJSON(
    _ rest: [String], command: String, option: String, what: String, example: String, needing: String
  ) throws(UsageError) -> (value: String?, json: Bool) {
    var value: String?
    var json = false
    var index = 0
    while index < rest.count {
      switch rest[index] {
      case "--json": json = true
      case option:
        guard index + 1 < rest.count else { throw UsageError("'\(option)' needs \(needing): \(example)") }
        value = rest[index + 1]
        index += 1
      default: throw UsageError("'\(command)' takes \(option) \(what) and --json, not '\(rest[index])'")
      }
      index += 1
    }
    return (value, json)
  }

  static let all: [Subcommand] = [
    Subcommand(name: "effects", usage: "effects", help: "List the transition effects, one per line with what it does.") { _, _ in .effects },
    Subcommand(
      name: "icons", usage: "icons [--icons <folder>] [<name>]",
      help: "List the icons messages can show ({icon:NAME}), or draw one at each size it has."
    ) { rest, options throws(UsageError) in
      var name: String?
      var index = 0
      while index < rest.count {
        if rest[index] == "--icons" || rest[index].hasPrefix("--icons=") {
          let value = rest[index].hasPrefix("--icons=") ? String(rest[index].dropFirst(8)) : (index + 1 < rest.count ? rest[index + 1] : nil)
          guard let value, !value.isEmpty else { throw UsageError("'--icons' needs a folder: marquee icons --icons DIR") }
          options.iconsPath = value
          index += rest[index].hasPrefix("--icons=") ? 1 : 2
        } else {
          guard name == nil, !rest[index].hasPrefix("-") else {
            throw UsageError("'icons' takes --icons DIR and at most one icon's name, not '\(rest[index])'")
          }
          name = rest[index]
          index += 1
        }
      }
      return .icons(folder: options.iconsPath, name: name)
    },
    Subcommand(name: "gallery", usage: "gallery <folder>", help: "Render a GIF of every effect and mode, with captions.") { rest, _ throws(UsageError) in
      guard rest.count == 1 else { throw UsageError("'gallery' needs one folder: marquee gallery DIR") }
      return .gallery(rest[0])
    },
    Subcommand(
      name: "fonts", usage: "fonts [<pattern>]", help: "List the fonts (whose names contain the pattern), with format, height and glyphs."
    ) { rest, _ throws(UsageError) in
      guard rest.count <= 1 else { throw UsageError("'fonts' takes at most one pattern: marquee fonts [PATTERN]") }
      return .fonts(rest.first)
    },
    Subcommand(
      name: "schedule", usage: "schedule [--from <date>] [--days <n>]",
      help: "Print when the config's programs play, the brightness changes and the off periods (from today, 7 days)."
    ) { rest, options throws(UsageError) in
      var from: LocalDate?
      var days = 7
      var index = 0
      while index < rest.count {
        let argument = rest[index]
        let value = index + 1 < rest.count ? rest[index + 1] : nil
        switch argument {
        case "--from":
          guard let value, let date = LocalDate(Substring(value)) else {
            throw UsageError("'--from' needs a date as YYYY-MM-DD: marquee schedule --from 2026-12-07")
          }
          from = date
        case "--days":
          guard let value, let count = Int(value), (1...366).contains(count) else {
            throw UsageError("'--days' needs a whole number of days from 1 to 366")
          }
          days = count
        case "--config":
          // Read before the subcommand (the config file's options are the base).
          guard value != nil else { throw UsageError("'--config' needs a file") }
        default:
          throw UsageError("'schedule' takes --config FILE, --from DATE and --days N, not '\(argument)'")
        }
        index += 2
      }
      guard options.schedule != nil else {
        throw UsageError("'schedule' needs a config file with programs, brightness or off periods: marquee schedule --config sign.json")
      }
      return .schedule(options, from: from, days: days)
    },
    Subcommand(
      name: "notify", usage: "notify [<url>] <message> ...",
      help: "Show a notification on a running 'marquee serve' (--zone, --duration, --passes, --priority, --in, --out, --wake, --dismiss [ID]; see Docs/api.md)."
    ) { rest, _ throws(UsageError) in
      .notify(try NotifyCommand.parse(rest))
    },
    Subcommand(
      name: "fleet", usage: "fleet --mqtt <url> [--prefix <topic>] [--watch] [--json]",
      help: "List the signs an MQTT broker knows under the prefix (default marquee): online, program, brightness, what they show (Docs/fleet.md)."
    ) { rest, _ throws(UsageError) in
      .fleet(try FleetCommand.parse(rest))
    },
    Subcommand(
      name: "doctor", usage: "doctor [--board <name|file>] [--seconds <n>] [--json]",
      help: "Check this machine for what makes a panel flicker or stay dark, each with why and the exact fix; with a HUB75 or HUB12 board, run its refresh dark for --seconds (default 3, 0: not) and report the rate; exit 1 when something stands in the way."
    ) { rest, _ throws(UsageError) in
      var (board, seconds, json): (String?, Double, Bool) = (nil, 3, false)
      var index = 0
      while index < rest.count {
        let option = rest[index]
        if option == "--json" {
          json = true
          index += 1
          continue
        }
        guard option == "--board" || option == "--seconds" else {
          throw UsageError("'doctor' takes --board NAME|FILE, --seconds N and --json, not '\(option)'")
        }
        guard index + 1 < rest.count else {
          throw UsageError(option == "--board" ? "'--board' needs a board's name or file: marquee doctor --board hub75-p4-64x32" : "'--seconds' needs a number: marquee doctor --board hub75-p4-64x32 --seconds 3")
        }
        let value = rest[index + 1]
        if option == "--board" {
          board = value
        } else {
          guard let number = Double(value), number.isFinite, (0...60).contains(number) else {
            throw UsageError("'--seconds' is how long the refresh runs, 0 to 60, not '\(value)'")
          }
          seconds = number
        }
        index += 2
      }
      return .doctor(board: board, seconds: seconds, json: json)
    },
    Subcommand(
      name: "find-panel", usage: FindPanelCommand.usage,
      help: "Find a HUB75 panel's row address kind and multiplexing (and, given its width alone, its height) by lighting test pictures and asking what you see, then write its board file (Docs/hardware.md)."
    ) { rest, _ throws(UsageError) in
      .findPanel(try FindPanelCommand.parse(rest))
    },
    Subcommand(
      name: "sources", usage: "sources --config <file> [--json]",
      help: "Fetch each live data source of the config once and print what it gives, a line per item (NAME: TEXT, or NAME: error: REASON); exit 1 when one fails (Docs/sources.md)."
    ) { rest, _ throws(UsageError) in
      let (config, json) = try Subcommand.valueAndJSON(
        rest, command: "sources", option: "--config", what: "FILE", example: "marquee sources --config sign.json", needing: "a file")
      guard let config else { throw UsageError("'sources' needs the config that names them: marquee sources --config sign.json") }
      return .sources(configPath: config, json: json)
    },
    Subcommand(
      name: "boards", usage: "boards [--check <file>]",
      help: "List the board names --board takes, with their size and file; --check: validate one and show what it describes."
    ) { rest, _ throws(UsageError) in
      if rest.isEmpty { return .boards }
      guard rest.first == "--check", rest.count == 2 else {
        throw UsageError("'boards' takes nothing, or --check and a board file: marquee boards --check Boards/max7219-fc16-32x8.json")
      }
      return .checkBoard(rest[1])
    },
    Subcommand(
      name: "identify", usage: "identify --board <file>", help: "Light each module, backpack or panel in data order, one a second, with its number."
    ) { _, options in
      options.identify = true
      return nil
    },
    Subcommand(
      name: "serve", usage: "serve [<message> ...]", help: "Run the sign with an HTTP API and a web page to change it (see Docs/api.md)."
    ) { _, options in
      options.serve = true
      return nil
    },
  ]

  /// The subcommands as help lists them.
  static var helpLines: String {
    all.map { subcommand in
      let usage = "  " + subcommand.usage
      return usage.count < 26 ? usage.padding(to: 26) + subcommand.help + "\n" : usage + "\n" + String(repeating: " ", count: 26) + subcommand.help + "\n"
    }.joined()
  }
}

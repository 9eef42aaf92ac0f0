import HTTP
import MatrixCore
import Marquee
import SignService

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
  /// Check one board file and print what it describes.
  case checkBoard(String)
  /// List the fonts whose names contain the pattern (all when `nil`).
  case fonts(String?)
  /// List the icons (built in, and of a folder), or draw the one named.
  case icons(folder: String?, name: String?)
  /// Render the effect gallery into a folder.
  case gallery(String)
  /// Print the schedule's timeline of the config file: from a date (nil: today), for days.
  case schedule(RunOptions, from: LocalDate?, days: Int)
  /// Send a notification to (or dismiss one from) a running `marquee serve`.
  case notify(NotifyCommand)
  case fleet(FleetCommand)
  /// `marquee doctor`: the board (a name or file, if given), how long its refresh runs, and
  /// whether to answer in JSON.
  case doctor(board: String?, seconds: Double, json: Bool)
  /// `marquee find-panel`: the interactive finder of a HUB75 panel's settings.
  case findPanel(FindPanelCommand)
  /// `marquee sources --config FILE`: fetch each live source once and print what it gives.
  case sources(configPath: String, json: Bool)
}

/// Parses `marquee`'s arguments (without the program name) in swift-argument-parser's style:
/// `--name value`, `--name=value`, flags, `--` to end options, positional messages. Every
/// option comes from ``Option/all``.
public struct CommandLineParser {
  /// Parses the arguments over `base` (a config file's options), whose `baseGiven` options
  /// are checked with the command line's for what they need.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    try parse(arguments, base: RunOptions(), baseGiven: [])
  }

  static func parse(_ arguments: [String], base: RunOptions, baseGiven: [Option]) throws(UsageError) -> Invocation {
    var options = base
    var index = 0
    var onlyMessages = false
    var given: [Option] = []
    if let first = arguments.first, let subcommand = Subcommand.all.first(where: { $0.name == first }) {
      if let invocation = try subcommand.parse(Array(arguments.dropFirst()), &options) { return invocation }
      index = 1
    }
    while index < arguments.count {
      let argument = arguments[index]
      defer { index += 1 }
      if onlyMessages || !argument.hasPrefix("-") || argument == "-" {
        options.zone.messages.append(argument)
        continue
      }
      if argument == "--" {
        onlyMessages = true
        continue
      }
      let option: Option
      var inline: String?
      if argument.hasPrefix("--") {
        var name = String(argument.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inline = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
        guard let found = Option.all.first(where: { $0.name == name }) else {
          throw UsageError("Unknown option '--\(name)'.\(suggestion(for: name))")
        }
        option = found
      } else {
        let letters = argument.dropFirst()
        guard letters.count == 1, let found = Option.all.first(where: { $0.short == letters.first }) else {
          throw UsageError("Unknown option '\(argument)'.")
        }
        option = found
      }
      if option.name == Option.help.name { return .help }
      if option.name == Option.version.name { return .version }
      var value: String?
      if option.placeholder == nil {
        if let inline { throw UsageError("The flag '--\(option.name)' does not take a value (got '\(inline)').") }
      } else if let inline {
        value = inline
      } else {
        index += 1
        guard index < arguments.count else {
          throw UsageError("Missing value for '--\(option.name) \(option.placeholder ?? "")'")
        }
        value = arguments[index]
      }
      try option.applyText(value, &options)
      given.append(option)
    }
    try checkNeeds(baseGiven, options, file: options.configPath)
    try checkNeeds(given, options)
    let ends = given.filter { [Option.frames.name, Option.loops.name, Option.once.name].contains($0.name) }
    if ends.count > 1 {
      throw UsageError("Use one of '--frames', '--loops' and '--once', not '--\(ends[0].name)' and '--\(ends[1].name)'.")
    }
    let dumps = options.dumps.map(\.bus.dumpOption)
    let dump = dumps.first
    if options.simulate, let dump {
      throw UsageError("Use '--simulate' or '\(dump)', not both.")
    }
    if dumps.count > 1 {
      throw UsageError("Use one of \(dumps.map { "'\($0)'" }.joined(separator: ", ")) (the one of the board's bus), not more.")
    }
    if options.retry, let other = options.simulate ? "--simulate" : dump {
      throw UsageError("'--retry' reopens a failing device; it does not apply to '\(other)'.")
    }
    try RunOptions.checkMessages(options.zone.messages)
    if options.identify {
      guard options.boardPath != nil else { throw UsageError("'identify' needs '--board <file>'.") }
      guard options.zone.messages.isEmpty else { throw UsageError("'identify' takes no message.") }
      return .run(options)
    }
    if options.serve {
      try checkServe(options)
      return .run(options)
    }
    // Programs bring their own messages.
    guard !options.zone.messages.isEmpty || options.hasZones || options.stdin || options.schedule?.programs.isEmpty == false else {
      throw UsageError("Missing expected argument '<message> ...'")
    }
    return .run(options)
  }

  /// Refuses an option whose meaning depends on another that was not given: it would be
  /// silently ignored. `file` names the config file the options came from, if any.
  static func checkNeeds(_ given: [Option], _ options: RunOptions, file: String? = nil) throws(UsageError) {
    for option in given {
      let name = file.map { "\($0): '\(option.key)'" } ?? "'--\(option.name)'"
      func needs(_ other: Option) -> UsageError {
        UsageError("\(name) needs \(file == nil ? "'\(other.label)'" : "'\(other.key)' (here or on the command line)").")
      }
      switch option.needs {
      case nil: continue
      case .board where options.boardPath == nil: throw needs(.board)
      case .stdin where !options.stdin: throw needs(.stdin)
      case .serve where !options.serve:
        throw UsageError("\(name) is for 'marquee serve'.")
      case .gif where options.gifPath == nil: throw needs(.gif)
      case .cycleMode where !options.zone.mode.takesTurns && !options.hasZones && !options.stdin && !options.serve:
        // A layout or a feed may put a zone in cycle mode, where the option then applies.
        throw UsageError("\(name) applies in cycle mode only: add \(file == nil ? "'--mode cycle'" : "\"mode\": \"cycle\"").")
      default: continue
      }
    }
  }

  /// `serve` runs the sign and the server until stopped; what would replace that (a
  /// recording) is refused, and so is a non-loopback address without a token. `--stdin`
  /// feeds the served sign too: its lines are commands to the same session.
  static func checkServe(_ options: RunOptions) throws(UsageError) {
    for (given, name) in [(options.gifPath != nil, "--gif"), (options.pbmPath != nil, "--pbm")] where given {
      throw UsageError("'serve' shows the sign until it is stopped; '\(name)' records one and ends, so it does not go with it.")
    }
    guard let address = ListenAddress(options.listen) else {
      throw UsageError("Invalid value for '--listen <addr:port>': '\(options.listen)' is not an IP address and a port, such as 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080")
    }
    if !address.isLoopback && options.tokenFile == nil {
      throw UsageError("'--listen \(address)' lets other machines in: give '--token-file <file>' so every request needs the token (or listen on 127.0.0.1).")
    }
  }

  /// " Did you mean '--speed'?" for a near miss, else "".
  static func suggestion(for name: String) -> String {
    closestName(to: name, among: Option.all.map(\.name)).map { " Did you mean '--\($0)'?" } ?? ""
  }

}

import SimpleJSON

/// `--config FILE`: the options of a sign in one JSON file, so a service is one line
/// (`marquee --config /etc/marquee/sign.json`).
///
/// The keys are the options' own JSON keys (`board`, `width`, `speed`, `stdin`, `onEof`,
/// `brightness`, … the `key` of each ``Option``), plus `messages` (the messages of a sign of
/// one zone) and `zones` (as in a layout file). The file is applied first; options on the
/// command line override it. Errors name the file and the field (exit 1).
enum ConfigFile {
  /// The options a config file takes: every command-line option but those that only make
  /// sense typed (help, version, and the config file itself).
  static let options = Option.all.filter {
    $0.places.contains(.commandLine) && ![Option.help.name, Option.version.name, Option.config.name].contains($0.name)
  }

  /// The keys a config file takes.
  static let keys = options.map(\.key) + ["messages", "zones"]

  /// The config file `arguments` name (`--config FILE` or `--config=FILE`, before `--`).
  static func path(in arguments: [String]) -> String? {
    var index = 0
    while index < arguments.count, arguments[index] != "--" {
      let argument = arguments[index]
      if argument == "--config" { return index + 1 < arguments.count ? arguments[index + 1] : nil }
      if argument.hasPrefix("--config=") { return String(argument.dropFirst("--config=".count)) }
      index += 1
    }
    return nil
  }

  /// The options the file at `path` sets over the defaults, and which options it gave.
  static func load(_ path: String) throws -> (options: RunOptions, given: [Option]) {
    let document: JSONValue
    do {
      document = try JSONParser.parse(try TextFile.read(path))
    } catch let error as RuntimeError {
      throw error
    } catch {
      throw RuntimeError("\(path): \(error)")
    }
    var result = RunOptions()
    result.configPath = path
    var given: [Option] = []
    do {
      let fields = try JSONFields(document)
      try fields.rejectUnknownKeys(keys)
      for option in options where fields.value[option.key] != nil {
        try option.applyJSON(fields, option.key, &result)
        given.append(option)
      }
      if let messages = try fields.strings("messages") { result.messages = messages }
      if let zones = fields.optional("zones") {
        guard case .array(let list) = zones, !list.isEmpty else {
          throw JSONFieldError(field: "zones", reason: "expected a non-empty array of zones")
        }
        result.configZones = zones
      }
    } catch {
      throw RuntimeError("\(path): \(error)")
    }
    return (result, given)
  }
}

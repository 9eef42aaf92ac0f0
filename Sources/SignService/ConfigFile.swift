import LiveData
import Platform
import SimpleJSON

/// `--config FILE`: the options of a sign in one JSON file, so a service is one line
/// (`marquee --config /etc/marquee/sign.json`).
///
/// The keys are the options' own JSON keys (`board`, `width`, `speed`, `stdin`, `onEof`,
/// `brightness`, … the `key` of each ``Option``), plus `messages` (the messages of a sign of
/// one zone) and `zones` (as in a layout file). The file is applied first; options on the
/// command line override it. Errors name the file, the line and column and the field, and
/// are usage errors (exit 64) like the same bad value on the command line.
package enum ConfigFile {
  /// The options a config file takes: every command-line option but those that only make
  /// sense typed (help, version, and the config file itself).
  static let options = Option.all.filter {
    $0.places.contains(.commandLine) && ![Option.help.name, Option.version.name, Option.config.name].contains($0.name)
  }

  /// The keys a config file takes.
  static let keys = options.map(\.key) + ["messages", "zones", "sources"] + ScheduleFile.keys

  /// The config file `arguments` name (`--config FILE` or `--config=FILE`, before `--`).
  package static func path(in arguments: [String]) -> String? {
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
  package static func load(_ path: String) throws -> (options: RunOptions, given: [Option]) {
    var result = RunOptions()
    result.configPath = path
    var given: [Option] = []
    try OptionFile.read(try TextFile.read(path), path: path) { fields throws(JSONFieldError) in
      try fields.rejectUnknownKeys(keys)
      // A brightness schedule is read with the programs, not as the option.
      let scheduled = ScheduleFile.schedulesBrightness(fields)
      for option in options where fields.value[option.key] != nil && !(scheduled && option.key == Option.brightness.key) {
        try option.applyJSON(fields, option.key, &result)
        given.append(option)
      }
      if let messages = try fields.strings("messages") { result.zone.messages = messages }
      if let zones = fields.optional("zones") {
        guard case .array(let list) = zones, !list.isEmpty else {
          throw JSONFieldError(field: "zones", reason: "expected a non-empty array of zones")
        }
        result.configZones = zones
      }
      // Programs name the config's zones (or the one zone, "main").
      var zoneNames = ["main"]
      if case .array(let list)? = result.configZones {
        zoneNames = list.enumerated().map { index, zone in
          if case .string(let name)? = zone["name"] { return name }
          return "zone\(index + 1)"
        }
      }
      result.schedule = try ScheduleFile.read(fields, base: result, zones: zoneNames)
      if let sources = fields.optional("sources") {
        // A file's relative path is the config's folder's, wherever the sign starts.
        let folder = DurableFile.folder(of: path)
        result.sources = try LiveSource.list(sources).map { $0.resolvingFiles(against: folder) }
      }
    }
    return (result, given)
  }
}

/// A JSON file of options (a config or layout file), read so that every error names the
/// file, the line and column, and the field: `sign.json:3:10: field 'fps': …`.
package enum OptionFile {
  /// Parses `text` and reads it with `body`.
  ///
  /// - Throws: ``UsageError``: a bad value in a file named on the command line is the same
  ///   kind of error as the same value typed there.
  static func read<Result>(_ text: String, path: String, _ body: (JSONFields) throws(JSONFieldError) -> Result) throws(UsageError) -> Result {
    let located: (value: JSONValue, locations: JSONLocations)
    do {
      located = try JSONParser.parseLocated(text)
    } catch {
      throw UsageError("\(path): \(error)")
    }
    do {
      return try body(try JSONFields(located.value))
    } catch {
      throw UsageError("\(located.locations.place(of: error.field, in: path)): \(error)")
    }
  }
}

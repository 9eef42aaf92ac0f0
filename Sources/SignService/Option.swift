import SimpleJSON

/// One option of the sign, declared once: its names, its value and how to read it from the
/// command line and from JSON (layout zones, feed lines), where it applies, what it needs,
/// and its help. The parser, layout files, feed lines and `--help` are all driven by
/// ``Option/all``; code names an option as a static member (`Option.width`), so a misspelt
/// name does not compile.
package struct Option: Sendable {
  /// Where an option may be given.
  package struct Places: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// On the command line.
    package static let commandLine = Places(rawValue: 1)
    /// In a layout file's zones and in feed lines (the same keys).
    package static let zone = Places(rawValue: 2)
  }

  /// What an option needs to mean anything; without it, the option is a usage error.
  package enum Need: Sendable {
    /// Cycle mode (or a layout or feed, which may switch a zone to it).
    case cycleMode
    /// `--gif`.
    case gif
    /// `--board`.
    case board
    /// `--stdin`.
    case stdin
    /// `marquee serve`.
    case serve
  }

  /// The long name, without dashes (`letter-spacing`).
  package let name: String
  /// The key in layout zones and feed lines (`letterSpacing`).
  package let key: String
  /// A one-letter short name, if any.
  package var short: Character?
  /// The value's placeholder (`<pixels>`), or `nil` for a flag.
  package let placeholder: String?
  /// One line of help, without the default.
  let help: String
  /// The default as help shows it (read from `RunOptions()`, or a description).
  let defaultText: String?
  package let places: Places
  package let needs: Need?
  /// Applies a command-line value (`nil` for a flag).
  package var applyText: @Sendable (String?, inout RunOptions) throws(UsageError) -> Void
  /// Applies the JSON field `key` when present.
  var applyJSON: @Sendable (JSONFields, String, inout RunOptions) throws(JSONFieldError) -> Void
  /// The option's value in `options` as JSON, as `applyJSON` reads it back (`GET
  /// /api/state` shows every zone option through it).
  package var encodeJSON: @Sendable (RunOptions) -> JSONValue

  /// The option as usage text shows it: `--width <pixels>`.
  package var label: String {
    var label = short.map { "-\($0), " } ?? ""
    label += "--\(name)"
    if let placeholder { label += " \(placeholder)" }
    return label
  }

  /// The help line with its default.
  package var helpLine: String { defaultText.map { "\(help) (default: \($0))" } ?? help }

}

/// What a value error names: `--name <placeholder>`.
package struct OptionLabel: Sendable {
  let name: String
  let placeholder: String

  /// The error for a value the option cannot take: the option as the place, then the
  /// reason, worded as a config file's or the API's field says it.
  func invalid(_ reason: String) -> UsageError {
    UsageError("Invalid value for '--\(name) \(placeholder)': \(reason)")
  }
}

/// How a value of type `Value` is read from text and from JSON, and shown as a default.
///
/// Most kinds read a command-line value by their JSON rule (``init(placeholder:argument:json:show:encode:)``),
/// so a bad value gets the same reason from every source: `--speed fast` and `"speed":
/// "fast"` both say "expected a number from 0 to 100000, got the string "fast"", each after
/// its own place (the option; `file:line:column: field`; the field path).
package struct OptionKind<Value>: Sendable {
  let placeholder: String
  /// Reads the text of a value of the option `label` names.
  let text: @Sendable (String, OptionLabel) throws(UsageError) -> Value
  /// Reads field `key`, or `nil` when absent.
  let json: @Sendable (JSONFields, String) throws(JSONFieldError) -> Value?
  /// The value as help shows a default.
  let show: @Sendable (Value) -> String
  /// The value as JSON, in the form `json` reads.
  let encode: @Sendable (Value) -> JSONValue
}

/// What a command-line value stands for in JSON.
package enum ArgumentShape: Sendable {
  /// Text is a string (`--font 6x13`, `--in fade`).
  case string
  /// Text written as a JSON number (`-3`, `0.5`, `1e3`; not `0x10`, `inf` or `+5`) is that
  /// number, other text a string (which the number's rule then refuses with its reason).
  case number

  /// `text` as the JSON value it stands for.
  func value(_ text: String) -> JSONValue {
    guard self == .number, text.utf8.count <= 64, case .number(let number)? = try? JSONParser.parse(text) else { return .string(text) }
    return .number(number)
  }
}

extension OptionKind {
  /// A kind whose command-line value is read by its JSON rule, as the value `argument` says
  /// the text stands for.
  init(
    placeholder: String, argument: ArgumentShape, json: @escaping @Sendable (JSONFields, String) throws(JSONFieldError) -> Value?,
    show: @escaping @Sendable (Value) -> String, encode: @escaping @Sendable (Value) -> JSONValue
  ) {
    self.init(
      placeholder: placeholder,
      text: { text, option throws(UsageError) in
        do throws(JSONFieldError) {
          let fields = try JSONFields(.object([("value", argument.value(text))]))
          guard let value = try json(fields, "value") else { throw fields.missing("value") }
          return value
        } catch {
          throw option.invalid(error.reason)
        }
      },
      json: json, show: show, encode: encode)
  }
}

extension Option {
  /// An option whose value is stored at `path` of ``RunOptions``.
  static func value<Value>(
    _ name: String, key: String? = nil, _ path: WritableKeyPath<RunOptions, Value> & Sendable, _ kind: OptionKind<Value>,
    places: Places = [.commandLine, .zone], needs: Need? = nil, default shown: String? = nil, help: String
  ) -> Option {
    Option(
      name: name, key: key ?? camelCase(name), placeholder: kind.placeholder, help: help,
      defaultText: shown ?? kind.show(RunOptions()[keyPath: path]), places: places, needs: needs,
      applyText: { text, options throws(UsageError) in
        options[keyPath: path] = try kind.text(text ?? "", OptionLabel(name: name, placeholder: kind.placeholder))
      },
      applyJSON: { fields, key, options throws(JSONFieldError) in
        if let value = try kind.json(fields, key) { options[keyPath: path] = value }
      },
      encodeJSON: { kind.encode($0[keyPath: path]) })
  }

  /// An optional value stored at `path` (no default shown unless `default` says one).
  static func optional<Value>(
    _ name: String, key: String? = nil, _ path: WritableKeyPath<RunOptions, Value?> & Sendable, _ kind: OptionKind<Value>,
    places: Places = [.commandLine], needs: Need? = nil, default shown: String? = nil, help: String
  ) -> Option {
    Option(
      name: name, key: key ?? camelCase(name), placeholder: kind.placeholder, help: help,
      defaultText: shown, places: places, needs: needs,
      applyText: { text, options throws(UsageError) in
        options[keyPath: path] = try kind.text(text ?? "", OptionLabel(name: name, placeholder: kind.placeholder))
      },
      applyJSON: { fields, key, options throws(JSONFieldError) in
        if let value = try kind.json(fields, key) { options[keyPath: path] = value }
      },
      encodeJSON: { $0[keyPath: path].map(kind.encode) ?? .null })
  }

  /// A flag that sets `path` to `setting` (in JSON, a boolean).
  static func flag(
    _ name: String, key: String? = nil, short: Character? = nil, _ path: WritableKeyPath<RunOptions, Bool> & Sendable,
    setting: Bool = true, places: Places = [.commandLine], needs: Need? = nil, help: String
  ) -> Option {
    Option(
      name: name, key: key ?? camelCase(name), short: short, placeholder: nil, help: help, defaultText: nil,
      places: places, needs: needs,
      applyText: { _, options in options[keyPath: path] = setting },
      applyJSON: { fields, key, options throws(JSONFieldError) in
        if let value = try fields.bool(key) { options[keyPath: path] = value }
      },
      encodeJSON: { .bool($0[keyPath: path] == setting) })
  }

  /// An option with no value to store (`--help`): the parser acts on it.
  static func action(_ name: String, short: Character? = nil, help: String) -> Option {
    Option(
      name: name, key: camelCase(name), short: short, placeholder: nil, help: help, defaultText: nil,
      places: [.commandLine], needs: nil, applyText: { _, _ in }, applyJSON: { _, _, _ in }, encodeJSON: { _ in .null })
  }

  /// `letter-spacing` → `letterSpacing`.
  static func camelCase(_ name: String) -> String {
    let words = name.split(separator: "-")
    return words.prefix(1).joined() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }
}

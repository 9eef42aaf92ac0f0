/// One command-line option: its names, its value and its help.
struct OptionSpec: Sendable {
  /// The long name, without dashes (`width`).
  var name: String
  /// A one-letter short name, if any (`h`).
  var short: Character?
  /// The value's placeholder (`<pixels>`), or `nil` for a flag.
  var value: String?
  /// One line of help.
  var help: String

  /// The option as it appears in usage text: `--width <pixels>`.
  var label: String {
    var label = short.map { "-\($0), " } ?? ""
    label += "--\(name)"
    if let value { label += " \(value)" }
    return label
  }
}

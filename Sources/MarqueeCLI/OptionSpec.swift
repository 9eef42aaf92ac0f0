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

/// The number of single-character edits between two strings (for "did you mean").
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a), b = Array(b)
  guard !a.isEmpty else { return b.count }
  guard !b.isEmpty else { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}

import MatrixCore

/// The icons messages can name: the built-in set, and any a sign adds from its icon folder
/// (which replace built-in ones of the same name).
public struct IconSet: Sendable, Equatable {
  /// The icons, by name.
  public private(set) var icons: [String: Icon]

  /// A set of these icons.
  public init(_ icons: [Icon] = []) {
    self.icons = Dictionary(icons.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
  }

  /// The icons every sign has (``BuiltinIcons``): arrows, transport, weather, shop signs.
  public static let builtIn = IconSet(BuiltinIcons.all)

  /// The icon of this name, if the set has it.
  public subscript(name: String) -> Icon? { icons[name] }

  /// The names, sorted.
  public var names: [String] { icons.keys.sorted() }

  /// This set with `other`'s icons added; those of the same name replace these.
  public func adding(_ other: IconSet) -> IconSet {
    var merged = self
    merged.icons.merge(other.icons) { _, theirs in theirs }
    return merged
  }

  /// Up to three names near `name` (for "did you mean"), nearest first.
  public func suggestions(for name: String) -> [String] {
    let scored = icons.keys.map { ($0, editDistance($0, name)) }
      .filter { $0.1 <= max(2, name.count / 3) || $0.0.hasPrefix(name) || name.hasPrefix($0.0) }
    return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
  }
}

/// An icon name in a message that no icon has.
public struct UnknownIcon: Error, Sendable, Equatable, CustomStringConvertible {
  /// The name as written.
  public var name: String
  /// Names near it.
  public var suggestions: [String]

  public init(name: String, suggestions: [String]) {
    self.name = name
    self.suggestions = suggestions
  }

  public var description: String {
    let near = suggestions.isEmpty ? "" : " (did you mean " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?)"
    return "no icon named '\(name)'\(near); 'marquee icons' lists them"
  }
}

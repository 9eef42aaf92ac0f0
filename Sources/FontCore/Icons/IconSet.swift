import MatrixCore

/// The icons messages can name: the built-in set, and any a sign adds from its icon folder
/// (which replace built-in ones of the same name).
public struct IconSet: Sendable, Equatable {
  /// The set's own icons (a folder's), by name; they win over built-in ones of the same name.
  public package(set) var icons: [String: Icon]
  /// Whether the built-in icons are in the set. They are drawn from constant data when a
  /// message names one, so a set that has them keeps none of them in memory.
  public private(set) var includesBuiltIn = false
  /// Icons of a folder whose files could not be read, by name, with why: left out of the
  /// set, so that a message naming one is refused saying so while the others show.
  public package(set) var broken: [String: PictureError] = [:]
  /// What was wrong with the folder's files (broken pictures, names that cannot be an
  /// icon's), in the order found: for the sign to warn about at its start.
  public package(set) var problems: [PictureError] = []

  /// A set of these icons.
  public init(_ icons: [Icon] = []) {
    // The last of a name wins.
    var table: [String: Icon] = [:]
    for icon in icons { table[icon.name] = icon }
    self.icons = table
  }

  /// The icons every sign has (``BuiltinIcons``): arrows, transport, weather, shop signs.
  public static let builtIn: IconSet = {
    var set = IconSet()
    set.includesBuiltIn = true
    return set
  }()

  /// The icon of this name, if the set has it.
  public subscript(name: String) -> Icon? {
    icons[name] ?? (includesBuiltIn ? BuiltinIcons.icon(named: name) : nil)
  }

  /// The names, sorted.
  public var names: [String] {
    var names = Array(icons.keys)
    if includesBuiltIn { names += BuiltinIcons.names.filter { icons[$0] == nil } }
    return names.sorted()
  }

  /// This set with `other`'s icons added; those of the same name replace these.
  public func adding(_ other: IconSet) -> IconSet {
    var merged = self
    for (name, icon) in other.icons { merged.icons[name] = icon }
    merged.includesBuiltIn = includesBuiltIn || other.includesBuiltIn
    for (name, problem) in other.broken { merged.broken[name] = problem }
    merged.problems += other.problems
    return merged
  }

  /// Why a message cannot show icon `name`: its file is broken, or no icon has the name.
  public func unknown(_ name: String) -> UnknownIcon {
    UnknownIcon(name: name, suggestions: suggestions(for: name), broken: broken[name])
  }

  /// Up to three names near `name` (for "did you mean"), nearest first.
  public func suggestions(for name: String) -> [String] {
    let scored = names.map { ($0, editDistance($0, name)) }
      .filter { $0.1 <= max(2, name.count / 3) || $0.0.hasPrefix(name) || name.hasPrefix($0.0) }
    return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map { $0.0 }
  }
}

/// An icon name in a message that no icon has.
public struct UnknownIcon: Error, Sendable, Equatable, CustomStringConvertible {
  /// The name as written.
  public var name: String
  /// Names near it.
  public var suggestions: [String]
  /// Why the icon folder's file of this name could not be read, if that is why.
  public var broken: PictureError?

  public init(name: String, suggestions: [String], broken: PictureError? = nil) {
    self.name = name
    self.suggestions = suggestions
    self.broken = broken
  }

  public var description: String {
    if let broken { return "the icon '\(name)' cannot be shown: \(broken.path): \(broken.reason)" }
    let near = suggestions.isEmpty ? "" : " (did you mean " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?)"
    return "no icon named '\(name)'\(near); 'marquee icons' lists them"
  }
}

/// How a zone shows its messages: the one choice a person makes (`--mode`, `"mode"`),
/// which ``ZoneContent/Motion`` carries out.
public enum DisplayMode: String, Sendable, CaseIterable {
  /// Still if the text fits, a scrolling ribbon if not.
  case auto
  /// Always a scrolling ribbon.
  case scroll
  /// One message at a time, with transitions.
  case cycle
  /// Pages (翻页): messages wrap into lines, lines into pages as tall as the sign, and the
  /// pages take turns like cycled messages.
  case pages

  /// Whether messages (or their pages) take turns, with dwells and transitions.
  public var takesTurns: Bool { self == .cycle || self == .pages }
}

import Platform

/// When snapshot assertions write golden files.
public enum SnapshotRecording: String, Sendable {
  /// Never write: a missing golden file fails (what CI must use).
  case never
  /// Write golden files that do not exist yet (and still fail, so the new file is reviewed).
  case missing
  /// Overwrite every golden file with what the test produced (and fail, to be reviewed).
  case all

  /// The name of the environment variable that selects the mode.
  public static let environmentVariable = "MARQUEE_RECORD_SNAPSHOTS"

  /// The mode asked for in the environment: `missing` or `all`; anything else, or nothing,
  /// means `never`.
  public static var fromEnvironment: SnapshotRecording {
    guard let text = Environment.value(environmentVariable) else { return .never }
    return SnapshotRecording(rawValue: text) ?? .never
  }
}

import Marquee
import SignService

/// Runs one feed line through the same parsing and checks as `--stdin` does, without a sign
/// (for fuzzing and for tools that validate feeds).
public enum FeedLineCheck {
  /// Parses and applies `line` to a default zone; returns why it would be skipped, or `nil`.
  @discardableResult
  public static func process(_ line: String) -> String? {
    let feed = Feed(zones: [("main", RunOptions())], sizes: [:], stop: StopFlag())
    do {
      try feed.handle(line)
      return nil
    } catch {
      return "\(error)"
    }
  }
}

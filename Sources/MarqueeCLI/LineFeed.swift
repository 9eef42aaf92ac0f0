import Platform
import SignService
import SimpleJSON

/// `--stdin`: the front end that reads lines while the sign runs and hands each to the
/// session as the commands it stands for (``SignCommand/commands(feedLine:)``), from a live
/// source (shown, never kept). A line the session refuses is reported with its number and
/// skipped; at the end of the input the sign keeps its content, blanks or stops, as
/// `--on-end` says.
enum LineFeed {
  /// Starts reading `descriptor` on a thread of its own.
  static func start(_ session: SignSession, descriptor: Int32 = 0) {
    DetachedThread.start {
      var reader = LineReader(descriptor: descriptor, maximumLength: Feed.maximumLineLength)
      var number = 0
      while let line = reader.next() {
        number += 1
        switch line {
        case .tooLong:
          session.reports.warning("stdin:\(number): line longer than \(Feed.maximumLineLength >> 20) MiB, skipped")
        case .text(let text):
          do throws(SignRefusal) {
            for command in try SignCommand.commands(feedLine: text) {
              if case .failure(let refusal) = session.perform(command, from: .feed) {
                session.reports.warning("stdin:\(number): \(LineFeed.said(refusal)), line skipped")
              }
            }
          } catch {
            session.reports.warning("stdin:\(number): \(LineFeed.said(error)), line skipped")
          }
        }
      }
      session.feed.inputEnded()
    }
  }

  /// A refusal as the feed's warnings say it: `field 'speed': …`.
  static func said(_ refusal: SignRefusal) -> String {
    guard let field = refusal.field else { return refusal.reason }
    return "field '\(field)': \(refusal.reason)"
  }
}

import SignService
/// The text of `marquee --help`, in swift-argument-parser's layout.
public enum HelpText {
  /// The one-line usage.
  public static let usage = "marquee [<options>] <message> ..."

  /// The version `--version` prints.
  public static let version = "0.1.0"

  /// The full help.
  public static var full: String {
    var text = """
      OVERVIEW: Show scrolling text on an LED-matrix sign, or on a simulated one in the terminal.

      Text that fits the sign stands still; longer text scrolls as a seamless loop. Several
      messages form one ribbon, separated by the gap; with --mode cycle they take turns, with a
      transition between them. Ctrl-C stops the sign and leaves it blank.

      USAGE: \(usage)

      SUBCOMMANDS:
      \(Subcommand.helpLines)
      ARGUMENTS:
        <message>               The text to show (use -- before a message that starts with -).

      OPTIONS:

      """
    for option in Option.all where option.places.contains(.commandLine) {
      let label = "  " + option.label
      if label.count < 26 {
        text += label + String(repeating: " ", count: 26 - label.count) + option.helpLine + "\n"
      } else {
        text += label + "\n" + String(repeating: " ", count: 26) + option.helpLine + "\n"
      }
    }
    text += """

      EXIT STATUS:
        0 success, 1 runtime error, 64 usage error, 128+N stopped by signal N.

      """
    return text
  }
}

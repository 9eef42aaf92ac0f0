import SignService
/// The text of `marquee --help`, in swift-argument-parser's layout.
public enum HelpText {
  /// The one-line usage.
  public static let usage = "marquee [<options>] <message> ..."

  /// The version `--version` prints.
  public static let version = "0.1.0"

  /// The full help, its headings and overview in the terminal's language (the options'
  /// lines stay English, as their names do).
  public static var full: String { full(TerminalMessages.language()) }

  static func full(_ language: TerminalMessages.Language) -> String {
    var text = language == .chinese ? """
      概述：在 LED 点阵屏上显示滚动文字，或在终端里模拟一块屏。

      放得下的文字静止显示；更长的文字无缝循环滚动。多条消息连成一条，中间隔开一段空白；
      加上 --mode cycle 则轮流显示，每条之间有过渡特效。Ctrl-C 停止并清空屏幕。

      用法：\(usage)

      子命令：
      \(Subcommand.helpLines)
      参数：
        <message>               要显示的文字（以 - 开头的消息前面加 --）。

      选项：

      """ : """
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
    text += language == .chinese ? """

      退出状态：
        0 成功，1 运行错误，64 用法错误，128+N 被信号 N 停止。

      """ : """

      EXIT STATUS:
        0 success, 1 runtime error, 64 usage error, 128+N stopped by signal N.

      """
    return text
  }
}

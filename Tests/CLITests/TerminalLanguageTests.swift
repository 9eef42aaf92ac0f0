import Foundation
import Testing

/// What a person reads at the sign's terminal, in Chinese when the locale says so and in
/// English otherwise, with the same exit codes and the same names for scripts.
@Suite(.offThePool) struct TerminalLanguageTests {
  static let chinese = ["LANG": "zh_CN.UTF-8"]

  @Test(arguments: [
    (["--sped", "3", "x"], 64, "错误：未知选项 '--sped'。是不是 '--speed'？", "Error: Unknown option '--sped'. Did you mean '--speed'?"),
    (["--speed"], 64, "错误：'--speed <px-per-second>' 缺少取值", "Error: Missing value for '--speed <px-per-second>'"),
    ([], 64, "错误：缺少要显示的消息（<message> ...）", "Error: Missing expected argument '<message> ...'"),
    (["--dwell", "3", "x"], 64, "错误：'--dwell' 只用于轮播模式：请加上 '--mode cycle'。", "Error: '--dwell' applies in cycle mode only: add '--mode cycle'."),
    (["--speed", "fast", "x"], 64, "错误：'--speed <px-per-second>' 的取值无效：expected a number", "Error: Invalid value for '--speed <px-per-second>': expected a number"),
    (["--font", "nosuch", "x"], 64, "错误：没有名为 'nosuch' 的字体。", "Error: No font named 'nosuch'."),
    (["--output", "ascii", "--frames", "1", "{icon:trian}"], 64, "错误：没有名为 'trian' 的图标（是不是 'train'？）", "Error: no icon named 'trian' (did you mean 'train'?)"),
    (["--config", "/nonexistent/sign.json", "x"], 1, "错误：/nonexistent/sign.json：没有这个文件或目录", "Error: /nonexistent/sign.json: No such file or directory"),
    (["--token-file", "t", "x"], 64, "错误：'--token-file' 只用于 'marquee serve'。", "Error: '--token-file' is for 'marquee serve'."),
  ])
  func errorsInBothLanguages(arguments: [String], status: Int32, chinese: String, english: String) throws {
    let inChinese = try BinaryRunner.run(arguments, environment: TerminalLanguageTests.chinese)
    let inEnglish = try BinaryRunner.run(arguments)
    #expect(inChinese.status == status && inEnglish.status == status, "\(inChinese.stderr)\(inEnglish.stderr)")
    #expect(inChinese.stderr.hasPrefix(chinese), "\(inChinese.stderr)")
    #expect(inEnglish.stderr.hasPrefix(english), "\(inEnglish.stderr)")
    if status == 64 { #expect(inChinese.stderr.contains("用法：marquee [<options>] <message> ...\n  详见 'marquee --help'。")) }
  }

  @Test func helpHeadingsInChineseTheOptionsAsTheyAre() throws {
    let help = try BinaryRunner.run(["--help"], environment: TerminalLanguageTests.chinese)
    #expect(help.status == 0)
    for heading in ["概述：", "用法：marquee [<options>] <message> ...", "子命令：", "参数：", "选项：", "退出状态："] {
      #expect(help.stdout.contains(heading), "\(heading)")
    }
    // Option names are what scripts and people type: the same in both.
    let english = try BinaryRunner.run(["--help"])
    let names = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("  --") }.map { $0.split(separator: " ")[0] } }
    #expect(names(help.stdout) == names(english.stdout) && names(english.stdout).count > 30)
  }

  @Test func theLocaleVariablesDecideInTheirOrder() throws {
    // LC_ALL over LC_MESSAGES over LANG; an empty one does not count.
    let cases: [([String: String], Bool)] = [
      (["LANG": "zh_CN.UTF-8"], true), (["LANG": "zh_TW.UTF-8"], true), (["LANG": "en_US.UTF-8"], false),
      (["LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"], true), (["LANG": "zh_CN.UTF-8", "LC_ALL": "C"], false),
      (["LANG": "zh_CN.UTF-8", "LC_MESSAGES": ""], true),
    ]
    for (environment, chinese) in cases {
      let result = try BinaryRunner.run(["--sped"], environment: environment)
      #expect(result.stderr.hasPrefix(chinese ? "错误：" : "Error:") && result.status == 64, "\(environment): \(result.stderr)")
    }
  }
}

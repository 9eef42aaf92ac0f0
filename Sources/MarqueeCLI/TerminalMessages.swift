import Platform

/// The words a person reads at the sign's terminal, in English or in Simplified Chinese when
/// the locale says so (`LC_ALL`, then `LC_MESSAGES`, then `LANG`, the first one set, starting
/// with `zh`): the frame of every error (`Error:`, the usage line), the common usage and
/// runtime errors, and the headings and overview of `--help`.
///
/// One catalog in the source, no gettext: each entry is an English message with numbered
/// holes (`{1}`) and its Chinese. A message the catalog lacks stays English, as do option
/// names, file paths, JSON keys and exit codes: what scripts read never changes.
enum TerminalMessages {
  enum Language: Equatable {
    case english, chinese
  }

  /// The language of the locale in `environment` (the process's by default).
  static func language(_ environment: (String) -> String? = Environment.value) -> Language {
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      guard let value = environment(name), !value.isEmpty else { continue }
      return value.lowercased().hasPrefix("zh") ? .chinese : .english
    }
    return .english
  }

  /// An English message with holes, and its Chinese.
  struct Entry {
    let english: String
    let chinese: String
  }

  static let catalog: [Entry] = [
    Entry(english: "Unknown option '{1}'.{2}", chinese: "未知选项 '{1}'。{2}"),
    Entry(english: " Did you mean '{1}'?", chinese: "是不是 '{1}'？"),
    Entry(english: "Missing value for '{1}'", chinese: "'{1}' 缺少取值"),
    Entry(english: "Missing expected argument '<message> ...'", chinese: "缺少要显示的消息（<message> ...）"),
    Entry(english: "Invalid value for '{1}': {2}", chinese: "'{1}' 的取值无效：{2}"),
    Entry(english: "The flag '{1}' does not take a value (got '{2}').", chinese: "开关 '{1}' 不带取值（收到 '{2}'）。"),
    Entry(english: "'{1}' applies in cycle mode only: add '--mode cycle'.", chinese: "'{1}' 只用于轮播模式：请加上 '--mode cycle'。"),
    Entry(english: "'{1}' is for 'marquee serve'.", chinese: "'{1}' 只用于 'marquee serve'。"),
    Entry(english: "No font named '{1}'. See 'marquee fonts' for the names, or give a path.",
          chinese: "没有名为 '{1}' 的字体。'marquee fonts' 列出所有字体名，也可以给出字体文件的路径。"),
    Entry(english: "No board named '{1}'.{2} See 'marquee boards' for the names, or give a path.",
          chinese: "没有名为 '{1}' 的板子。{2}'marquee boards' 列出所有名称，也可以给出板子文件的路径。"),
    Entry(english: "no icon named '{1}'{2}; 'marquee icons' lists them", chinese: "没有名为 '{1}' 的图标{2}；'marquee icons' 列出所有图标"),
    Entry(english: " (did you mean {1}?)", chinese: "（是不是 {1}？）"),
    Entry(english: "the text is {1} pixels tall but the sign is {2} pixels tall; use a smaller font or a taller sign",
          chinese: "文字高 {1} 像素，但屏只有 {2} 像素高；请换小一点的字体或更高的屏"),
    Entry(english: "'--listen {1}' lets other machines in: give '--token-file <file>' so every request needs the token (or listen on 127.0.0.1).",
          chinese: "'--listen {1}' 会让其他机器访问：请给出 '--token-file <file>'，让每个请求都带上令牌（或者只监听 127.0.0.1）。"),
    Entry(english: "standard input is closed, and '--stdin' reads from it", chinese: "标准输入已关闭，而 '--stdin' 要从中读取"),
    Entry(english: "{1}: no such device — is SPI enabled (dtparam=spi=on)?", chinese: "{1}：没有这个设备——SPI 打开了吗（dtparam=spi=on）？"),
    Entry(english: "{1}: no such I2C bus — is I2C enabled (dtparam=i2c_arm=on), and is this the right bus number?",
          chinese: "{1}：没有这条 I2C 总线——I2C 打开了吗（dtparam=i2c_arm=on）？总线号对吗？"),
    Entry(english: "{1}: no such GPIO chip — 'gpiodetect' (package gpiod) lists the chips",
          chinese: "{1}：没有这个 GPIO 芯片——'gpiodetect'（gpiod 软件包）列出所有芯片"),
    Entry(english: "{1}: permission denied — add your user to the '{2}' group (sudo usermod -aG {3} $USER, then log in again) or run as root",
          chinese: "{1}：没有权限——请把用户加入 '{2}' 组（sudo usermod -aG {3} $USER，然后重新登录），或者以 root 运行"),
    Entry(english: "{1}: cannot listen: Address already in use (is another marquee serve running? pick another port with --listen)",
          chinese: "{1}：无法监听：地址已被占用（是不是已经有一个 marquee serve 在运行？用 --listen 换一个端口）"),
    Entry(english: "{1}: No such file or directory", chinese: "{1}：没有这个文件或目录"),
    Entry(english: "{1}: Permission denied", chinese: "{1}：没有权限"),
    Entry(english: "{1}: is not a folder that can be read", chinese: "{1}：不是可以读取的文件夹"),
    Entry(english: "{1}: is a folder, not a file", chinese: "{1}：是文件夹，不是文件"),
  ]

  /// `text` in `language`: the first catalog entry that matches it whole, with what fills
  /// its holes translated in turn; `text` itself when none does.
  static func translate(_ text: String, to language: Language) -> String {
    guard language == .chinese else { return text }
    for entry in catalog {
      guard let holes = match(text, entry.english) else { continue }
      var result = entry.chinese
      for (number, value) in holes.enumerated() {
        result = result.replacing("{\(number + 1)}", with: translate(value, to: language))
      }
      return result
    }
    return text
  }

  /// What fills each hole of `pattern` (`{1}`, `{2}`, … in order) for `text` to be it, or
  /// nil; a hole takes as little as it can, the last one what is left.
  static func match(_ text: String, _ pattern: String) -> [String]? {
    var literals: [String] = []
    var rest = Substring(pattern)
    while let open = rest.firstRange(of: "{"), let close = rest[open.upperBound...].firstIndex(of: "}"),
      Int(rest[open.upperBound..<close]) != nil
    {
      literals.append(String(rest[..<open.lowerBound]))
      rest = rest[rest.index(after: close)...]
    }
    literals.append(String(rest))
    guard text.hasPrefix(literals[0]), text.count >= literals.joined().count else { return nil }
    var remaining = Substring(text.dropFirst(literals[0].count))
    var holes: [String] = []
    for (index, literal) in literals.dropFirst().enumerated() {
      let last = index == literals.count - 2
      if last {
        guard remaining.hasSuffix(literal) else { return nil }
        holes.append(String(remaining.dropLast(literal.count)))
        return holes
      }
      guard let found = remaining.firstRange(of: literal) else { return nil }
      holes.append(String(remaining[..<found.lowerBound]))
      remaining = remaining[found.upperBound...]
    }
    return remaining.isEmpty ? holes : nil
  }

  /// The lines of a usage error: the message, the usage and where help is.
  static func usageError(_ message: String, language: Language = language()) -> String {
    switch language {
    case .english:
      "Error: \(message)\nUsage: \(HelpText.usage)\n  See 'marquee --help' for more information."
    case .chinese:
      "错误：\(translate(message, to: .chinese))\n用法：\(HelpText.usage)\n  详见 'marquee --help'。"
    }
  }

  /// The line of a runtime error.
  static func runtimeError(_ message: String, language: Language = language()) -> String {
    language == .chinese ? "错误：\(translate(message, to: .chinese))" : "Error: \(message)"
  }
}

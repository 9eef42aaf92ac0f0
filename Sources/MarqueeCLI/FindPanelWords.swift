import Drivers

/// What `marquee find-panel` says, in English or Chinese.
struct FindPanelWords {
  let chinese: Bool

  func intro(columns: Int, rows: Int, mapping: String, settings: Int) -> String {
    chinese
      ? "正在查找 \(columns)x\(rows) HUB75 面板的设置（共 \(settings) 种可能）。请只接一块面板（\(mapping) 接线）。每一步点亮一幅测试图，请回答您看到了什么。\n"
      : "Finding the settings of a \(columns)x\(rows) HUB75 panel (\(settings) possible). Connect one panel to the Pi (\(mapping) wiring). Each step lights a test picture: say what you see.\n"
  }

  func everythingQuestion(_ step: Int) -> String {
    chinese
      ? "第 \(step) 步：面板上每个 LED 都亮，而且一样亮吗？[y] 是  [n] 否：有的行不亮或更亮  [d] 全不亮"
      : "Step \(step): is every LED of the panel lit, all equally bright? [y] yes  [n] no: some rows dark, or some brighter  [d] nothing lit"
  }

  var everythingRetry: String { chinese ? "请回答 y、n 或 d。" : "Please answer y, n or d." }
  var yesNoRetry: String { chinese ? "请回答 y 或 n。" : "Please answer y or n." }

  func numbersQuestion(_ step: Int, count: Int) -> String {
    chinese
      ? "第 \(step) 步：1 到 \(count) 中哪些数字能完整、正向地看清？输入这些数字（例如 1 4），都看不清请输入 0："
      : "Step \(step): which of the numbers 1 to \(count) can you read, whole and the right way round? Type them (e.g. 1 4), or 0 if none:"
  }

  func partsQuestion(_ step: Int, count: Int) -> String {
    let layout = count == 8 ? (chinese ? "上排从左到右 1-4，下排 5-8" : "1 to 4 across the top, 5 to 8 across the bottom") : (chinese ? "从左到右 1-\(count)" : "1 to \(count) from the left")
    return chinese
      ? "第 \(step) 步：面板分成 \(count) 块（\(layout)）。哪几块有亮光？输入块号（例如 2 7），都没有请输入 0："
      : "Step \(step): the panel in \(count) parts (\(layout)): which parts have any light? Type them (e.g. 2 7), or 0 if none:"
  }

  func numbersRetry(_ count: Int) -> String {
    chinese ? "请输入 1 到 \(count) 之间的数字，用空格分开，都看不清请输入 0。" : "Type numbers from 1 to \(count), separated by spaces, or 0 if none."
  }

  var noFit: String {
    chinese
      ? "这些回答不符合已知的任何面板设置（hzeller 的行地址类型 0-5 和多路复用 0-9）。请检查接线和面板尺寸后重试。"
      : "the answers fit no panel setting the finder knows (hzeller's row address kinds 0-5 and multiplexers 0-9): check the wiring and the panel's size, and run it again"
  }

  func found(_ setting: HUB75PanelFinder.Setting, colorOrder: HUB75ColorOrder, answers: Int) -> String {
    let address = "\(setting.rowAddress.rawValue) (\(setting.rowAddress.hzellerNumber))"
    let multiplexing = "\(setting.multiplexing.rawValue) (\(setting.multiplexing.hzellerNumber))"
    return chinese
      ? "找到了（回答了 \(answers) 个问题）：rowAddress \(address)，multiplexing \(multiplexing)，colorOrder \(colorOrder.rawValue)。\n"
      : "Found after \(answers) answers: rowAddress \(address), multiplexing \(multiplexing), colorOrder \(colorOrder.rawValue).\n"
  }

  func colorsQuestion(_ step: Int) -> String {
    chinese
      ? "第 \(step) 步：三个色块从左到右各是什么颜色？输入 r、g、b（红、绿、蓝），例如 r g b："
      : "Step \(step): what colours are the three blocks, left to right? Type r, g or b for each (red, green, blue), e.g. r g b:"
  }

  var colorsRetry: String {
    chinese ? "请按从左到右输入三种颜色，各一次：r、g、b。" : "Type the three colours left to right, each once: r, g and b."
  }

  func written(_ path: String) -> String {
    chinese ? "板卡文件已写入 \(path)：用 marquee --board \(path) \"你好\" 使用它。\n" : "Board file written to \(path): use it with marquee --board \(path) \"Hello\".\n"
  }

  var confirm: String {
    chinese
      ? "面板上现在用找到的设置显示 “Hello”。它完整、正向吗？[y] 是  [n] 否"
      : "The panel now shows \"Hello\" with the settings found. Does it read right, whole? [y] yes  [n] no"
  }

  var notRight: String {
    chinese
      ? "找到的设置显示不正确：可能有一个回答有误。没有写入板卡文件；请重新运行 marquee find-panel。"
      : "the settings found do not draw right: an answer may have been mistaken. No board file was written; run marquee find-panel again"
  }
}

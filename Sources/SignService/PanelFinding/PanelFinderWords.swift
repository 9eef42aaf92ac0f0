import Drivers

/// What the panel finder says, in English or Chinese: each question as its text, the
/// answers a page offers as buttons, and the hint a terminal prints for typing one.
public struct PanelFinderWords: Sendable {
  public let chinese: Bool

  public init(chinese: Bool) { self.chinese = chinese }

  /// The terminal's first lines.
  public func intro(columns: Int, rows: Int?, mapping: String, settings: Int) -> String {
    let size = rows.map { " \(columns)x\($0) HUB75 " } ?? (chinese ? "宽 \(columns) 像素（高度一并查找）的 HUB75 " : " HUB75 ")
    let wide = rows == nil ? " \(columns) pixels wide, and its height" : ""
    return chinese
      ? "正在查找\(size)面板的设置（共 \(settings) 种可能）。请只接一块面板（\(mapping) 接线）。每一步点亮一幅测试图，请回答您看到了什么。\n"
      : "Finding the settings of a\(size)panel\(wide) (\(settings) possible). Connect one panel to the Pi (\(mapping) wiring). Each step lights a test picture: say what you see.\n"
  }

  /// Under `marquee serve`, where the sign may be a chain: which panel to look at.
  public func lookAt(chain: Int) -> String {
    guard chain > 1 else { return "" }
    return chinese
      ? "请看离 Pi 最近的那块面板（链上的第一块）；其他面板显示的内容可以不管。"
      : "Look at the panel nearest the Pi (the first of the chain); what the others show does not matter."
  }

  func step(_ step: Int) -> String { chinese ? "第 \(step) 步：" : "Step \(step): " }

  var everything: String { chinese ? "面板上每个 LED 都亮，而且一样亮吗？" : "is every LED of the panel lit, all equally bright?" }

  var everythingChoices: [(answer: String, label: String)] {
    chinese
      ? [("y", "是"), ("n", "否：有的行不亮或更亮"), ("d", "全不亮")]
      : [("y", "yes"), ("n", "no: some rows dark, or some brighter"), ("d", "nothing lit")]
  }

  var everythingRetry: String { chinese ? "请回答 y、n 或 d。" : "Please answer y, n or d." }
  var yesNoRetry: String { chinese ? "请回答 y 或 n。" : "Please answer y or n." }

  func numbers(count: Int) -> String {
    chinese ? "1 到 \(count) 中哪些数字能完整、正向地看清？" : "which of the numbers 1 to \(count) can you read, whole and the right way round?"
  }

  var numbersHint: String { chinese ? "输入这些数字（例如 1 4），都看不清请输入 0：" : "Type them (e.g. 1 4), or 0 if none:" }

  func parts(count: Int) -> String {
    let layout = count == 8 ? (chinese ? "上排从左到右 1-4，下排 5-8" : "1 to 4 across the top, 5 to 8 across the bottom") : (chinese ? "从左到右 1-\(count)" : "1 to \(count) from the left")
    return chinese ? "面板分成 \(count) 块（\(layout)）。哪几块有亮光？" : "the panel in \(count) parts (\(layout)): which parts have any light?"
  }

  var partsHint: String { chinese ? "输入块号（例如 2 7），都没有请输入 0：" : "Type them (e.g. 2 7), or 0 if none:" }

  func numbersRetry(_ count: Int) -> String {
    chinese ? "请输入 1 到 \(count) 之间的数字，用空格分开，都看不清请输入 0。" : "Type numbers from 1 to \(count), separated by spaces, or 0 if none."
  }

  public var noFit: String {
    chinese
      ? "这些回答不符合已知的任何面板设置（hzeller 的行地址类型 0-5 和多路复用 0-9）。请检查接线和面板尺寸后重试。"
      : "the answers fit no panel setting the finder knows (hzeller's row address kinds 0-5 and multiplexers 0-9): check the wiring and the panel's size, and run it again"
  }

  public func found(_ found: PanelFinderDialogue.Found, answers: Int) -> String {
    let (setting, colorOrder) = (found.setting, found.colorOrder)
    let address = "\(setting.rowAddress.rawValue) (\(setting.rowAddress.hzellerNumber))"
    let multiplexing = "\(setting.multiplexing.rawValue) (\(setting.multiplexing.hzellerNumber))"
    let mapper = found.arranged ? (chinese ? "，pixelMapper " : ", pixelMapper ") + (found.pixelMapper.map { "\($0)" } ?? (chinese ? "无（按接线顺序）" : "none (as wired)")) : ""
    let chips = found.panelInit.map { (chinese ? "，panelType " : ", panelType ") + $0.rawValue } ?? ""
    return chinese
      ? "找到了（回答了 \(answers) 个问题）：面板高 \(setting.panelRows) 行，rowAddress \(address)，multiplexing \(multiplexing)，colorOrder \(colorOrder.rawValue)\(chips)\(mapper)。"
      : "Found after \(answers) answers: \(setting.panelRows) rows, rowAddress \(address), multiplexing \(multiplexing), colorOrder \(colorOrder.rawValue)\(chips)\(mapper)."
  }

  /// Said when nothing lit and the chips were started, before the questions start again.
  func chipsStarted(_ chips: HUB75PanelInit) -> String {
    let name = chips.rawValue.uppercased()
    return chinese
      ? "面板全不亮：有些面板（\(name) 等驱动芯片）要先启动芯片才会亮。查找程序已按 \(name) 启动芯片，请重新看一遍。"
      : "Nothing lit: some panels (\(name) driver chips and kin) stay dark until their chips are started. The finder has started them as \(name): look again."
  }

  var arrangement: String {
    chinese
      ? "每块面板显示自己的编号，顶边有一条横线。请从上到下逐行、每行从左到右输入看到的编号，行与行之间用 / 分开（例如 2 1 / 3 4）；横线在底部的编号后加 v，在右边加 >，在左边加 <。"
      : "each panel shows its number and a bar along its top edge. Type the numbers as you see them, row by row from the top, each row from the left, rows separated by / (e.g. 2 1 / 3 4); after a number whose bar is at the bottom add v, on the right >, on the left <."
  }

  var arrangementHint: String { chinese ? "编号：" : "Numbers:" }

  func arrangementRetry(_ count: Int) -> String {
    chinese
      ? "请输入 1 到 \(count) 的编号，每个最多一次，可加 v、> 或 <，行与行之间用 / 分开。"
      : "Type the panels' numbers, 1 to \(count), each at most once, each with v, > or < if turned, rows separated by /."
  }

  var colors: String { chinese ? "三个色块从左到右各是什么颜色？" : "what colours are the three blocks, left to right?" }

  var colorsHint: String { chinese ? "输入 r、g、b（红、绿、蓝），例如 r g b：" : "Type r, g or b for each (red, green, blue), e.g. r g b:" }

  /// The six orders, as a page offers them: `r g b` labelled "red, green, blue".
  var colorChoices: [(answer: String, label: String)] {
    let names: [Character: String] = chinese ? ["r": "红", "g": "绿", "b": "蓝"] : ["r": "red", "g": "green", "b": "blue"]
    return ["rgb", "rbg", "grb", "gbr", "brg", "bgr"].map { order in
      (order.map(String.init).joined(separator: " "), order.map { names[$0]! }.joined(separator: chinese ? "、" : ", "))
    }
  }

  var colorsRetry: String {
    chinese ? "请按从左到右输入三种颜色，各一次：r、g、b。" : "Type the three colours left to right, each once: r, g and b."
  }

  public func written(_ path: String) -> String {
    chinese ? "板卡文件已写入 \(path)：用 marquee --board \(path) \"你好\" 使用它。\n" : "Board file written to \(path): use it with marquee --board \(path) \"Hello\".\n"
  }

  /// Under `marquee serve`: the board file written and the sign running with it.
  public func saved(_ path: String) -> String {
    chinese ? "板卡文件已写入 \(path)，招牌已改用新设置。" : "The board file \(path) is written, and the sign runs with the settings found."
  }

  /// Under `marquee serve`: written, but the sign's size changes, which takes a restart.
  public func savedNewSize(_ path: String, from: String, to: String) -> String {
    chinese
      ? "板卡文件已写入 \(path)。招牌尺寸从 \(from) 变为 \(to)，需要重启招牌才能生效（例如 systemctl restart marquee；分区布局可能也要调整）；在此之前仍用原来的设置。"
      : "The board file \(path) is written. The sign's size changes from \(from) to \(to), which takes a restart of the sign (systemctl restart marquee; its zones may need changing too); until then it keeps its own settings."
  }

  /// Under `marquee serve`: written, but the sign could not read it back.
  public func savedNotRead(_ path: String, _ error: String) -> String {
    chinese
      ? "板卡文件已写入 \(path)，但招牌读取它时出错：\(error)。招牌仍用原来的设置。"
      : "The board file \(path) is written, but the sign could not read it back: \(error). It keeps its own settings."
  }

  /// Under `marquee serve` with a board the sign ships (no file of the owner's to write).
  public func notSaved(_ board: String) -> String {
    chinese
      ? "招牌使用的是内置板卡 \(board)，没有可写的文件：请把下面的内容存为文件，再用 --board 文件路径 启动招牌。在此之前招牌仍用原来的设置。"
      : "The sign runs the built-in board \(board), which is no file of yours to write: save the text below as a file and start the sign with --board FILE. Until then it keeps its own settings."
  }

  var confirm: String {
    chinese ? "面板上现在用找到的设置显示 “Hello”。它完整、正向吗？" : "The panel now shows \"Hello\" with the settings found. Does it read right, whole?"
  }

  var yesNoChoices: [(answer: String, label: String)] { chinese ? [("y", "是"), ("n", "否")] : [("y", "yes"), ("n", "no")] }

  public var notRight: String {
    chinese
      ? "找到的设置显示不正确：可能有一个回答有误。没有写入板卡文件；请重新运行 marquee find-panel。"
      : "the settings found do not draw right: an answer may have been mistaken. No board file was written; run marquee find-panel again"
  }

  /// Under `marquee serve`, the same: the sign goes back to its own board.
  public var notRightServed: String {
    chinese
      ? "找到的设置显示不正确：可能有一个回答有误。板卡文件没有改动，招牌已恢复原来的设置；请重新查找。"
      : "The settings found do not draw right: an answer may have been mistaken. The board file is unchanged and the sign is back on its own settings; find them again."
  }
}

import Drivers
import Marquee
import Platform
import SignService

/// `marquee find-panel`: finds a HUB75 panel's row address kind and multiplexing by showing
/// test pictures on it and asking what the person sees (``HUB75PanelFinder``), then writes
/// the board file and shows a word drawn with it.
///
/// On a Raspberry Pi it drives the panel; with `--simulate SETTING` it shows, in the
/// terminal, what a panel of that setting would light, for trying it without a panel (and
/// for tests, which answer by looking at it).
public struct FindPanelCommand: Sendable, Equatable {
  public var columns = 64, rows = 32
  public var mapping = "regular"
  public var chain = 1
  /// Where the board file goes (`nil`: printed at the end).
  public var output: String?
  /// The panel to emulate in the terminal instead of driving one, and which colour its
  /// colour inputs light.
  public var simulate: HUB75PanelFinder.Setting?
  public var simulatedColors = HUB75ColorOrder.rgb
  public var chinese = false

  static let usage = "find-panel [--panel <WxH>] [--mapping <name>] [--chain <n>] [--write <file>] [--simulate <rowAddress,multiplexing[,colorOrder]>] [--lang en|zh]"

  /// Reads the subcommand's arguments; the language is the locale's unless `--lang` says.
  static func parse(_ rest: [String], language: TerminalMessages.Language = TerminalMessages.language()) throws(UsageError) -> FindPanelCommand {
    var command = FindPanelCommand()
    command.chinese = language == .chinese
    var index = 0
    while index < rest.count {
      let option = rest[index]
      guard index + 1 < rest.count else { throw UsageError("'find-panel \(option)' needs a value: marquee \(usage)") }
      let value = rest[index + 1]
      index += 2
      switch option {
      case "--panel":
        let parts = value.split(separator: "x").map { Int($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1] else {
          throw UsageError("'--panel' needs the panel's size as COLUMNSxROWS (64x32), not '\(value)'")
        }
        (command.columns, command.rows) = (width, height)
      case "--mapping":
        guard HUB75PinMap.named.contains(where: { $0.name == value }) else {
          throw UsageError("'--mapping' is one of \(HUB75PinMap.named.map(\.name).joined(separator: ", ")), not '\(value)'")
        }
        command.mapping = value
      case "--chain":
        guard let count = Int(value), (1...32).contains(count) else { throw UsageError("'--chain' is the panels in the chain, 1 to 32, not '\(value)'") }
        command.chain = count
      case "--write":
        guard !value.isEmpty else { throw UsageError("'--write' needs a file") }
        command.output = value
      case "--simulate":
        let parts = value.split(separator: ",").map(String.init)
        guard parts.count == 2 || parts.count == 3, let address = HUB75RowAddress(rawValue: parts[0]),
          let multiplexing = HUB75Multiplexing(rawValue: parts[1]), parts.count == 2 || HUB75ColorOrder(rawValue: parts[2].uppercased()) != nil
        else {
          throw UsageError(
            "'--simulate' needs ROWADDRESS,MULTIPLEXING[,COLORORDER] (direct,stripe): row address one of \(HUB75RowAddress.allCases.map(\.rawValue).joined(separator: ", ")); multiplexing one of \(HUB75Multiplexing.allCases.map(\.rawValue).joined(separator: ", ")); colour order one of \(HUB75ColorOrder.allCases.map(\.rawValue).joined(separator: ", "))"
          )
        }
        command.simulate = HUB75PanelFinder.Setting(rowAddress: address, multiplexing: multiplexing)
        command.simulatedColors = parts.count == 3 ? HUB75ColorOrder(rawValue: parts[2].uppercased())! : .rgb
      case "--lang":
        guard value == "en" || value == "zh" else { throw UsageError("'--lang' is en or zh, not '\(value)'") }
        command.chinese = value == "zh"
      default:
        throw UsageError("'find-panel' takes --panel, --mapping, --chain, --write, --simulate and --lang, not '\(option)'")
      }
    }
    do {
      let finder = try HUB75PanelFinder(panelColumns: command.columns, panelRows: command.rows, pins: command.pins)
      if let simulate = command.simulate, !finder.settings.contains(simulate) {
        throw UsageError("'--simulate \(simulate.rowAddress.rawValue),\(simulate.multiplexing.rawValue)' does not fit a \(command.columns)x\(command.rows) panel")
      }
    } catch let error as InvalidBoardValue {
      throw UsageError("'--panel \(command.columns)x\(command.rows)': \(error.reason)")
    } catch let error as UsageError {
      throw error
    } catch {
      throw UsageError("\(error)")
    }
    return command
  }

  var pins: HUB75PinMap { HUB75PinMap.named.first { $0.name == mapping }! }

  /// Runs the dialogue on standard input and output until the panel is found.
  ///
  /// - Throws: ``SignFailure`` when the answers fit no setting or standard input ends
  ///   first; the panel's errors (no Pi, no access to the registers).
  func run(stop: StopFlag) throws {
    var finder = try HUB75PanelFinder(panelColumns: columns, panelRows: rows, pins: pins)
    let words = FindPanelWords(chinese: chinese)
    var panel = try FinderPanel(simulating: simulate.map { finder.board(for: $0, colorOrder: simulatedColors) })
    defer { panel.finish() }
    var input = AnswerReader(stop: stop)
    try printOutput(words.intro(columns: columns, rows: rows, mapping: mapping, settings: finder.settings.count))
    var step = 0
    while let probe = finder.nextProbe() {
      step += 1
      try show(panel.show(finder.program(for: probe), on: finder.board(for: probe.drive)))
      let (question, retry) =
        switch probe.pattern {
        case .everything: (words.everythingQuestion(step), words.everythingRetry)
        case .numbers: (words.numbersQuestion(step, count: finder.numberCount), words.numbersRetry(finder.numberCount))
        case .part: (words.partsQuestion(step, count: finder.numberCount), words.numbersRetry(finder.numberCount))
        }
      let answer = try input.ask(question, retry: retry) { text in FindPanelCommand.answer(text, for: probe.pattern, count: finder.numberCount) }
      finder.record(answer, for: probe)
    }
    guard let found = finder.found() else { throw SignFailure(words.noFit) }
    // Which colour each input lights: three blocks, on R, G and B alone.
    try show(panel.show(finder.colorProgram(for: found), on: finder.board(for: found)))
    let colorOrder = try input.ask(words.colorsQuestion(finder.asked.count + 1), retry: words.colorsRetry) { text in
      HUB75ColorOrder(seen: text.split { $0 == " " || $0 == "," || $0 == "，" }.map(String.init))
    }
    try printOutput(words.found(found, colorOrder: colorOrder, answers: finder.asked.count + 1))
    // The word drawn with the settings found: the person checks the result before the
    // board file is written (one mistaken answer finds a wrong setting).
    let board = finder.board(for: found, colorOrder: colorOrder)
    try show(panel.show(FinderPanel.hello(on: board), on: board))
    let right = try input.ask(words.confirm, retry: words.yesNoRetry) { text in
      switch text.lowercased().trimmingWhitespace {
      case "y", "yes", "是": true
      case "n", "no", "否": false
      default: nil
      }
    }
    guard right else { throw SignFailure(words.notRight) }
    let json = boardJSON(found, colorOrder: colorOrder)
    if let output {
      try DurableFile.write(Array(json.utf8), to: output, what: "the board file")
      try printOutput(words.written(output))
    } else {
      try printOutput(json)
    }
  }

  /// Prints the simulated panel's picture, if the panel is simulated.
  func show(_ drawing: String?) throws {
    if let drawing { try printOutput("\n" + drawing) }
  }

  /// An answer typed for `pattern`, or `nil` when it is not one.
  static func answer(_ text: String, for pattern: HUB75PanelFinder.Pattern, count: Int) -> HUB75PanelFinder.Answer? {
    let typed = text.lowercased().trimmingWhitespace
    switch pattern {
    case .everything:
      switch typed {
      case "y", "yes", "是": return .even
      case "n", "no", "否": return .uneven
      case "d", "dark", "暗", "全不亮": return .dark
      default: return nil
      }
    case .numbers, .part:
      let parts = typed.split { $0 == " " || $0 == "," || $0 == "，" }.map { Int($0) }
      guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
      var numbers = Set(parts.map { $0! })
      if numbers == [0] { numbers = [] }
      guard numbers.allSatisfy({ (1...count).contains($0) }) else { return nil }
      return pattern == .numbers ? .numbers(numbers) : .parts(numbers)
    }
  }

  /// The board file for the setting found.
  func boardJSON(_ setting: HUB75PanelFinder.Setting, colorOrder: HUB75ColorOrder) -> String {
    """
    {
      "schema": 1,
      "name": "hub75-\(columns)x\(rows)-found",
      "description": "found by marquee find-panel",
      "driver": "hub75",
      "panel": {"columns": \(columns), "rows": \(rows)},
      "grid": {"columns": \(chain), "rows": 1},
      "mapping": "\(mapping)",
      "rowAddress": "\(setting.rowAddress.rawValue)",
      "multiplexing": "\(setting.multiplexing.rawValue)"\(colorOrder == .rgb ? "" : ",\n  \"colorOrder\": \"\(colorOrder.rawValue)\"")
    }

    """
  }
}

/// Reads the person's answers from standard input, a line each, giving up when a stop
/// signal comes.
struct AnswerReader {
  let stop: StopFlag
  var reader = LineReader(descriptor: 0, maximumLength: 200)

  /// Prints `question` and reads lines until `parse` makes an answer of one (saying `retry`
  /// after each that does not).
  mutating func ask<Answer>(_ question: String, retry: String, _ parse: (String) -> Answer?) throws -> Answer {
    try printOutput(question + " ")
    while true {
      while !Descriptor.waitReadable(0, milliseconds: 200) {
        if stop.isSet { throw StopRequested() }
      }
      if stop.isSet { throw StopRequested() }
      guard case .text(let line)? = reader.next() else {
        throw SignFailure("standard input ended before the panel was found; nothing was written")
      }
      if let answer = parse(line) { return answer }
      try printOutput(retry + " ")
    }
  }
}

/// A stop signal came while the finder waited for an answer.
struct StopRequested: Error {}

import Drivers
import Marquee
import Platform
import SignService

/// `marquee find-panel`: finds a HUB75 panel's row address kind and multiplexing (and with
/// `--panel WIDTH` alone its height) by showing test pictures on it and asking what the
/// person sees (``HUB75PanelFinder``), then writes the board file and shows a word drawn
/// with it.
///
/// On a Raspberry Pi it drives the panel; with `--simulate SETTING` it shows, in the
/// terminal, what a panel of that setting would light, for trying it without a panel (and
/// for tests, which answer by looking at it).
public struct FindPanelCommand: Sendable, Equatable {
  public var columns = 64
  /// The panel's height, or `nil` when the finder finds it (`--panel 64`).
  public var rows: Int? = 32
  public var mapping = "regular"
  public var chain = 1
  /// Where the board file goes (`nil`: printed at the end).
  public var output: String?
  /// The panel to emulate in the terminal instead of driving one, and which colour its
  /// colour inputs light.
  public var simulate: HUB75PanelFinder.Setting?
  public var simulatedColors = HUB75ColorOrder.rgb
  /// The simulated panel's driver chips, when they must be started (FM6126A, FM6127).
  public var simulatedChips: HUB75PanelInit?
  public var chinese = false

  static let usage = "find-panel [--panel <WxH|W>] [--mapping <name>] [--chain <n>] [--write <file>] [--simulate <[rows,]rowAddress,multiplexing[,colorOrder[,panelType]]>] [--lang en|zh]"

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
        let parts = value.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(parts.count), let width = parts[0], parts.count == 1 || parts[1] != nil else {
          throw UsageError("'--panel' needs the panel's size as COLUMNSxROWS (64x32), or its width alone to find its height (64), not '\(value)'")
        }
        (command.columns, command.rows) = (width, parts.count == 2 ? parts[1] : nil)
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
        var parts = value.split(separator: ",").map(String.init)
        // A leading number: the simulated panel's height (the finder's own when left out).
        let simulatedRows = parts.first.flatMap { Int($0) }
        if simulatedRows != nil { parts.removeFirst() }
        guard (2...4).contains(parts.count), let address = HUB75RowAddress(rawValue: parts[0]),
          let multiplexing = HUB75Multiplexing(rawValue: parts[1]), parts.count == 2 || HUB75ColorOrder(rawValue: parts[2].uppercased()) != nil,
          parts.count < 4 || HUB75PanelInit(rawValue: parts[3].lowercased()) != nil
        else {
          throw UsageError(
            "'--simulate' needs [ROWS,]ROWADDRESS,MULTIPLEXING[,COLORORDER[,PANELTYPE]] (direct,stripe or 64,direct,direct): row address one of \(HUB75RowAddress.allCases.map(\.rawValue).joined(separator: ", ")); multiplexing one of \(HUB75Multiplexing.allCases.map(\.rawValue).joined(separator: ", ")); colour order one of \(HUB75ColorOrder.allCases.map(\.rawValue).joined(separator: ", ")); panel type one of \(HUB75PanelInit.allCases.map(\.rawValue).joined(separator: ", "))"
          )
        }
        // The height is settled below, once --panel (in any order) is known.
        command.simulate = HUB75PanelFinder.Setting(rowAddress: address, multiplexing: multiplexing, panelRows: simulatedRows ?? 0)
        command.simulatedColors = parts.count >= 3 ? HUB75ColorOrder(rawValue: parts[2].uppercased())! : .rgb
        command.simulatedChips = parts.count == 4 ? HUB75PanelInit(rawValue: parts[3].lowercased()) : nil
      case "--lang":
        guard value == "en" || value == "zh" else { throw UsageError("'--lang' is en or zh, not '\(value)'") }
        command.chinese = value == "zh"
      default:
        throw UsageError("'find-panel' takes --panel, --mapping, --chain, --write, --simulate and --lang, not '\(option)'")
      }
    }
    do {
      let finder = try command.finder()
      if let simulate = command.simulate {
        let rows = simulate.panelRows != 0 ? simulate.panelRows : finder.panelRows
        let setting = HUB75PanelFinder.Setting(rowAddress: simulate.rowAddress, multiplexing: simulate.multiplexing, panelRows: rows)
        guard finder.settings.contains(setting) else {
          let heights = finder.rowChoices.map(String.init).joined(separator: " or ")
          throw UsageError(
            "'--simulate \(rows),\(simulate.rowAddress.rawValue),\(simulate.multiplexing.rawValue)' does not fit a panel \(command.columns) wide and \(heights) high")
        }
        command.simulate = setting
      }
    } catch let error as InvalidBoardValue {
      throw UsageError("'--panel \(command.columns)\(command.rows.map { "x\($0)" } ?? "")': \(error.reason)")
    } catch let error as UsageError {
      throw error
    } catch {
      throw UsageError("\(error)")
    }
    return command
  }

  var pins: HUB75PinMap { HUB75PinMap.named.first { $0.name == mapping }! }

  /// The finder for the panel: of the size given, or of the width given, finding its height.
  func finder() throws(InvalidBoardValue) -> HUB75PanelFinder {
    guard let rows else { return try HUB75PanelFinder(panelColumns: columns, pins: pins) }
    return try HUB75PanelFinder(panelColumns: columns, panelRows: rows, pins: pins)
  }

  /// Runs the dialogue on standard input and output until the panel is found.
  ///
  /// - Throws: ``SignFailure`` when the answers fit no setting or standard input ends
  ///   first; the panel's errors (no Pi, no access to the registers).
  func run(stop: StopFlag) throws {
    let finder = try self.finder()
    let words = PanelFinderWords(chinese: chinese)
    // The simulated panel: its setting, colours and chips.
    let truth = finder.starting(simulatedChips)
    var panel = try FinderPanel(
      simulating: simulate.map { truth.board(for: $0, colorOrder: simulatedColors) },
      sign: try simulate.map { try truth.chainBoard(for: $0, colorOrder: simulatedColors, chain: chain, parallel: 1) })
    defer { panel.finish() }
    var input = AnswerReader(stop: stop)
    try printOutput(words.intro(columns: columns, rows: rows, mapping: mapping, settings: finder.settings.count))
    var dialogue = try PanelFinderDialogue(finder: finder, words: words, chain: chain)
    while let question = dialogue.question, let lit = dialogue.lit {
      if let drawing = try panel.show(lit.program, on: lit.board) { try printOutput("\n" + drawing) }
      try input.ask(question.text + " " + question.hint, retry: question.retry) { text in try dialogue.answer(text) }
    }
    guard let result = dialogue.result else { return }
    let json = FoundBoardFile.new(columns: columns, chain: chain, mapping: mapping, found: result)
    if let output {
      try DurableFile.write(Array(json.utf8), to: output, what: "the board file")
      try printOutput(words.written(output))
    } else {
      try printOutput(json)
    }
  }
}

/// Reads the person's answers from standard input, a line each, giving up when a stop
/// signal comes.
struct AnswerReader {
  let stop: StopFlag
  var reader = LineReader(descriptor: 0, maximumLength: 200)

  /// Prints `question` and reads lines until `take` takes one as an answer (saying `retry`
  /// after each it does not).
  mutating func ask(_ question: String, retry: String, _ take: (String) throws -> Bool) throws {
    try printOutput(question + " ")
    while true {
      while !Descriptor.waitReadable(0, milliseconds: 200) {
        if stop.isSet { throw StopRequested() }
      }
      if stop.isSet { throw StopRequested() }
      guard case .text(let line)? = reader.next() else {
        throw SignFailure("standard input ended before the panel was found; nothing was written")
      }
      if try take(line) { return }
      try printOutput(retry + " ")
    }
  }
}

/// A stop signal came while the finder waited for an answer.
struct StopRequested: Error {}

import Drivers

/// The panel finder's questions in order, for any front end (the terminal's
/// `marquee find-panel`, the page under `marquee serve`): what the panel lights at each step,
/// the question, and what each answer leads to, up to the settings confirmed by the person.
///
/// After the probes of ``HUB75PanelFinder`` come the colours (three blocks on R, G and B
/// alone) and "Hello" drawn with the settings found: only a "yes" there ends with a result,
/// so one mistaken answer never ends at a wrong board.
public struct PanelFinderDialogue: Sendable {
  /// One question as a front end asks it.
  public struct Question: Sendable {
    /// The step's number (the confirmation has none of its own: 0).
    public internal(set) var step: Int
    /// The question, beginning "Step N: ".
    public internal(set) var text: String
    /// The answers a page offers as buttons (empty when numbers are picked instead).
    public let choices: [(answer: String, label: String)]
    /// The numbers 1 to `pick` to tick, those seen (0 when the question has choices).
    public let pick: Int
    /// The answer is typed (the panels' numbers as seen), not chosen.
    public var typed = false
    /// What a terminal prints after the question, for typing an answer.
    public let hint: String
    /// What is said after an answer that is none of these.
    public let retry: String
  }

  /// What the finder has found: the panel's setting, its colours, and for a sign of more
  /// than one panel their arrangement (`nil`: as the chains are wired).
  public struct Found: Sendable {
    public var setting: HUB75PanelFinder.Setting
    public var colorOrder: HUB75ColorOrder
    /// The driver chips that must be started (`panelType`), when the panel lit only so.
    public var panelInit: HUB75PanelInit?
    /// Whether the arrangement was asked (a sign of more than one panel).
    public var arranged = false
    public var pixelMapper: HUB75PixelMapper?
  }

  enum Stage: Sendable {
    case probe(HUB75PanelFinder.Probe)
    case colors(HUB75PanelFinder.Setting)
    case arrangement(Found)
    case confirm(Found)
    case confirmed(Found)
  }

  public private(set) var finder: HUB75PanelFinder
  public let words: PanelFinderWords
  /// The sign's panels a chain, and its chains.
  public let chain: Int, parallel: Int
  var stage: Stage
  var step = 1
  /// Said before the next question: why it is asked again.
  var note: String?
  /// Everything was lit as the setting found, after answers that saw nothing lit.
  var checkedLight = false

  /// The first question's dialogue.
  ///
  /// - Throws: ``SignFailure`` (``PanelFinderWords/noFit``) never for a new finder; the same
  ///   error as ``answer(_:)`` for one with answers recorded that fit nothing.
  public init(finder: HUB75PanelFinder, words: PanelFinderWords, chain: Int = 1, parallel: Int = 1) throws(SignFailure) {
    self.finder = finder
    self.words = words
    (self.chain, self.parallel) = (chain, parallel)
    stage = .colors(finder.settings[0])
    stage = try next()
  }

  /// The stage after the probes answered so far.
  mutating func next() throws(SignFailure) -> Stage {
    if let probe = finder.nextProbe() { return .probe(probe) }
    guard let found = finder.found() else { throw SignFailure(words.noFit) }
    // Nothing has lit yet: before taking a setting no picture lit, light everything driven
    // as it. A panel that stays dark then has chips to start (answer(_:) sees to that).
    let check = HUB75PanelFinder.Probe(drive: found, pattern: .everything)
    if !checkedLight, !finder.asked.isEmpty, finder.asked.allSatisfy({ $0.answer == .dark }) {
      checkedLight = true
      return .probe(check)
    }
    return .colors(found)
  }

  /// What the panel lights now, and the board it is made for (`nil` once confirmed).
  public var lit: (program: HUB75Program, board: HUB75Board)? {
    switch stage {
    case .probe(let probe): return (finder.program(for: probe), finder.board(for: probe.drive))
    case .colors(let found): return (finder.colorProgram(for: found), finder.board(for: found))
    case .arrangement(let found):
      let board = signBoard(found)
      return (finder.chainProgram(on: board), board)
    case .confirm(let found):
      let board = signBoard(found)
      return (FinderPanel.hello(on: board), board)
    case .confirmed: return nil
    }
  }

  /// The board "Hello" and the chain test are drawn on: one panel, or the whole sign.
  func signBoard(_ found: Found) -> HUB75Board {
    guard chain * parallel > 1,
      let board = try? finder.chainBoard(
        for: found.setting, colorOrder: found.colorOrder, chain: chain, parallel: parallel, pixelMapper: found.pixelMapper ?? .none)
    else { return finder.board(for: found.setting, colorOrder: found.colorOrder) }
    return board
  }

  /// The question now (`nil` once confirmed).
  public var question: Question? { noted(plainQuestion) }

  var plainQuestion: Question? {
    switch stage {
    case .probe(let probe):
      let count = finder.numberCount
      switch probe.pattern {
      case .everything:
        return choose(words.step(step) + words.everything, words.everythingChoices, retry: words.everythingRetry)
      case .numbers:
        return Question(
          step: step, text: words.step(step) + words.numbers(count: count), choices: [], pick: count, hint: words.numbersHint,
          retry: words.numbersRetry(count))
      case .part:
        return Question(
          step: step, text: words.step(step) + words.parts(count: count), choices: [], pick: count, hint: words.partsHint,
          retry: words.numbersRetry(count))
      }
    case .colors:
      return Question(
        step: step, text: words.step(step) + words.colors, choices: words.colorChoices, pick: 0, hint: words.colorsHint, retry: words.colorsRetry)
    case .arrangement:
      var question = Question(
        step: step, text: words.step(step) + words.arrangement, choices: [], pick: 0, hint: words.arrangementHint,
        retry: words.arrangementRetry(chain * parallel))
      question.typed = true
      return question
    case .confirm(let found):
      // The confirmation has no step of its own.
      var question = choose(words.found(found, answers: step - 1) + "\n" + words.confirm, words.yesNoChoices, retry: words.yesNoRetry)
      question.step = 0
      return question
    case .confirmed: return nil
    }
  }

  /// The question with the note before it, when there is one.
  func noted(_ question: Question?) -> Question? {
    guard let note, var question else { return question }
    question.text = note + "\n" + question.text
    return question
  }

  /// A question answered by a choice, its hint the choices as keys: `[y] yes  [n] no`.
  func choose(_ text: String, _ choices: [(answer: String, label: String)], retry: String) -> Question {
    Question(
      step: step, text: text, choices: choices, pick: 0, hint: choices.map { "[\($0.answer)] \($0.label)" }.joined(separator: "  "), retry: retry)
  }

  /// The settings found and confirmed, once "Hello" was said to read right.
  public var result: Found? {
    if case .confirmed(let found) = stage { return found }
    return nil
  }

  /// The answers given so far, the colours' included.
  public var answersGiven: Int { step - 1 }

  /// Takes an answer as typed (or sent by a page: a choice's `answer`, or the numbers ticked);
  /// `false` when it is none of the question's answers (ask again, saying `retry`).
  ///
  /// - Throws: ``SignFailure`` when the answers fit no setting (``PanelFinderWords/noFit``),
  ///   or "Hello" was said not to read right (``PanelFinderWords/notRight``).
  public mutating func answer(_ text: String) throws(SignFailure) -> Bool {
    let typed = text.lowercased().trimmingWhitespace
    let words = typed.split { $0 == " " || $0 == "," || $0 == "，" || $0 == "、" }.map(String.init)
    switch stage {
    case .probe(let probe):
      guard let answer = PanelFinderDialogue.answer(typed, words, for: probe.pattern, count: finder.numberCount) else { return false }
      note = nil
      // Nothing lit where every setting left would light something: the panel's chips may
      // need starting (FM6126A, then FM6127). Start them and ask again from the beginning.
      if answer == .dark, probe.pattern == .everything, !finder.explains(.dark, for: probe),
        let next = PanelFinderDialogue.chips(after: finder.panelInit)
      {
        finder = finder.starting(next)
        checkedLight = false
        note = self.words.chipsStarted(next)
        step += 1
        stage = try self.next()
        return true
      }
      finder.record(answer, for: probe)
      step += 1
      stage = try next()
    case .colors(let setting):
      guard let order = HUB75ColorOrder(seen: words) else { return false }
      step += 1
      let found = Found(setting: setting, colorOrder: order, panelInit: finder.panelInit)
      stage = chain * parallel > 1 ? .arrangement(found) : .confirm(found)
    case .arrangement(var found):
      guard let rows = PanelFinderDialogue.arrangement(typed) else { return false }
      // `nil` is an answer: the panels as the chains are wired.
      do {
        found.pixelMapper = try finder.arrangement(rows, panelRows: found.setting.panelRows, chain: chain, parallel: parallel)
      } catch {
        return false
      }
      found.arranged = true
      step += 1
      stage = .confirm(found)
    case .confirm(let found):
      guard let right = PanelFinderDialogue.yes(typed) else { return false }
      guard right else { throw SignFailure(self.words.notRight) }
      stage = .confirmed(found)
    case .confirmed:
      return false
    }
    return true
  }

  /// The panels as typed: rows from the top separated by `/`, each panel's number from
  /// the left, followed by `v` when its bar is at the bottom, `>` on the right, `<` on the
  /// left (`nil` when the text is not that).
  static func arrangement(_ typed: String) -> [[(number: Int, facing: HUB75PixelMapper.Tile.Facing)]]? {
    var rows: [[(number: Int, facing: HUB75PixelMapper.Tile.Facing)]] = []
    for line in typed.split(separator: "/") {
      var row: [(number: Int, facing: HUB75PixelMapper.Tile.Facing)] = []
      for token in line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "，" || $0 == "、" }) {
        let digits = token.prefix { $0.isASCII && $0.isNumber }
        let facing: HUB75PixelMapper.Tile.Facing
        switch token.dropFirst(digits.count) {
        case "": facing = .north
        case "v": facing = .south
        case ">": facing = .east
        case "<": facing = .west
        default: return nil
        }
        guard digits.count <= 3, let number = Int(digits) else { return nil }
        row.append((number, facing))
      }
      if !row.isEmpty { rows.append(row) }
    }
    return rows.isEmpty ? nil : rows
  }

  /// The driver chips to try starting after `tried`: FM6126A, then FM6127, then none left.
  static func chips(after tried: HUB75PanelInit?) -> HUB75PanelInit? {
    switch tried {
    case nil: .fm6126a
    case .fm6126a: .fm6127
    case .fm6127: nil
    }
  }

  static func yes(_ typed: String) -> Bool? {
    switch typed {
    case "y", "yes", "是": true
    case "n", "no", "否": false
    default: nil
    }
  }

  /// An answer to a probe, or `nil` when the text is not one.
  static func answer(_ typed: String, _ words: [String], for pattern: HUB75PanelFinder.Pattern, count: Int) -> HUB75PanelFinder.Answer? {
    switch pattern {
    case .everything:
      if typed == "d" || typed == "dark" || typed == "暗" || typed == "全不亮" { return .dark }
      return yes(typed).map { $0 ? .even : .uneven }
    case .numbers, .part:
      let numbers = words.map { Int($0) }
      guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else { return nil }
      var seen = Set(numbers.map { $0! })
      if seen == [0] { seen = [] }
      guard seen.allSatisfy({ (1...count).contains($0) }) else { return nil }
      return pattern == .numbers ? .numbers(seen) : .parts(seen)
    }
  }
}

import Dispatch
import Drivers
import Marquee
import Platform
import SimpleJSON
import Synchronization

/// The panel finder under `marquee serve`: lends the sign's HUB75 panel from the display
/// loop to a ``PanelFinderDialogue`` driven over the API (the page's guided flow), and gives
/// it back, with the settings found once they are written to the board file.
///
/// The display loop runs through ``runDisplay(_:stop:heartbeat:_:)``: a finder's start
/// stops its current run (the panel goes dark, the pins are given back), the finder drives
/// the panel per setting as `marquee find-panel` does, and the loop starts again on the
/// board it is given back: the board file as written, or its own. A finder left unanswered
/// for ``idleSeconds`` gives the panel back by itself.
public final class PanelFinderDesk: Sendable {
  /// The sign's board as it runs.
  public let board: HUB75Board
  /// The board file it was read from, and whether it is the owner's own (written with the
  /// settings found) rather than one marquee ships.
  let boardFile: String
  let writable: Bool
  /// The panel is emulated (`--simulate`): the finder's pictures are drawn in the answers.
  let simulated: Bool
  /// The emulated panels as they really are: the board's own, unless a test says otherwise.
  let truth: HUB75Board
  /// Reads a board file as the sign does at startup (`--intensity` applied).
  let load: @Sendable (String) throws -> SignBoard
  let clock: SignClock
  /// How long a finder waits for an answer before giving the panel back.
  public let idleSeconds: Double

  /// What the display loop and the finder share.
  struct Handover {
    /// The display loop's current run, which a finder stops to borrow the panel.
    var segment: StopFlag?
    /// A finder wants the panel, or has it.
    var wanted = false
    /// The display loop has stopped and waits to be given the panel back.
    var lent = false
    /// What the loop runs next, once given back: a board, or its own (`nil`).
    var giveBack: SignBoard?? = nil
    /// The loop has ended (the program stops): no finder starts.
    var ended = false
  }
  let handover = Mutex(Handover())

  /// A finder's state between requests.
  struct Run: Sendable {
    var dialogue: PanelFinderDialogue
    var panel: FinderPanel
    var touched: Double
    /// The emulated panel's picture, when simulated.
    var drawing: String? = nil
  }
  let run = Mutex<Run?>(nil)
  /// One request at a time, off the server thread: they wait for the display loop.
  let queue = DispatchQueue(label: "marquee.panel-finder")

  public init(
    board: HUB75Board, boardFile: String, writable: Bool, simulated: Bool, truth: HUB75Board? = nil, clock: SignClock,
    idleSeconds: Double = 600, load: @escaping @Sendable (String) throws -> SignBoard
  ) {
    self.board = board
    self.truth = truth ?? board
    self.boardFile = boardFile
    self.writable = writable
    self.simulated = simulated
    self.clock = clock
    self.idleSeconds = idleSeconds
    self.load = load
  }

  // MARK: The display loop's side

  /// Runs `display` on `board` until `stop`, stopping it whenever a finder borrows the
  /// panel and running it again once given back, on the board the finder leaves (the
  /// heartbeat rests meanwhile: systemd's watchdog sees no stuck loop).
  public func runDisplay(
    _ board: SignBoard, stop: StopFlag, heartbeat: Heartbeat?, _ display: (SignBoard, StopFlag) throws -> Void
  ) throws {
    var current = board
    defer {
      handover.withLock { $0.ended = true }
      // After a request being answered, never beside it.
      queue.sync { endRun() }
    }
    while !stop.isSet {
      let segment = StopFlag(following: stop)
      handover.withLock { state in
        state.segment = segment
        if state.wanted { segment.set() }
      }
      try display(current, segment)
      // Ended by itself (a frame limit) or by the program's stop, not for a finder: done.
      let lent = handover.withLock { state in
        state.lent = state.wanted && !stop.isSet
        return state.lent
      }
      guard lent else { return }
      while true {
        if stop.isSet { return }
        if let back = handover.withLock({ state -> SignBoard?? in
          defer { state.giveBack = nil }
          return state.giveBack
        }) {
          if let back { current = back }
          break
        }
        giveBackIfIdle()
        heartbeat?.resting()
        SignClock.kernelSleep(0.02)
      }
    }
  }

  // MARK: The API's side

  /// Answers on the desk's queue.
  public func perform(_ work: @escaping @Sendable (PanelFinderDesk) throws(SignRefusal) -> JSONValue, then: @escaping @Sendable (Result<JSONValue, SignRefusal>) -> Void) {
    queue.async { [self] in
      do throws(SignRefusal) {
        then(.success(try work(self)))
      } catch {
        then(.failure(error))
      }
    }
  }

  /// The panel's size and, while a finder runs, its question.
  public func current() -> JSONValue {
    run.withLock { run in
      var members: [(key: String, value: JSONValue)] = [("panel", .string("\(board.panelColumns)x\(board.panelRows)")), ("running", .bool(run != nil))]
      if let run { members += describe(run) }
      return .object(members)
    }
  }

  /// Starts a finder (a new one in place of one running), in Chinese or English: the
  /// display loop gives the panel up and the first picture lights.
  ///
  /// - Throws: ``SignRefusal`` when the loop does not give the panel up within 5 seconds,
  ///   or the panel cannot be driven.
  public func start(chinese: Bool) throws(SignRefusal) -> JSONValue {
    endRun()
    try borrow()
    let finder: HUB75PanelFinder
    do {
      // The panel's height is found too, the board's first: a board file may be wrong about it.
      finder = try HUB75PanelFinder(panelColumns: board.panelColumns, findingRowsFrom: board.panelRows, pins: board.pins)
    } catch {
      giveBack(nil)
      throw SignRefusal(.failed, "\(error)")
    }
    let words = PanelFinderWords(chinese: chinese)
    var made: Run?
    do {
      // An emulated panel is the board's own: its setting, chips and arrangement.
      let own = HUB75PanelFinder.Setting(rowAddress: truth.rowAddress, multiplexing: truth.multiplexing, panelRows: truth.panelRows)
      let real = try HUB75PanelFinder(panelColumns: truth.panelColumns, panelRows: truth.panelRows, pins: truth.pins, panelInit: truth.panelInit)
      let sign = try real.chainBoard(
        for: own, colorOrder: truth.colorOrder, chain: truth.chainLength, parallel: truth.parallel, pixelMapper: truth.pixelMapper)
      let panel = try FinderPanel(simulating: simulated ? real.board(for: own, colorOrder: truth.colorOrder) : nil, sign: simulated ? sign : nil)
      let dialogue = try PanelFinderDialogue(finder: finder, words: words, chain: board.chainLength, parallel: board.parallel)
      made = Run(dialogue: dialogue, panel: panel, touched: clock.monotonic())
      try show(&made!)
      let started = made!
      return run.withLock { run in
        run = started
        return .object([("panel", .string("\(board.panelColumns)x\(board.panelRows)")), ("running", .bool(true))] + describe(started))
      }
    } catch {
      // The panel as far as it got (a refresh loop started) dark, its pins given back.
      made?.panel.finish()
      giveBack(nil)
      throw SignRefusal(from: error)
    }
  }

  /// Takes an answer (a choice's `answer`, or the numbers seen, space-separated; `0` for
  /// none): the next question, or the end: the board file written and the sign running
  /// with it, or the reason it ended without.
  ///
  /// - Throws: ``SignRefusal`` when no finder runs (404), the answer is none of the
  ///   question's (400, with what to answer), or the board file cannot be written (500; the
  ///   finder still waits for the answer).
  public func answer(_ text: String) throws(SignRefusal) -> JSONValue {
    guard var current = run.withLock({ $0 }) else {
      throw SignRefusal(.notFound, "no panel finder is running: POST /api/panel-finder starts one")
    }
    let words = current.dialogue.words
    do {
      guard try current.dialogue.answer(text) else {
        throw SignRefusal(field: "answer", current.dialogue.question?.retry ?? "")
      }
    } catch let refusal as SignRefusal {
      throw refusal
    } catch {
      // The answers fit nothing, or "Hello" did not read right: the sign's own board again.
      endRun()
      giveBack(nil)
      let message = (error as? SignFailure)?.message ?? "\(error)"
      let said = message == words.notRight ? words.notRightServed : message
      return .object([("running", .bool(false)), ("found", .bool(false)), ("said", .string(said))])
    }
    current.touched = clock.monotonic()
    guard let result = current.dialogue.result else {
      do {
        try show(&current)
      } catch {
        // A refresh loop the failed look started goes too, with the run's.
        current.panel.finish()
        endRun()
        giveBack(nil)
        throw SignRefusal(from: error)
      }
      return run.withLock { run in
        run = current
        return .object([("running", .bool(true))] + describe(current))
      }
    }
    // Confirmed: the board file with the settings found, on disk before the answer.
    let text: String
    do {
      text = try FoundBoardFile.edited(TextFile.read(boardFile), path: boardFile, found: result)
    } catch {
      throw SignRefusal(.failed, "\(error)")
    }
    let found = words.found(result, answers: current.dialogue.answersGiven)
    guard writable else {
      endRun()
      giveBack(nil)
      return .object([
        ("running", .bool(false)), ("found", .bool(true)), ("saved", .bool(false)), ("said", .string(found + " " + words.notSaved(board.name))),
        ("board", .string(text)),
      ])
    }
    do {
      try DurableFile.write(Array(text.utf8), to: boardFile, what: "the board file")
    } catch {
      throw SignRefusal(.notSaved, "the board file was not written: \(error)")
    }
    endRun()
    // The file as the sign reads it at startup. An arrangement that changes the sign's size
    // takes a restart: the sign's zones and frames are made for the size it started with.
    let next: SignBoard
    do {
      next = try load(boardFile)
    } catch {
      giveBack(nil)
      return .object([
        ("running", .bool(false)), ("found", .bool(true)), ("saved", .bool(true)), ("applied", .bool(false)),
        ("said", .string(found + " " + words.savedNotRead(boardFile, "\(error)"))), ("board", .string(text)),
      ])
    }
    guard next.width == board.width, next.height == board.height else {
      giveBack(nil)
      return .object([
        ("running", .bool(false)), ("found", .bool(true)), ("saved", .bool(true)), ("applied", .bool(false)),
        ("said", .string(found + " " + words.savedNewSize(boardFile, from: "\(board.width)x\(board.height)", to: "\(next.width)x\(next.height)"))),
        ("board", .string(text)),
      ])
    }
    giveBack(next)
    return .object([
      ("running", .bool(false)), ("found", .bool(true)), ("saved", .bool(true)), ("applied", .bool(true)),
      ("said", .string(found + " " + words.saved(boardFile))), ("board", .string(text)),
    ])
  }

  /// Ends a finder without a result: the sign's own board again.
  public func cancel() -> JSONValue {
    let running = run.withLock { $0 != nil }
    if running {
      endRun()
      giveBack(nil)
    }
    return .object([("running", .bool(false))])
  }

  // MARK: Between the two

  /// Stops the display loop's run and waits, at most 5 seconds, until it has let the panel go.
  func borrow() throws(SignRefusal) {
    let asked = handover.withLock { state -> Bool in
      guard !state.ended else { return false }
      state.wanted = true
      state.segment?.set()
      return true
    }
    guard asked else { throw SignRefusal(.failed, "the sign is stopping") }
    let deadline = SystemClock.monotonicSeconds() + 5
    while !handover.withLock({ $0.lent }) {
      if SystemClock.monotonicSeconds() > deadline || handover.withLock({ $0.ended }) {
        giveBack(nil)
        throw SignRefusal(.failed, "the display loop did not give the panel up within 5 seconds")
      }
      SignClock.kernelSleep(0.01)
    }
  }

  /// Hands the panel back to the display loop, to run `board` (or its own).
  func giveBack(_ board: SignBoard?) {
    handover.withLock { state in
      guard state.wanted else { return }
      state.wanted = false
      state.lent = false
      state.giveBack = .some(board)
    }
  }

  /// The finder's panel dark and its pins given back, the run forgotten.
  func endRun() {
    run.withLock { run in
      run?.panel.finish()
      run = nil
    }
  }

  /// A finder left unanswered too long ends, and the display loop takes the panel back (on
  /// the desk's queue, so never while an answer is being taken).
  func giveBackIfIdle() {
    guard isIdle else { return }
    queue.async { [self] in
      guard isIdle else { return }
      endRun()
      giveBack(nil)
    }
  }

  /// A finder runs and has waited for an answer longer than ``idleSeconds``.
  var isIdle: Bool { run.withLock { run in run.map { clock.monotonic() - $0.touched > idleSeconds } ?? false } }

  /// Lights the dialogue's picture.
  func show(_ current: inout Run) throws {
    guard let lit = current.dialogue.lit else { return }
    current.drawing = try current.panel.show(lit.program, on: lit.board)
  }

  /// The question as the API gives it.
  func describe(_ run: Run) -> [(key: String, value: JSONValue)] {
    guard let question = run.dialogue.question else { return [] }
    let look = run.dialogue.words.lookAt(chain: board.chainLength * board.parallel)
    var members: [(key: String, value: JSONValue)] = [
      ("step", .number(Double(question.step))), ("question", .string(question.text)),
      ("choices", .array(question.choices.map { .object([("answer", .string($0.answer)), ("label", .string($0.label))]) })),
      ("pick", .number(Double(question.pick))), ("typed", .bool(question.typed)),
    ]
    if !look.isEmpty { members.append(("look", .string(look))) }
    if let drawing = run.drawing { members.append(("drawing", .array(drawing.split(separator: "\n").map { .string(String($0)) }))) }
    return members
  }
}

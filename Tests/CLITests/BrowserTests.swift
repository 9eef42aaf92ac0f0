import Drivers
import Foundation
import SignService
import Synchronization
import Platform
import TestSupport
import Testing

/// The page of `marquee serve` in a real browser: headless Chromium driven by selenium
/// (Tests/Browser/page_check.py) sees the canvas match /api/frame, types a message in the
/// form, and sees the sign's frame change to it.
///
/// One test at a time, in one browser started for the suite (``PageChecker``): Chromium is
/// the suite's heaviest user of the cores, and the chain runs beside the other tests without
/// a slot.
@Suite(.offThePool, .serialized, PageChecker.forSuite) struct BrowserTests {
  /// A Python with selenium: `$MARQUEE_BROWSER_PYTHON`, or the venv `.ci/run` makes.
  static let python = PythonTools.python(
    [ProcessInfo.processInfo.environment["MARQUEE_BROWSER_PYTHON"], ".build/venv-browser/bin/python"], importing: "selenium")

  static let available = python != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")

  /// Runs page_check.py with `arguments` (`{url}` is the served sign's address) and expects
  /// it to say the page is right; stops the sign.
  func check(_ sign: ServedSign, _ arguments: [String]) throws {
    let url = "http://127.0.0.1:\(sign.client.port)"
    let checker = try #require(PageChecker.current, "the suite's page checker")
    let result = checker.check(arguments.map { $0 == "{url}" ? url : $0 })
    #expect(result.status == 0 && result.output.hasPrefix("page ok"), "\(result.output)")
    _ = sign.stop()
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func thePageShowsTheSignAndItsFormChangesIt() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "64", "Welcome"])
    let expected = NSTemporaryDirectory() + "marquee-browser-\(getpid()).txt"
    defer { try? FileManager.default.removeItem(atPath: expected) }
    try BinaryRunner.run(["--output", "ascii", "--width", "64", "--frames", "1", "Open 9-18"]).stdout
      .write(toFile: expected, atomically: true, encoding: .utf8)
    try check(sign, ["{url}", "Open 9-18", expected])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func thePageAsksForTheTokenOnceAndOffersAButton() throws {
    let folder = NSTemporaryDirectory() + "marquee-browser-token-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let sign = try ServedSign(["--token-file", folder + "/token", "--output", "ascii", "--width", "32", "Shut"])
    let token = try String(contentsOfFile: folder + "/token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    try check(sign, ["--token", "{url}", token])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func thePageListsTheProgramsMarksTheOnePlayingAndEditsThem() throws {
    let config = NSTemporaryDirectory() + "marquee-browser-programs-\(getpid()).json"
    try #"""
      {"width": 32, "messages": ["x"],
       "programs": [{"name": "always", "times": ["00:00-24:00"], "messages": ["On"]},
                    {"name": "never", "dates": "2001-01-01/2001-01-01", "messages": ["Off"]}]}
      """#.write(toFile: config, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: config) }
    let sign = try ServedSign(["--config", config, "--output", "ascii"])
    try check(sign, ["--programs", "{url}", "always", "never"])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func thePageSendsAndDismissesANotification() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "Open"])
    try check(sign, ["--notify", "{url}"])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func thePageSpeaksChineseAndEnglish() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "Open"])
    try check(sign, ["--language", "{url}"])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func aDraftIsPreviewedBeforeItGoesLive() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "Live"])
    try check(sign, ["--preview", "{url}"])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func thePanelTurnsTheSignOffAndOnAndShowsItsStatus() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "Lit"])
    let version = try BinaryRunner.run(["--version"]).stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
    try check(sign, ["--panel", "{url}", version])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func theWeekTableIsWhatMarqueeSchedulePrints() throws {
    let config = NSTemporaryDirectory() + "marquee-browser-week-\(getpid()).json"
    let printed = NSTemporaryDirectory() + "marquee-browser-week-\(getpid()).txt"
    try #"""
      {"width": 32, "messages": ["x"],
       "programs": [{"name": "weekday", "days": ["mon", "tue", "wed", "thu", "fri"], "times": ["09:00-18:00"], "messages": ["Open"]},
                    {"name": "closed", "default": true, "messages": ["Closed"]}],
       "brightness": [{"at": "07:00", "level": 12}, {"at": "20:00", "level": 3}],
       "off": [{"times": ["01:00-06:00"]}]}
      """#.write(toFile: config, atomically: true, encoding: .utf8)
    defer { for file in [config, printed] { try? FileManager.default.removeItem(atPath: file) } }
    // Today's date, as the sign reads it: the schedule from the same day.
    try BinaryRunner.run(["schedule", "--config", config, "--days", "7"]).stdout.write(toFile: printed, atomically: true, encoding: .utf8)
    let sign = try ServedSign(["--config", config, "--output", "ascii"])
    try check(sign, ["--week", "{url}", printed])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func theIconPickerInsertsAnIconTheSignDraws() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "64", "--height", "16", "Hi"])
    try check(sign, ["--icons", "{url}"])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func theDataSourcesAreShownUnderSettings() throws {
    let server = try #require(ScriptedHTTPServer { request in
      request.path == "/w.json" ? .status(200, #"{"t": 3.25}"#) : .status(404)
    })
    defer { server.stop() }
    let config = NSTemporaryDirectory() + "marquee-browser-sources-\(getpid()).json"
    try """
      {"width": 32, "messages": ["Out {source:weather}"],
       "sources": [{"name": "weather", "url": "\(server.url("/w.json"))", "json": "t", "format": "{0:.1f}°C"},
                   {"name": "gone", "url": "\(server.url("/gone.json"))", "json": "t"}]}
      """.write(toFile: config, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: config) }
    let sign = try ServedSign(["--config", config, "--output", "ascii"])
    try check(sign, ["--sources", "{url}"])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func thePanelFinderRunsFromThePage() throws {
    let folder = NSTemporaryDirectory() + "marquee-browser-finder-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/board.json"
    // Two panels, the second above the first and upside down, which the board file does not say yet.
    let mapper = "Remap:32,32|0,16n|0,0s"
    try #"{"schema": 1, "name": "window", "driver": "hub75", "panel": {"columns": 32, "rows": 16}, "grid": {"columns": 2}, "rowAddress": "direct", "pixelMapper": "\#(mapper)"}"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    let sign = try ServedSign(["--board", file, "--simulate", "--output", "ascii", "Hi"])
    // What a person answers, looking at such panels, question by question (the sign's
    // finder finds the height too, the board's first).
    let finder = try HUB75PanelFinder(panelColumns: 32, findingRowsFrom: 16)
    let setting = HUB75PanelFinder.Setting(rowAddress: .direct, multiplexing: .direct, panelRows: 16)
    let (panel, sign2) = (finder.board(for: setting), try finder.chainBoard(for: setting, colorOrder: .rgb, chain: 2, parallel: 1, pixelMapper: HUB75PixelMapper(parsing: mapper)))
    var dialogue = try PanelFinderDialogue(finder: finder, words: PanelFinderWords(chinese: false), chain: 2)
    var answers: [String] = []
    while let question = dialogue.question, let lit = dialogue.lit {
      let truth = lit.board.chainLength > 1 ? sign2 : panel
      let drawing = FinderPanel.drawing(HUB75PanelFinder.run(lit.program, on: truth)).split(separator: "\n").map(String.init)
      answers.append(
        PanelEye.reply(step: question.step, question: question.text, choices: question.choices.count, asksText: question.typed, drawing: drawing, finder: finder))
      _ = try dialogue.answer(answers.last!)
    }
    #expect(answers.contains("2v / 1"), "\(answers)")
    try check(sign, ["--finder", "{url}", file, answers.joined(separator: ";"), mapper])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func nightAndOffHoursAreSetFromThePage() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "Open"])
    try check(sign, ["--night", "{url}"])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func zonesAreDrawnAndATapSelectsOne() throws {
    let layout = NSTemporaryDirectory() + "marquee-browser-zones-\(getpid()).json"
    try #"""
      {"zones": [{"name": "left", "x": 0, "y": 0, "width": 32, "height": 8, "messages": ["L"]},
                 {"name": "right", "x": 32, "y": 0, "width": 32, "height": 8, "messages": ["R"]}]}
      """#.write(toFile: layout, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: layout) }
    let sign = try ServedSign(["--layout", layout, "--width", "64", "--output", "ascii"])
    try check(sign, ["--zones", "{url}"])
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func whatWasTypedStaysThroughAChangeAndALostConnection() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "Live"])
    try check(sign, ["--draft", "{url}", "\(sign.child.pid)"])
  }

  /// The page as a phone app: six sections as tabs with their own addresses, at 320, 390,
  /// 430 and 1280 px in Chinese and English, none sliding sideways, nothing to tap under
  /// 44x44 px, and the status card's sentence saying what plays in each.
  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func thePageIsAPhoneAppAtEveryWidthInBothLanguages() throws {
    let config = NSTemporaryDirectory() + "marquee-browser-phone-\(getpid()).json"
    try #"""
      {"width": 64, "messages": ["x"],
       "programs": [{"name": "always", "times": ["00:00-24:00"], "messages": ["Open"]},
                    {"name": "never", "dates": "2001-01-01/2001-01-01", "messages": ["Off"]}]}
      """#.write(toFile: config, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: config) }
    let sign = try ServedSign(["--config", config, "--output", "ascii"])
    try check(sign, ["--phone", "{url}", "正在播放「always」", "Playing “always”"])
  }

  /// Whether the browser's Python has axe-core (PyPI axe-selenium-python).
  static let hasAxe = available && PythonTools.python([python], importing: "axe_selenium_python") != nil

  @Test(.enabled(if: hasAxe, "needs axe-selenium-python from PyPI in .build/venv-browser (.ci/run installs it)"))
  func axeCoreFindsNoViolationInAnySection() throws {
    // The example with programs, a brightness schedule and off hours: every section filled.
    let sign = try ServedSign(["--config", "Docs/examples/programs.json", "--output", "ascii"])
    try check(sign, ["--accessibility", "{url}"])
  }

  /// The owner's ten tasks in a row on one sign (page_check.py `walk_check`): publish with a
  /// preview, the mistakes, off hours and sunset dimming, the power, a weekend program, an
  /// icon, a notification and its dismissal, a restart; at each phone width and on a
  /// desktop, in Chinese and in English.
  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func theOwnersTenTasksAtEveryWidth() throws {
    let checker = try #require(PageChecker.current, "the suite's page checker")
    let walks = ["zh-CN", "en-US"].flatMap { language in [320, 390, 430, 1280].map { (width: $0, language: language) } }
    for (width, language) in walks {
      let folder = NSTemporaryDirectory() + "marquee-browser-walk-\(getpid())-\(width)-\(language)"
      try FileManager.default.createDirectory(atPath: folder + "/icons", withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      try #"{"width": 64, "messages": ["Welcome 欢迎"]}"#.write(toFile: folder + "/sign.json", atomically: true, encoding: .utf8)
      let picture = folder + "/door.pbm"
      try "P1\n8 8\n11111111\n10000001\n10000001\n10011001\n10011001\n10000001\n10000001\n11111111\n".write(toFile: picture, atomically: true, encoding: .utf8)
      let result = checker.check(["--walk", BinaryRunner.path, folder, language, String(width), picture])
      #expect(result.status == 0 && result.output.hasPrefix("page ok"), "\(width) px, \(language): \(result.output)")
    }
  }

  @Test(.enabled(if: available, "needs Debian's chromium and chromium-driver, and selenium from PyPI in .build/venv-browser (.ci/run installs them)"))
  func anIconIsAddedFromThePage() throws {
    let folder = NSTemporaryDirectory() + "marquee-browser-upload-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder + "/icons", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let picture = folder + "/door.pbm"
    try "P1\n8 8\n11111111\n10000001\n10000001\n10011001\n10011001\n10000001\n10000001\n11111111\n".write(toFile: picture, atomically: true, encoding: .utf8)
    let sign = try ServedSign(["--token-file", folder + "/token", "--icons", folder + "/icons", "--output", "ascii", "--width", "32", "Up"])
    let token = try String(contentsOfFile: folder + "/token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    try check(sign, ["--upload", "{url}", token, picture])
    #expect(FileManager.default.fileExists(atPath: folder + "/icons/门铃.pbm"))
  }
}

/// One `page_check.py --serve` for a suite: its checks share one Chromium, started once.
final class PageChecker: Sendable {
  /// The checker of the suite the test runs in.
  @TaskLocal static var current: PageChecker?

  /// Starts a checker before the suite's tests and ends it after them.
  struct Scope: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
      guard test.isSuite, BrowserTests.available else { return try await function() }
      let checker = try PageChecker()
      defer { checker.end() }
      try await PageChecker.$current.withValue(checker) { try await function() }
    }
  }

  static var forSuite: Scope { Scope() }

  let child: TestSupport.ChildProcess
  /// How many answers have been read.
  let answered = Mutex(0)

  init() throws {
    child = try TestSupport.ChildProcess(BrowserTests.python!, ["Tests/Browser/page_check.py", "--serve"], input: true)
  }

  /// Runs one check (page_check.py's arguments) and returns its status and what it said.
  func check(_ arguments: [String]) -> (status: Int, output: String) {
    answered.withLock { count in
      let line = (try? JSONSerialization.data(withJSONObject: arguments)) ?? Data("[]".utf8)
      child.write(line + Data("\n".utf8))
      var answer: [String: Any]?
      let found = child.waitForOutput(timeout: 180) { output in
        let lines = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count > count + 1 else { return false }
        answer = (try? JSONSerialization.jsonObject(with: Data(lines[count]))) as? [String: Any]
        return true
      }
      count += 1
      guard found, let answer else { return (2, "no answer within 3 minutes: \(child.errorSoFar)") }
      return ((answer["status"] as? Int) ?? 2, (answer["output"] as? String) ?? "")
    }
  }

  /// Closes the checker's input, so it ends its browser and exits.
  func end() {
    child.closeInput()
    _ = child.wait(timeout: 60)
  }
}

import Foundation
import TestSupport
import Testing

/// The shell commands the README and Docs show, run as written (with the built binary as
/// `marquee` and `swift run marquee`): each either finishes with status 0 or, if it drives
/// a sign until stopped, draws frames and ends cleanly on SIGTERM.
/// README.md, README.zh-CN.md and Docs/*.md, with their text, in a fixed order.
func markdownDocuments() -> [(file: String, text: String)] {
  let docs = ["README.md", "README.zh-CN.md"] + ((try? FileManager.default.contentsOfDirectory(atPath: "Docs")) ?? [])
    .filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
  return docs.compactMap { file in (try? String(contentsOfFile: file, encoding: .utf8)).map { (file, $0) } }
}

@Suite(.offThePool) struct DocCommandTests {
  /// A command found in a ```sh block: where it is and what it says.
  struct DocCommand: CustomStringConvertible, Sendable {
    var file: String
    var line: Int
    var text: String
    var description: String { "\(file):\(line): \(text)" }
  }

  /// Every line of an `sh` block in the READMEs and Docs/*.md that runs marquee, comments cut.
  static func commands() -> [DocCommand] {
    var found: [DocCommand] = []
    for (file, text) in markdownDocuments() {
      var inShell = false
      for (index, line) in text.components(separatedBy: "\n").enumerated() {
        if line.hasPrefix("```") {
          inShell = !inShell && (line == "```sh" || line == "```bash")
          continue
        }
        guard inShell else { continue }
        // A comment starts after two spaces or more.
        let command = (line.range(of: #"\s{2,}#.*$"#, options: .regularExpression).map { String(line[..<$0.lowerBound]) } ?? line)
          .trimmingCharacters(in: .whitespaces)
        if command.range(of: #"(^|\|\s*)(swift run )?marquee\b"#, options: .regularExpression) != nil {
          found.append(DocCommand(file: file, line: index + 1, text: command))
        }
      }
    }
    return found
  }

  /// Commands that show a pattern with files or hosts of the reader's own, not runnable here.
  static let illustrative: [String: String] = [
    "tail -f /var/log/till.log | marquee --stdin --width 64": "the reader's own log file",
    "marquee --layout clock-and-ticker.json": "a layout the reader writes (the runnable ones are in Docs/examples)",
    "marquee --font ./myfont.bdf \"Custom\"": "the reader's own font file",
    "marquee serve --listen 0.0.0.0:8080 --token-file /etc/marquee/token --config /etc/marquee/sign.json":
      "the reader's own token and config under /etc (ServeTests runs serve with tokens and configs of its own)",
    "mosquitto_sub -h broker.local -t signs/lobby | marquee --stdin --on-eof exit --board /usr/local/share/marquee/Boards/max7219-fc16-64x8.json":
      "the reader's broker and installed board (FeedBinaryTests runs the same pipeline on a local broker)",
    "marquee serve --mqtt mqtt://broker.local --mqtt-topic signs/shop --config /etc/marquee/sign.json":
      "the reader's broker and config (MQTTServeTests runs serve --mqtt on a local broker)",
    "marquee serve --mqtt mqtt://sign:secret@broker.local:1883 --ha-discovery …": "the reader's broker and password",
    "marquee serve --mqtt mqtt://broker.local --mqtt-topic signs/lobby --mqtt-group signs/all \"Welcome\"":
      "the reader's broker (FleetTests runs signs in a group on a local broker)",
    "marquee notify mqtt://broker.local --topic signs/all --duration 60 \"Closing in 10 minutes\"":
      "the reader's broker (FleetTests publishes the same to a local one)",
    "marquee serve --mqtt mqtt://127.0.0.1 --mqtt-topic signs/shop …": "a bridging mosquitto of the reader's own",
    "marquee notify http://127.0.0.1:8080 --duration 5 --in fade \"Order 42 ready\"":
      "a sign the reader runs (NotifyTests sends the same to a served sign)",
    "marquee notify http://sign.local:8080 --oauth2-bearer \"$TOKEN\" --priority 5 --zone main \"Train cancelled\"":
      "the reader's sign and token (NotifyTests checks --oauth2-bearer against a served sign)",
    "marquee notify http://127.0.0.1:8080 --dismiss": "a sign the reader runs (NotifyTests dismisses on a served sign)",
  ]

  /// Fonts some commands need, and the Debian package that has each.
  static let fontPackages: [(font: String, path: String, package: String)] = [
    ("unifont", "/usr/share/unifont/unifont.hex", "unifont"),
    ("wenquanyi_12pt", "/usr/share/fonts/X11/misc/wenquanyi_12pt.pcf", "xfonts-wqy"),
    ("Lat15-Terminus16", "/usr/share/consolefonts/Lat15-Terminus16.psf.gz", "console-setup-linux"),
  ]

  @Test func theDocsShowCommandsToCheck() {
    let commands = DocCommandTests.commands().map(\.text)
    #expect(commands.count >= 25)
    // Every command set aside is still in the docs, so the list cannot go stale.
    #expect(Set(DocCommandTests.illustrative.keys).isSubset(of: commands))
  }

  /// The commands that need a font from a Debian package, and those that do not; the
  /// illustrative ones are listed with their reason, so setting one aside is a decision.
  static func runnable(needingFonts: Bool) -> [DocCommand] {
    commands().filter { command in
      illustrative[command.text] == nil
        && fontPackages.contains { command.text.contains($0.font) } == needingFonts
    }
  }

  static let fontsInstalled = fontPackages.allSatisfy { FileManager.default.fileExists(atPath: $0.path) }

  @Test(arguments: runnable(needingFonts: false))
  func runsAsWritten(_ command: DocCommand) throws {
    try run(command)
  }

  @Test(.enabled(if: fontsInstalled, "needs the Debian packages unifont, xfonts-wqy and console-setup-linux"),
        arguments: runnable(needingFonts: true))
  func runsAsWrittenWithItsFont(_ command: DocCommand) throws {
    try run(command)
  }

  func run(_ command: DocCommand) throws {
    // Relative paths as in the repository, files written to a folder of the test's own.
    let place = command.file.replacingOccurrences(of: "/", with: "-") + "-\(command.line)"
    let folder = NSTemporaryDirectory() + "marquee-doc-\(getpid())-\(place)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let root = FileManager.default.currentDirectoryPath
    for entry in ["Boards", "Docs"] {
      try FileManager.default.createSymbolicLink(atPath: folder + "/" + entry, withDestinationPath: root + "/" + entry)
    }
    let binaries = URL(fileURLWithPath: BinaryRunner.path).deletingLastPathComponent().path
    // Files the docs write under /tmp (`marquee gallery /tmp/gallery`) go to the folder too,
    // which is removed afterwards: the suite leaves nothing behind.
    var script = command.text.replacingOccurrences(of: "swift run marquee", with: "marquee")
      .replacingOccurrences(of: " /tmp/", with: " \(folder)/")
    // A server on a free port, so two doc commands running at once never collide on 8080.
    if script.contains("marquee serve") && !script.contains("--listen") {
      script = script.replacingOccurrences(of: "marquee serve", with: "marquee serve --listen 127.0.0.1:0")
    }
    let path = binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let child = try ChildProcess("/bin/bash", ["-c", "cd '\(folder)' && " + script], environment: ["PATH": path])
    let endsByItself = ["--frames", "--gif", "gallery", "effects", "fonts", "--help", "--spi-dump", "--i2c-dump", "schedule", "marquee icons", "marquee boards", "marquee sources"]
      .contains { script.contains($0) }
    if script.contains("marquee doctor") {
      // It says what this machine has in the way of a panel: 0 on a tuned Pi, 1 elsewhere.
      let result = child.wait(timeout: 60)
      #expect(!result.timedOut && (result.status == 0 || result.status == 1) && result.stdout.contains("machine: "), "\(command): \(result)")
      return
    }
    if script.contains("marquee find-panel") {
      // It asks a person: off a Pi it says so before the first question; on one it asks,
      // reads the end of its input (/dev/null here) and stops, writing nothing.
      let result = child.wait(timeout: 60)
      #expect(!result.timedOut && result.status == 1, "\(command): \(result)")
      #expect(result.stderr.contains("not a Raspberry Pi") || result.stderr.contains("standard input ended before the panel was found"), "\(command): \(result.stderr)")
      return
    }
    let drivesRealSign = script.contains("--board") && !["--simulate", "--spi-dump", "--i2c-dump"].contains { script.contains($0) }
    let device = script.contains("ht16k33") ? "/dev/i2c-1" : "/dev/spidev0.0"
    if drivesRealSign && !FileManager.default.fileExists(atPath: device) {
      // No such bus on this machine: a clear runtime error, not a crash or a hang.
      let result = child.wait(timeout: 60)
      #expect(result.status == 1 && result.stderr.contains(device), "\(command): \(result.stderr)")
      return
    }
    if endsByItself {
      let result = child.wait(timeout: 120)
      #expect(!result.timedOut && !result.signalled && result.status == 0, "\(command): \(result.stderr)")
      return
    }
    // A sign that runs until stopped: once it draws, it must still be running a second later
    // (a command that cannot start ends at once; one that fails on its first frames, within
    // the second).
    let deadline = Date().addingTimeInterval(60)
    while child.outputSoFar.isEmpty && !child.ends(within: 0.02) && Date() < deadline {}
    #expect(!child.ends(within: 1), "\(command) ended early: \(child.wait(timeout: 1).stderr)")
    // The commands the shell runs are stopped, as Ctrl-C or systemd would; the shell then
    // reports marquee's status.
    child.sendToCommands(SIGTERM)
    let result = child.wait(timeout: 20)
    #expect(!result.timedOut, "\(command) did not stop on SIGTERM")
    #expect(result.status == 128 + SIGTERM && !result.signalled, "\(command): status \(result.status), \(result.stderr)")
    #expect(!result.stdout.isEmpty, "\(command) drew nothing")
    // Only 'serve' says something on a good run: where it listens.
    let said = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("Serving the sign at http://") }
    #expect(said.isEmpty, "\(command): \(result.stderr)")
  }
}

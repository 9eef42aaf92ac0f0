import Platform
import BitmapFonts
import Drivers
import Marquee
import MatrixCore
import SignService

/// The `marquee` command: parses arguments, builds the timeline and plays it on a display.
public enum MarqueeCommand {
  /// Runs the command with `arguments` (without the program name) and returns the exit code.
  ///
  /// Usage errors print `Error: …`, the usage line and a pointer to `--help` on standard
  /// error and return 64; runtime errors print `Error: …` and return 1; a stopping signal
  /// returns 128 + its number after the sign is blanked and the terminal restored.
  public nonisolated static func main(_ arguments: [String]) -> Int32 {
    // Descriptors 0-2 first: nothing opened after (the signal handler's pipe included) may
    // take the number of a closed standard stream.
    StandardDescriptors.secure()
    let stop = StopFlag()
    // Under 'serve' with a config file, SIGHUP reloads it (the service-manager convention).
    let reloads = arguments.first == "serve" && ConfigFile.path(in: arguments) != nil
    _ = SignalTrap(stop: stop, signals: reloads ? [StopSignal.interrupt, StopSignal.terminate] : SignalTrap.stoppingSignals)
    if reloads { HangupSignal.install() }
    do {
      // A config file's options first; the command line's override them.
      let base = try ConfigFile.path(in: arguments).map(ConfigFile.load) ?? (options: RunOptions(), given: [])
      switch try CommandLineParser.parse(arguments, base: base.options, baseGiven: base.given) {
      case .help:
        try printOutput(HelpText.full)
        return ExitCode.success
      case .version:
        try printOutput(HelpText.version + "\n")
        return ExitCode.success
      case .effects:
        try printOutput(effectList())
        return ExitCode.success
      case .boards:
        try printOutput(BoardFiles.listing())
        return ExitCode.success
      case .checkBoard(let path):
        try printOutput(try BoardFiles.check(path))
        return ExitCode.success
      case .icons(let folder, let name):
        try printOutput(try IconListing.text(folder: folder, name: name))
        return ExitCode.success
      case .fonts(let pattern):
        try FontListing.write(matching: pattern) { try printOutput($0 + "\n") }
        return ExitCode.success
      case .gallery(let folder):
        try Recording.gallery(into: folder)
        return ExitCode.success
      case .schedule(let options, let from, let days):
        try printOutput(ScheduleListing.text(options.schedule!, from: from ?? LocalTime.date(at: LocalTime.now()).date, days: days))
        return ExitCode.success
      case .notify(let command):
        try printOutput(try command.run())
        return ExitCode.success
      case .fleet(let command):
        try command.run(stop: stop) { try printOutput($0) }
      case .doctor(let board, let seconds, let json):
        let doctor = Doctor(board: try board.map { try BoardFiles.load(try BoardFiles.resolve($0)) })
        let findings = doctor.findings(refreshSeconds: seconds)
        try printOutput(json ? Doctor.json(findings) : Doctor.text(findings))
        return findings.contains { $0.verdict == .problem } ? ExitCode.failure : ExitCode.success
      case .findPanel(let command):
        try command.run(stop: stop)
      case .sources(let path, let json):
        let results = SourceCheck.run(try ConfigFile.load(path).options.sources)
        try printOutput(json ? SourceCheck.json(results) : SourceCheck.text(results))
        return results.contains { $0.error != nil } ? ExitCode.failure : ExitCode.success
      case .run(let options) where options.serve:
        try Serve.run(options, arguments: arguments, stop: stop)
      case .run(let options):
        try run(options, stop: stop)
      }
    } catch let error as UsageError {
      printError(TerminalMessages.usageError(error.message))
      return ExitCode.usage
    } catch let refusal as SignRefusal where refusal.kind != .failed {
      // What the person gave was refused: a mistake in the command line's input.
      printError(TerminalMessages.usageError(refusal.description))
      return ExitCode.usage
    } catch where StopSignal.pending != 0 {
      // A stop signal interrupted a blocking call (opening a FIFO, writing to a stalled
      // pipe): that is the stop asked for, not an error to report.
      return 128 + StopSignal.pending
    } catch let error as OutputError where error.isBrokenPipe {
      // The reader went away (`marquee ... | head`): nothing is wrong with the sign.
      return StopSignal.pending == 0 ? ExitCode.success : 128 + StopSignal.pending
    } catch {
      printError(TerminalMessages.runtimeError("\(error)"))
      return ExitCode.failure
    }
    return StopSignal.pending == 0 ? ExitCode.success : 128 + StopSignal.pending
  }

  /// One line per effect: the name, then what it does.
  static func effectList() -> String {
    EffectCatalog.all.map { effect in
      effect.name.padding(to: 20) + effect.summary + "\n"
    }.joined()
  }

  /// Builds what the player draws: the sign's session (the same one `marquee serve` runs),
  /// fed from standard input with `--stdin` (each line a command to the session); with
  /// `--loops`, sets the frame count that plays exactly that many loops.
  static func makeTimeline(_ options: inout RunOptions, stop: StopFlag, tap: inout SignLights?) throws -> any Timeline {
    // The command line prints what the sign reports, one line each, on standard error.
    let session = try SignSession(options, stop: stop, reports: .standardError(), fontAccess: .any)
    options = session.options
    // Programs, brightness and off periods change the sign from a thread of their own, and
    // it follows wall-clock jumps for texts that show the time; the frame loop applies what
    // it says (through the feed and the tap) and never reads the wall clock. Live data
    // sources are fetched from a thread of their own too.
    if options.schedule != nil || session.showsTime || !options.sources.isEmpty {
      tap = session.lights
      session.start()
    }
    if options.stdin {
      LineFeed.start(session)
      // With nothing to show yet, the sign starts with the first line.
      if options.zone.messages.isEmpty && !options.hasZones { session.feed.waitForFirstLine() }
    }
    // A sign nothing changes draws straight from its controller.
    return options.stdin || tap != nil ? session.timeline : session.controller
  }

  /// Builds the sign from `options` and plays it until the frame limit or a signal.
  static func run(_ options: RunOptions, stop: StopFlag) throws {
    var options = options
    let board = try resolveBoard(&options)
    if options.stdin && StandardDescriptors.closed.contains(0) {
      throw SignFailure("standard input is closed, and '--stdin' reads from it")
    }
    var tap: SignLights?
    let timeline: any Timeline =
      if options.identify, let board { IdentifyTimeline(board: board) } else { try makeTimeline(&options, stop: stop, tap: &tap) }
    if let gif = options.gifPath {
      try Recording.recordGIF(timeline, options: options, path: gif)
      return
    }
    if let pbm = options.pbmPath {
      try Recording.writePBM(timeline, path: pbm)
      return
    }
    try present(timeline, board: board, options: options, stop: stop, tap: tap)
  }

  /// The board `--board` names, checked against the other options; the sign takes its size.
  static func resolveBoard(_ options: inout RunOptions) throws -> SignBoard? {
    guard let value = options.boardPath else { return nil }
    let loaded = try BoardFiles.load(try BoardFiles.resolve(value))
    if options.sizeGiven && (options.width != loaded.width || options.height != loaded.height) {
      throw UsageError(
        "--width/--height (\(options.width)x\(options.height)) do not match the board's \(loaded.width)x\(loaded.height); leave them out with --board.")
    }
    let dumpGiven = options.dumps.first?.bus
    if let dumpGiven, dumpGiven != loaded.family.dataBus {
      let bus = loaded.family.dataBus
      throw UsageError(
        "'\(loaded.name)' is \(bus.wiring): write its bytes with '\(bus.dumpOption) <file>', not '\(dumpGiven.dumpOption)'.")
    }
    options.width = loaded.width
    options.height = loaded.height
    return try options.intensity.map { intensity in
      do { return try loaded.with(intensity: intensity) } catch { throw UsageError("'--intensity': \(error)") }
    } ?? loaded
  }

  /// Plays `timeline` on the sign the options choose: the board's hardware (or its dump),
  /// or the terminal, until the frame limit or a signal. With `tap`, every frame is shared
  /// with the HTTP server too.
  static func present(_ timeline: any Timeline, board: SignBoard?, options: RunOptions, stop: StopFlag, tap: SignLights? = nil) throws {
    if let board, !options.simulate {
      // The real sign, or its byte stream in a file.
      try BoardDisplays.play(timeline, on: board, options: options, stop: stop, tap: tap)
      return
    }
    if StandardDescriptors.closed.contains(1) {
      throw SignFailure("standard output is closed, so the frames have nowhere to go (use --board, --gif or --pbm, or give marquee an output)")
    }
    var output = options.output ?? (Terminal.isTerminal(1) ? .leds : .ascii)
    // A dumb terminal or a non-UTF-8 locale gets plain '#'/'.' frames, no escape sequences.
    if output == .leds && !Terminal.drawsTheSimulator { output = .ascii }
    switch output {
    case .ascii:
      let screen = AsciiDisplay(width: options.width, height: options.height)
      try play(timeline, on: screen, board: board, options: options, stop: stop, tap: tap)
    case .leds:
      let color = options.color && Environment.nonEmpty("NO_COLOR") == nil
      let screen: TerminalDisplay
      do {
        screen = try TerminalDisplay(
          width: options.width, height: options.height, color: color,
          litPalette: (LEDColor(options.zone.ledColor) ?? .red).terminal)
      } catch {
        throw SignFailure("\(error)")
      }
      try play(timeline, on: screen, board: board, options: options, stop: stop, tap: tap)
    }
  }

  /// `--retry`: pauses that end early on a stopping signal; each failure reported.
  static func retryPolicy(stop: StopFlag) -> RetryPolicy {
    RetryPolicy(
      sleep: { seconds in
        var left = seconds
        while left > 0 && !stop.isSet {
          SignClock.kernelSleep(0.05)
          left -= 0.05
        }
        return !stop.isSet
      },
      report: { printError("Warning: \($0)") })
  }

  /// Plays on a screen directly, or through an emulated board shown on that screen.
  static func play<S: Display>(
    _ timeline: any Timeline, on screen: S, board: SignBoard?, options: RunOptions, stop: StopFlag, tap: SignLights?
  ) throws {
    if let board {
      try BoardDisplays.play(timeline, emulating: board, on: screen, options: options, stop: stop, tap: tap)
    } else {
      var display = screen
      try play(timeline, on: &display, options: options, stop: stop, tap: tap)
    }
  }

  /// Plays a timeline and shuts the display down on every path, errors included; with
  /// `tap`, through a ``TappedDisplay`` that shares the frames with the HTTP server.
  static func play<D: Display>(
    _ timeline: any Timeline, on display: inout D, options: RunOptions, stop: StopFlag, tap: SignLights? = nil
  ) throws {
    if let tap {
      var tapped = TappedDisplay(inner: display, lights: tap)
      try playUntilDone(timeline, on: &tapped, options: options, stop: stop, heartbeat: tap.heartbeat)
    } else {
      try playUntilDone(timeline, on: &display, options: options, stop: stop)
    }
  }

  static func playUntilDone<D: Display>(
    _ timeline: any Timeline, on display: inout D, options: RunOptions, stop: StopFlag, heartbeat: Heartbeat? = nil
  ) throws {
    let player = try Player(fps: options.fps, frameLimit: options.frames, paced: !options.noWait)
    do {
      if options.noWait {
        try player.run(timeline, on: &display, clock: ManualClock(), stop: stop, heartbeat: heartbeat)
      } else {
        try player.run(timeline, on: &display, clock: MonotonicClock(), stop: stop, heartbeat: heartbeat)
      }
    } catch {
      try? display.shutdown()
      throw error
    }
    try display.shutdown()
  }
}

import Platform
import BitmapFonts
import Drivers
import Marquee
import MatrixCore
import SignService

/// `--gif`, `--pbm` and `marquee gallery`: rendering without waiting.
enum Recording {
  /// Records `timeline` into a GIF file: every frame for `--frames` or `--seconds` (10 by
  /// default) at `--fps`, rendered at once.
  static func recordGIF(_ timeline: any Timeline, options: RunOptions, path: String, caption: String? = nil) throws {
    let frames = options.frames ?? Int(saturating: ((options.seconds ?? 10) * options.fps).rounded())
    let captionPixels = caption.map { TextRenderer().render($0) }
    var recorder: GIFRecorder
    do {
      recorder = try GIFRecorder(
        width: timeline.width, height: timeline.height, fps: options.fps, scale: options.gifScale,
        color: (LEDColor(options.zone.ledColor) ?? .red).rgb.tuple, caption: captionPixels)
    } catch {
      // The size comes from --width/--height (or the board) and --gif-scale.
      throw UsageError(
        "'--gif' cannot record a \(timeline.width)x\(timeline.height) sign at '--gif-scale \(options.gifScale)': \(error); use a smaller --gif-scale.")
    }
    try Player(fps: options.fps, frameLimit: max(1, frames), paced: false)
      .run(timeline, on: &recorder, clock: ManualClock(), stop: StopFlag())
    try writeFile(recorder.data, to: path)
  }

  /// Writes the first frame as PBM.
  static func writePBM(_ timeline: any Timeline, path: String) throws {
    try writeFile(Array(timeline.frame(at: 0).pixels.pbmPlain.utf8), to: path)
  }

  static func writeFile(_ bytes: [UInt8], to path: String) throws {
    do {
      let file = try FileDescriptor(creating: path, operation: "create")
      try writeAll(bytes, to: file.raw, what: path)
    } catch {
      throw SignFailure("\(error)")
    }
  }

  /// Renders one GIF per effect and per mode into `folder`, each captioned with its name.
  static func gallery(into folder: String) throws {
    FileBytes.makeFolders(folder)
    var options = RunOptions()
    options.width = 32
    options.height = 8
    options.fps = 25
    options.gifScale = 4
    var count = 0
    for effect in EffectCatalog.all {
      let transition = Transition(entry: [effect], duration: 0.8)
      let settings = CycleSettings(dwell: 0.6, transition: transition, alignment: .center)
      let timeline = try CycleTimeline(messages: ["HELLO", "WORLD"], renderer: TextRenderer(), width: 32, height: 8, settings: settings)
      options.frames = Int(saturating: (timeline.period * options.fps).rounded())
      try recordGIF(timeline, options: options, path: "\(folder)/\(effect.name).gif", caption: effect.name)
      count += 1
    }
    let modes: [(String, any ZoneTimeline)] = [
      ("mode-auto", try RibbonTimeline(messages: ["Still"], renderer: TextRenderer(), width: 32, height: 8, settings: MarqueeSettings(alignment: .center))),
      ("mode-scroll", try RibbonTimeline(messages: ["Scrolling text, seamless loop"], renderer: TextRenderer(), width: 32, height: 8, settings: MarqueeSettings(speed: 25))),
      ("mode-cycle", try CycleTimeline(messages: ["One", "Two", "Three"], renderer: TextRenderer(), width: 32, height: 8, settings: CycleSettings(dwell: 0.8, alignment: .center))),
      // Icons in the line, scrolled and cycled with the text.
      ("icons-scroll", try ZoneContent(messages: ["{icon:train} Berlin {icon:arrow-right} 3 {icon:clock} 12:05"], motion: .scroll(.init(speed: 25)))
        .makeTimeline(width: 32, height: 8)),
      ("icons-cycle", try ZoneContent(
        messages: ["{icon:cup}2.50", "{icon:open}", "{icon:warning}wet", "{icon:sun}21{icon:temperature}"],
        motion: .cycle(.init(dwell: 0.8)), style: .init(alignment: .center), transition: Transition(entry: [EffectCatalog.effect(named: "scroll-up")!]))
        .makeTimeline(width: 32, height: 8)),
    ]
    for (name, timeline) in modes {
      // A whole loop, three seconds at least.
      options.frames = max(75, Int(saturating: ((timeline.loopDuration ?? 0) * options.fps).rounded()))
      try recordGIF(ZoneTimelineView(timeline), options: options, path: "\(folder)/\(name).gif", caption: name)
      count += 1
    }
    try printOutput("Wrote \(count) GIFs to \(folder)\n")
  }
}

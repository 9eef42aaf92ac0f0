import Drivers
import Marquee
import MatrixCore
import SimpleJSON
import Synchronization

/// A draft shown before it goes live (预览): a content document drawn by the sign's own
/// engine and fonts into an animated GIF, the sign itself untouched.
extension SignSession {
  /// The bounds of one preview: how long it may be, its frame rate, and how much drawing it
  /// may cost, so that a flood of previews holds bounded memory and time.
  public enum PreviewLimits {
    /// The default length, in seconds.
    public static let defaultSeconds = 4.0
    /// The longest preview of a length asked for, in seconds.
    public static let longestSeconds = 10.0
    /// The longest whole pass a preview draws, in seconds (a longer one is cut there).
    public static let longestWhole = 60.0
    /// Frames per second of the GIF (fewer on a large sign, see ``pixelBudget``).
    public static let fps = 20.0
    /// The widest image, in pixels: a small sign's LEDs are drawn larger, up to 6 pixels.
    public static let imageWidth = 1024
    /// Image pixels over all frames: past it, the preview has fewer frames per second.
    public static let pixelBudget = 1 << 23
  }

  /// A GIF of `document` (a content document, as `PATCH /api/content` takes it: checked the
  /// same way, with the same refusals) playing for its first `seconds` on the whole sign, the
  /// zones it does not name showing what they show now, from their start. With `seconds`
  /// nil, one whole pass: the longest zone's loop (a still sign: the default length), up to
  /// ``PreviewLimits/longestWhole``.
  ///
  /// Only one preview is drawn at a time; another asked meanwhile is refused as busy. A
  /// preview is a guest of the running sign: it reads the fonts the sign has loaded, loads
  /// any other for itself alone (up to ``FontCache/previewBudget`` bytes of files), with no
  /// lock the frame loop waits on held while it loads, and gives the memory back when done.
  ///
  /// - Throws: ``SignRefusal`` (`busy`, or `invalid` naming `seconds`), or what the content
  ///   command throws for a bad document.
  /// With `replacing`, each zone the document names starts from its starting options, as
  /// a program plays (`PUT`); otherwise the document is merged over what the zone shows now.
  public func preview(
    _ document: JSONValue, seconds asked: Double? = PreviewLimits.defaultSeconds, replacing: Bool = false, from source: CommandSource = .person
  ) throws -> [UInt8] {
    if let asked {
      guard asked.isFinite, asked >= 0.1, asked <= PreviewLimits.longestSeconds else {
        throw SignRefusal(field: "seconds", "expected a number from 0.1 to \(Int(PreviewLimits.longestSeconds)), got \(asked)")
      }
    }
    guard previewing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
      throw SignRefusal(.busy, "another preview is being drawn; try again in a moment")
    }
    defer { previewing.store(false, ordering: .releasing) }
    try SignSession.check(.content(document, replacing: replacing), from: source)
    var preview = source
    preview.keeps = false
    // A guest of the sign: fonts it loads are its own, freed when it ends.
    // How long it would hold does not change how it looks.
    let updates = try contentUpdates(try ContentHold.split(document).document, replacing: replacing, from: preview, fonts: feed.fonts.guest())
    var drafts: [String: ZoneContent] = [:]
    for update in updates { if let content = update.content { drafts[update.zone] = content } }
    let zones = try controller.sign.zones.map { zone in try Zone(place: zone.place, content: drafts[zone.name] ?? zone.content) }
    let sign = try Sign(width: width, height: height, zones: zones)
    let loop = sign.loopDuration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    let seconds = asked ?? min(PreviewLimits.longestWhole, max(0.1, loop ?? PreviewLimits.defaultSeconds))
    let scale = max(1, min(6, PreviewLimits.imageWidth / width))
    let imagePixels = width * scale * height * scale
    let wanted = max(1, Int((seconds * PreviewLimits.fps).rounded()))
    let frameCount = max(1, min(wanted, PreviewLimits.pixelBudget / max(1, imagePixels)))
    let fps = Double(frameCount) / seconds
    var recorder = try GIFRecorder(
      width: width, height: height, fps: fps, scale: scale, color: (LEDColor(options.zone.ledColor) ?? .red).rgb.tuple)
    var frame = Frame(width: width, height: height)
    var workspace = FrameWorkspace()
    for index in 0..<frameCount {
      sign.render(at: Double(index) / fps, into: &frame, workspace: &workspace)
      try recorder.show(frame, changed: true)
    }
    return recorder.data
  }
}

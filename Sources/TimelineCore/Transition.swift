import MatrixCore

/// A change from old content to new: the exit effects on the old, the entry effects on the
/// new, over a duration in seconds with an easing.
public struct Transition: Sendable {
  /// Draws a whole transition by hand: the old and new cards, the eased progress 0...1,
  /// and the area to draw into (already cleared).
  public typealias Custom = @Sendable (
    _ old: Framebuffer, _ new: Framebuffer, _ progress: Double, _ area: inout Framebuffer
  ) -> Void

  /// Effects applied to the entering content, combined.
  public var entry: [any TransitionEffect]
  /// Effects applied to the exiting content, combined.
  public var exit: [any TransitionEffect]
  /// How long the transition takes, in seconds.
  public var duration: Double
  /// How progress follows time.
  public var easing: Easing
  /// A hand-drawn transition that replaces the effects, if set.
  public var custom: Custom? {
    get { drawing?.draw }
    set { drawing = newValue.map(Drawing.init) }
  }
  /// The hand-drawn closure in a box whose identity says which closure it is: copies share
  /// it, two closures set apart never do (closures cannot be compared).
  private var drawing: Drawing?

  private final class Drawing: Sendable {
    let draw: Custom
    init(_ draw: @escaping Custom) { self.draw = draw }
  }

  /// Creates a transition; the exit defaults to the entry's exit half.
  public init(
    entry: [any TransitionEffect], exit: [any TransitionEffect]? = nil, duration: Double = 0.5,
    easing: Easing = .linear
  ) {
    self.entry = entry.sorted { $0.stage < $1.stage }
    self.exit = (exit ?? entry).sorted { $0.stage < $1.stage }
    self.duration = duration
    self.easing = easing
  }

  /// Creates a hand-drawn transition.
  public init(duration: Double, easing: Easing = .linear, custom: @escaping Custom) {
    self.entry = []
    self.exit = []
    self.duration = duration
    self.easing = easing
    self.drawing = Drawing(custom)
  }

  /// The vertical push of the cycling notice boards: the new line pushes the old one up.
  public static let scrollUp = Transition(entry: [ScrollEffect.all[0]])

  /// Draws the transition at linear progress `progress` (0...1) from `old` to `new` (cards
  /// the size of the area) into `area`, returning the frame brightness.
  public func render(
    from old: Framebuffer, to new: Framebuffer, progress: Double, context: EffectContext,
    into area: inout Framebuffer, workspace: inout FrameWorkspace
  ) -> Double {
    let p = easing.apply(progress)
    if let custom {
      area.clear()
      custom(old, new, p, &area)
      return 1
    }
    workspace.old.load(old)
    for effect in exit {
      effect.apply(
        to: &workspace.old, progress: effect.timing.phase(p, role: .exiting), role: .exiting,
        context: context, scratch: &workspace.scratch)
    }
    workspace.new.load(new)
    for effect in entry {
      effect.apply(
        to: &workspace.new, progress: effect.timing.phase(p, role: .entering), role: .entering,
        context: context, scratch: &workspace.scratch)
    }
    return Transition.composite(workspace: &workspace, into: &area)
  }

  /// Puts the two layers together: the entering layer where it covers, else the exiting
  /// layer where it covers, else dark; then both overlays on top.
  ///
  /// A frame has one brightness. When only one layer shows lit pixels, the frame takes its
  /// brightness; when both do at different brightness, the dimmer one is dithered to its
  /// brightness and the frame takes the brighter one's.
  static func composite(workspace: inout FrameWorkspace, into area: inout Framebuffer) -> Double {
    FrameWorkspace.prepare(&area, width: workspace.new.width, height: workspace.new.height)
    // The old layer's visible part (where the new one does not cover), then the new one's.
    let oldLit = area.assign(workspace.old.pixels, maskedBy: workspace.old.coverage, except: workspace.new.coverage)
    FrameWorkspace.prepare(&workspace.scratch, width: area.width, height: area.height)
    let newLit = workspace.scratch.assign(workspace.new.pixels, maskedBy: workspace.new.coverage)
    let oldBrightness = workspace.old.brightness, newBrightness = workspace.new.brightness
    var brightness = 1.0
    if oldLit && newLit && oldBrightness != newBrightness {
      let dimmerIsOld = oldBrightness < newBrightness
      let level = (dimmerIsOld ? oldBrightness : newBrightness) * 64
      func dither(_ buffer: inout Framebuffer) {
        buffer.keepDithered(below: level)
      }
      if dimmerIsOld { dither(&area) } else { dither(&workspace.scratch) }
      brightness = max(oldBrightness, newBrightness)
    } else if oldLit && newLit {
      brightness = newBrightness
    } else if oldLit {
      brightness = oldBrightness
    } else if newLit {
      brightness = newBrightness
    }
    area.draw(workspace.scratch, atX: 0, y: 0, mode: .or)
    drawOverlay(of: workspace.old, into: &area)
    drawOverlay(of: workspace.new, into: &area)
    return brightness
  }

  static func drawOverlay(of layer: Layer, into area: inout Framebuffer) {
    guard !layer.overlayCoverage.isBlank else { return }
    area.draw(layer.overlayCoverage, atX: 0, y: 0, mode: .clear)
    area.draw(layer.overlay, atX: 0, y: 0, mode: .or)
  }
}

extension Transition: Equatable {
  /// Two transitions are equal when they draw the same: the same effects (by name and type)
  /// in the same order, duration and easing, and the same hand-drawn closure, if any.
  public static func == (lhs: Transition, rhs: Transition) -> Bool {
    func same(_ a: [any TransitionEffect], _ b: [any TransitionEffect]) -> Bool {
      #if !hasFeature(Embedded)
        a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && type(of: $0) == type(of: $1) }
      #else
        // No metatypes of existentials without the runtime: the names tell effects apart.
        a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name }
      #endif
    }
    return same(lhs.entry, rhs.entry) && same(lhs.exit, rhs.exit) && lhs.duration == rhs.duration
      && lhs.easing == rhs.easing && lhs.drawing === rhs.drawing
  }
}

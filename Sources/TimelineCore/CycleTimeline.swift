import TotalConversion
import FontCore
import MatrixCore

/// How cycle mode shows its messages.
public struct CycleSettings: Sendable, Equatable {
  /// Seconds a message stands still (twice for a message that scrolls: at its start and
  /// at its end).
  public var dwell: Double
  /// The transition between one message and the next.
  public var transition: Transition
  /// Scroll speed, in pixels per second, for messages wider than the area.
  public var speed: Double
  /// Where a message that fits stands across the area.
  public var alignment: HorizontalAlignment
  /// Where the line stands down the area.
  public var verticalAlignment: VerticalAlignment
  /// Inversion and flips, applied to every frame.
  public var presentation: Presentation
  /// The seed of the random effects' order.
  public var seed: UInt64
  /// The sprite of the sprite effect.
  public var sprite: Sprite

  /// Creates settings; the defaults are a notice board's: 2 s dwell, a half-second push up.
  public init(
    dwell: Double = 2, transition: Transition = .scrollUp, speed: Double = 20,
    alignment: HorizontalAlignment = .start, verticalAlignment: VerticalAlignment = .middle,
    presentation: Presentation = Presentation(), seed: UInt64 = 0x5EED, sprite: Sprite = .pacman
  ) {
    self.dwell = dwell
    self.transition = transition
    self.speed = speed
    self.alignment = alignment
    self.verticalAlignment = verticalAlignment
    self.presentation = presentation
    self.seed = seed
    self.sprite = sprite
  }
}

/// Cycle mode: one message at a time, each standing for a dwell, then a transition to the
/// next, wrapping around the list.
///
/// Each message's turn is: stand still for the dwell; if it is too wide, scroll across at
/// the speed and stand for the dwell again at its end; then the transition to the next
/// message. The cycle starts with the first message standing. Everything is a pure function
/// of `t`.
public final class CycleTimeline: Timeline {
  public let width: Int
  public let height: Int
  /// The messages, prepared for the area.
  public let cards: [MessageCard]
  /// The settings the timeline was made with.
  public let settings: CycleSettings
  /// The effects' per-area tables.
  public let context: EffectContext
  /// Where each turn starts within one period, in seconds.
  let turnStarts: [Double]
  /// The length of one pass through all messages, in seconds (infinite for one still
  /// message).
  public let period: Double

  /// What is on the area at an instant.
  public enum Phase: Equatable, Sendable {
    /// Message `index` stands or scrolls; `offset` is how far it has scrolled.
    case showing(index: Int, offset: Int)
    /// The transition from message `from` to message `to`, at linear progress 0..<1.
    case transition(from: Int, to: Int, progress: Double)
  }

  /// Lays out `messages` for a `width` x `height` sign.
  public convenience init(
    messages: [String], renderer: TextRenderer, width: Int, height: Int,
    settings: CycleSettings = CycleSettings()
  ) throws(MarqueeError) {
    var cards: [MessageCard] = []
    var pixels = 0
    for message in messages.isEmpty ? [""] : messages {
      let layout = renderer.layout(message)
      if let problem = Framebuffer.validateSize(width: layout.width, height: layout.height) {
        throw .contentTooLarge(problem)
      }
      pixels += layout.width * layout.height
      try MarqueeError.checkContent(pixels: pixels, "the messages")
      guard layout.height <= height else { throw .textTallerThanSign(textHeight: layout.height, signHeight: height) }
      var card = MessageCard(
        strip: renderer.draw(layout), width: width, height: height,
        alignment: settings.alignment, verticalAlignment: settings.verticalAlignment, rightToLeft: layout.direction == .rtl)
      card.animations = layout.animations
      cards.append(card)
    }
    self.init(cards: cards, width: width, height: height, settings: settings)
  }

  /// Builds the timeline from prepared cards.
  public init(cards: [MessageCard], width: Int, height: Int, settings: CycleSettings) {
    self.width = width
    self.height = height
    self.cards = cards
    self.settings = settings
    context = EffectContext(width: width, height: height, seed: settings.seed, sprite: settings.sprite)
    var starts: [Double] = []
    var total = 0.0
    for card in cards {
      starts.append(total)
      total += CycleTimeline.holdLength(card, settings) + max(0, settings.transition.duration)
    }
    turnStarts = starts
    let still = cards.count == 1 && cards[0].scrollDistance == 0
    period = still || total <= 0 ? .infinity : total
  }

  /// How long a card stands and scrolls before its transition starts.
  static func holdLength(_ card: MessageCard, _ settings: CycleSettings) -> Double {
    let dwell = max(0, settings.dwell)
    guard card.scrollDistance > 0, settings.speed > 0 else { return dwell }
    return dwell + Double(card.scrollDistance) / settings.speed + dwell
  }

  /// Where `t` falls: the turn, and the time since it started.
  func locate(_ t: Double) -> (turn: Int, local: Double) {
    guard period.isFinite else { return (0, max(0, t)) }
    let u = max(0, t).truncatingRemainder(dividingBy: period)
    // The last turn starting at or before u.
    var low = 0, high = turnStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if turnStarts[middle] <= u { low = middle } else { high = middle - 1 }
    }
    return (low, u - turnStarts[low])
  }

  /// What is on the area at time `t`.
  public func phase(at t: Double) -> Phase {
    let (turn, local) = locate(t)
    let card = cards[turn]
    let hold = CycleTimeline.holdLength(card, settings)
    if local < hold || !period.isFinite {
      return .showing(index: turn, offset: scrollOffset(card, local: local))
    }
    let duration = settings.transition.duration
    let progress = duration > 0 ? min(1, (local - hold) / duration) : 1
    return .transition(from: turn, to: (turn + 1) % cards.count, progress: progress)
  }

  /// How far a card has scrolled `local` seconds into its turn.
  func scrollOffset(_ card: MessageCard, local: Double) -> Int {
    guard card.scrollDistance > 0, settings.speed > 0 else { return 0 }
    let moving = local - max(0, settings.dwell)
    guard moving > 0 else { return 0 }
    return min(card.scrollDistance, Int(saturating: (moving * settings.speed + 1e-9).rounded(.down)))
  }

  public func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace) {
    frame.brightness = 1
    switch phase(at: t) {
    case .showing(let index, let offset):
      let card = cards[index]
      if offset == 0 {
        frame.pixels.assign(card.arrival)
      } else {
        card.draw(scrolledBy: offset, into: &frame.pixels)
      }
      // Animated icons play while their message stands or scrolls; transitions move its
      // first frame.
      if !card.animations.isEmpty {
        IconAnimation.draw(card.animations, atX: card.stripX(scrolledBy: offset), y: card.top, time: t, into: &frame.pixels)
      }
    case .transition(let from, let to, let progress):
      frame.brightness = settings.transition.render(
        from: cards[from].departure, to: cards[to].arrival, progress: progress,
        context: context, into: &frame.pixels, workspace: &workspace)
    }
    if !settings.presentation.isIdentity {
      settings.presentation.apply(to: &frame.pixels, scratch: &workspace.scratch)
    }
  }

  public func nextChange(after t: Double) -> Double? {
    let (turn, local) = locate(t)
    let change = cardChange(after: t, turn: turn, local: local)
    // While a message with animated icons shows (as `phase(at:)` says), their frames change it too.
    let card = cards[turn]
    guard !card.animations.isEmpty, local < CycleTimeline.holdLength(card, settings) || !period.isFinite else { return change }
    return IconAnimation.earlier(change, IconAnimation.nextChange(card.animations, after: t))
  }

  /// The next time the cards alone change what is shown, `local` seconds into turn `turn`.
  func cardChange(after t: Double, turn: Int, local: Double) -> Double? {
    guard period.isFinite else { return nil }
    let start = t - local
    let card = cards[turn]
    let dwell = max(0, settings.dwell)
    let hold = CycleTimeline.holdLength(card, settings)
    let next: Double
    if local >= hold {
      next = t + 1e-6  // a transition may change every frame
    } else if card.scrollDistance > 0, settings.speed > 0, local >= dwell,
      local < dwell + Double(card.scrollDistance) / settings.speed
    {
      let travelled = ((local - dwell) * settings.speed + 1e-9).rounded(.down)
      next = start + dwell + (travelled + 1) / settings.speed
    } else if card.scrollDistance > 0, settings.speed > 0, local < dwell {
      next = start + dwell
    } else {
      next = start + hold
    }
    return max(next, t + 1e-9)
  }
}

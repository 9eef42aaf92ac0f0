import MatrixCore

/// Blinds: stripes close over the old text until the area is lit, then open on the new text.
public final class BlindsEffect: TransitionEffect {
  /// The width of one blind, in columns (a divisor of 64).
  public let blindWidth = 4
  public var name: String { "blinds" }
  public var summary: String { "stripes close to fully lit, then open on the new text" }
  public var timing: EffectTiming { .halves }
  public var stage: EffectStage { .overlay }

  public init() {}

  public func apply(
    to layer: inout Layer, progress q: Double, role: TransitionRole, context: EffectContext,
    scratch: inout Framebuffer
  ) {
    // Fully lit just before the exit ends and just after the entry starts; nothing is left
    // of the layer, overlay included, at its far end.
    let closed: Int
    switch role {
    case .exiting:
      if q <= 0 { return }
      if q >= 1 {
        layer.hide()
        return
      }
      closed = min(blindWidth, Int((q * Double(blindWidth)).rounded(.up)))
    case .entering:
      if q >= 1 { return }
      if q <= 0 {
        layer.hide()
        return
      }
      closed = blindWidth - min(blindWidth - 1, Int((q * Double(blindWidth)).rounded(.down)))
    }
    // The closed part of every blind at once: the stripe pattern repeats every 64 columns
    // (a blind's width divides 64).
    var stripes: UInt64 = 0
    for x in 0..<64 where x % blindWidth < closed { stripes |= 0x8000_0000_0000_0000 >> UInt64(x) }
    layer.overlay.lightColumns(repeating: stripes)
    layer.overlayCoverage.lightColumns(repeating: stripes)
  }
}

/// Mesh: alternate columns slide in from the top and from the bottom (and out again).
public final class MeshEffect: TransitionEffect {
  public var name: String { "mesh" }
  public var summary: String { "alternate columns slide in from the top and from the bottom" }
  public var timing: EffectTiming { .halves }
  public var stage: EffectStage { .geometry }

  public init() {}

  public func apply(
    to layer: inout Layer, progress q: Double, role: TransitionRole, context: EffectContext,
    scratch: inout Framebuffer
  ) {
    let h = context.height
    let away = role == .entering ? 1 - q : q
    let distance = Int((away * Double(h)).rounded())
    if distance == 0 { return }
    if distance >= h {
      layer.hide()
      return
    }
    MeshEffect.shiftColumns(&layer.pixels, by: distance, scratch: &scratch)
    MeshEffect.shiftColumns(&layer.coverage, by: distance, scratch: &scratch)
  }

  /// Moves even columns up and odd columns down by `distance` rows: the whole buffer
  /// moved each way, then the even columns of one and the odd of the other.
  static func shiftColumns(_ buffer: inout Framebuffer, by distance: Int, scratch: inout Framebuffer) {
    FrameWorkspace.prepare(&scratch, width: buffer.width, height: buffer.height)
    scratch.assign(buffer)
    scratch.shift(dx: 0, dy: -distance)
    scratch.keepColumns(repeating: 0xAAAA_AAAA_AAAA_AAAA)  // even columns: 0, 2, ...
    buffer.shift(dx: 0, dy: distance)
    buffer.keepColumns(repeating: 0x5555_5555_5555_5555)
    buffer.draw(scratch, atX: 0, y: 0, mode: .or)
  }
}

/// Slice: the new text's columns slide in from the right edge one at a time, leftmost
/// first; on the way out the old text's columns slide off to the left one at a time.
public final class SliceEffect: TransitionEffect {
  public var name: String { "slice" }
  public var summary: String { "columns slide in from the right edge one at a time" }
  public var timing: EffectTiming { .halves }
  public var stage: EffectStage { .geometry }

  public init() {}

  public func apply(
    to layer: inout Layer, progress q: Double, role: TransitionRole, context: EffectContext,
    scratch: inout Framebuffer
  ) {
    guard layer.settle(progress: q, role: role) else { return }
    let w = context.width, h = context.height
    // Columns with something lit travel, leftmost first; blank columns need no trip (as
    // in MD_Parola). At any moment the columns before the travelling one have finished
    // (in place entering, gone exiting), those after it have not started (not yet shown
    // entering, in place exiting), and one column is on its way.
    let entering = role == .entering
    var moving: (column: Int, position: Int)?
    var boundary = w  // the first column that has not finished
    layer.pixels.withLitColumns { columns in
      func isLit(_ x: Int) -> Bool { columns[x >> 6] & (0x8000_0000_0000_0000 >> UInt64(x & 63)) != 0 }
      var total = 0
      for x in 0..<w where isLit(x) { total += entering ? w - x : x + 1 }
      var budget = Int((q * Double(total)).rounded(.down))
      for x in 0..<w where isLit(x) {
        let trip = entering ? w - x : x + 1
        if budget >= trip {
          budget -= trip
          continue
        }
        boundary = x
        // Entering columns start at the right edge; exiting ones end past the left edge.
        if budget > 0 { moving = (x, entering ? w - budget : x - budget) }
        break
      }
    }
    FrameWorkspace.prepare(&scratch, width: w, height: h)
    scratch.assign(layer.pixels)
    if entering {
      layer.pixels.keepColumns(0..<boundary)
    } else {
      layer.pixels.keepColumns((boundary + (moving == nil ? 0 : 1))..<w)
    }
    if let moving {
      layer.pixels.draw(scratch, sourceX: moving.column, sourceY: 0, width: 1, height: h, atX: moving.position, y: 0, mode: .or)
    }
  }
}

/// Sprite: a small animated bitmap walks across; entering, the new text appears behind it
/// (to its left); exiting, it walks back right to left and the old text vanishes behind it.
public final class SpriteEffect: TransitionEffect {
  public var name: String { "sprite" }
  public var summary: String { "a small animated sprite walks across, revealing the text behind it" }
  public var timing: EffectTiming { .halves }
  public var stage: EffectStage { .overlay }

  public init() {}

  public func apply(
    to layer: inout Layer, progress q: Double, role: TransitionRole, context: EffectContext,
    scratch: inout Framebuffer
  ) {
    guard layer.settle(progress: q, role: role) else { return }
    let sprite = context.sprite
    let w = context.width
    let travel = w + sprite.width
    let travelled = Int((q * Double(travel)).rounded(.down))
    // The sprite's left edge: entering it walks from off the left edge to off the right;
    // exiting it walks back from off the right edge to off the left.
    let x = role == .entering ? travelled - sprite.width : w - travelled
    // Either way the text shows only left of the sprite: revealed behind it walking right,
    // eaten behind it walking left.
    layer.maskColumns { $0 < x }
    let frame = sprite.frame(atStep: travelled, mirrored: role == .exiting)
    let y = (context.height - frame.height) / 2
    layer.overlayCoverage.fill(x: x, y: y, width: frame.width, height: frame.height, lit: true)
    layer.overlay.draw(frame, atX: x, y: y)
  }
}

import MatrixCore

extension Zone {
  /// Replaces the zone's content from sign time `t`: at the next message boundary, or at
  /// once if `immediately`. Returns `false`, changing nothing, when the content is the same.
  ///
  /// The new content never starts with a jump or a blank frame: a scrolling zone lets the
  /// old picture scroll on and the new text follow it in; a cycling zone plays its
  /// transition from the old picture; still text is replaced as the new content arrives.
  public mutating func replace(content: ZoneContent, at t: Double, immediately: Bool = false) throws(MarqueeError) -> Bool {
    compact(now: t)
    let z = zoneTime(t)
    // The same change asked for again while it waits for its boundary keeps its place.
    if !immediately, let waiting = segments.last, waiting.start > z, waiting.content == content {
      return false
    }
    // A change not yet shown gives way to this one. The segment in force stays even when
    // rounding puts its start a hair after `z` (zone time is sign time less the pauses, so
    // a segment started during a pause can start an ulp after the zone time that follows).
    let inForce = segmentIndex(at: z)
    segments.removeSubrange((inForce + 1)...)
    let current = segment(at: z)
    if current.content == content { return false }
    let timeline = try content.makeTimeline(width: width, height: height)
    let first = timeline.frame(at: 0).pixels
    let local = current.local(z)
    var start = z
    var leadIn = LeadIn.cut
    func picture(at u: Double) -> Framebuffer {
      var frame = Frame(width: width, height: height)
      var workspace = FrameWorkspace()
      if u < 0 {
        current.leadIn.render(at: u + current.leadIn.duration, target: current.firstFrame, into: &frame, workspace: &workspace)
      } else {
        current.timeline.render(at: u, into: &frame, workspace: &workspace)
      }
      return frame.pixels
    }
    let transition = content.motion.isCycle ? content.transition : current.content.transition
    // Only a transition needs the context, and making one shuffles a rank for every pixel.
    func context() -> EffectContext {
      EffectContext(width: width, height: height, seed: content.seed, sprite: content.sprite)
    }
    if let direction = current.timeline.scrollDirection, local >= 0 {
      // Scrolling: the old picture scrolls on, the new content follows it in.
      var prefixWidth = width
      var takeover = local
      if immediately {
        prefixWidth += current.content.motion.ribbon?.gap ?? 0
      } else {
        takeover = current.timeline.nextBoundary(after: local)
      }
      var prefix = Framebuffer(width: prefixWidth, height: height)
      prefix.draw(picture(at: takeover), atX: direction == .left ? 0 : prefixWidth - width, y: 0)
      start = current.start + current.leadIn.duration + takeover
      leadIn = .scroll(prefix: prefix, direction: direction, speed: current.timeline.scrollSpeed)
    } else if current.content.motion.isCycle && local >= 0 {
      let takeover = immediately ? local : current.timeline.nextBoundary(after: local)
      start = current.start + current.leadIn.duration + takeover
      leadIn = .transition(from: picture(at: takeover), transition, context())
    } else if let direction = timeline.scrollDirection {
      // Still text (or a bridge in progress) giving way to a scroll: it scrolls out ahead
      // of the new text.
      let gap = content.motion.ribbon?.gap ?? 0
      var prefix = Framebuffer(width: width + gap, height: height)
      prefix.draw(picture(at: local), atX: direction == .left ? 0 : gap, y: 0)
      leadIn = .scroll(prefix: prefix, direction: direction, speed: timeline.scrollSpeed)
    } else if content.motion.isCycle {
      leadIn = .transition(from: picture(at: local), transition, context())
    }
    segments.append(Segment(start: start, leadIn: leadIn, content: content, timeline: timeline, firstFrame: first))
    return true
  }

  /// Stops the zone's clock at sign time `t` (nothing moves until ``resume(at:)``).
  public mutating func pause(at t: Double) {
    guard !isPaused else { return }
    compact(now: t)
    pauses.append((t, nil))
  }

  /// Restarts the zone's clock at sign time `t`, where it stopped.
  public mutating func resume(at t: Double) {
    guard isPaused, let last = pauses.indices.last else { return }
    pauses[last].end = max(t, pauses[last].start)
    compact(now: t)
  }
}

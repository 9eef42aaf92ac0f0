import BitmapFonts
import MarqueeTesting
import MatrixCore
import Testing

@testable import Marquee
@testable import TimelineCore

/// Properties every effect of the catalog must have, checked on every effect.
@Suite struct TransitionEffectTests {
  static let names = EffectCatalog.all.map(\.name)

  /// Two cards for an area: the old and the new content, centred.
  static func cards(width: Int, height: Int) -> (Framebuffer, Framebuffer) {
    let renderer = TextRenderer()
    let old = MessageCard(
      strip: renderer.render("OLD"), width: width, height: height, alignment: .center,
      verticalAlignment: .middle)
    let new = MessageCard(
      strip: renderer.render("NEW"), width: width, height: height, alignment: .center,
      verticalAlignment: .middle)
    return (old.departure, new.arrival)
  }

  func render(_ transition: Transition, at p: Double, width: Int = 32, height: Int = 8) -> Frame {
    let (old, new) = TransitionEffectTests.cards(width: width, height: height)
    var frame = Frame(width: width, height: height)
    var workspace = FrameWorkspace()
    frame.brightness = transition.render(
      from: old, to: new, progress: p, context: EffectContext(width: width, height: height),
      into: &frame.pixels, workspace: &workspace)
    return frame
  }

  @Test(arguments: names)
  func startsWithTheOldAndEndsWithTheNew(name: String) throws {
    let transition = Transition(entry: try EffectCatalog.parse(name))
    for (width, height) in [(32, 8), (17, 11)] {
      let (old, new) = TransitionEffectTests.cards(width: width, height: height)
      #expect(render(transition, at: 0, width: width, height: height) == Frame(pixels: old))
      #expect(render(transition, at: 1, width: width, height: height) == Frame(pixels: new))
    }
  }

  @Test(arguments: names.filter { $0 != "print" })
  func someFrameInBetweenIsNeither(name: String) throws {
    let transition = Transition(entry: try EffectCatalog.parse(name))
    let (old, new) = TransitionEffectTests.cards(width: 32, height: 8)
    let between = (1..<100).map { render(transition, at: Double($0) / 100) }
    #expect(between.contains { $0 != Frame(pixels: old) && $0 != Frame(pixels: new) })
  }

  /// A hand-drawn transition equals its copies and no other: two closures set apart are
  /// two transitions, even with the same code, and one set to nil is the plain one again.
  @Test func aHandDrawnTransitionEqualsItsCopiesOnly() {
    let draw: Transition.Custom = { _, new, _, area in area = new }
    let one = Transition(duration: 0.5, custom: draw)
    let copy = one
    #expect(one == copy)
    #expect(one != Transition(duration: 0.5, custom: draw))
    var changed = copy
    changed.custom = draw
    #expect(changed != one)
    changed.custom = nil
    #expect(changed == Transition(entry: [], duration: 0.5))
  }

  @Test func printCutsHalfwayWithNothingInBetween() throws {
    let transition = Transition(entry: try EffectCatalog.parse("print"))
    let (old, new) = TransitionEffectTests.cards(width: 32, height: 8)
    #expect(render(transition, at: 0.49).pixels == old)
    #expect(render(transition, at: 0.51).pixels == new)
  }

  /// A frame depends on its instant only, not on what was drawn before with the same
  /// workspace: instants drawn forwards, backwards and shuffled, through one reused workspace
  /// (as the player reuses it), give the pixels each gives drawn alone.
  @Test(arguments: names)
  func aFrameDependsOnItsInstantNotOnTheFramesBefore(name: String) throws {
    let transition = Transition(entry: try EffectCatalog.parse(name))
    let (old, new) = TransitionEffectTests.cards(width: 32, height: 8)
    let context = EffectContext(width: 32, height: 8)
    let instants = (0...40).map { Double($0) / 40 }
    let alone = instants.map { render(transition, at: $0) }
    var random = SplitMix64(seed: 7)
    for order in [Array(instants.indices), instants.indices.reversed(), instants.indices.shuffled(using: &random)] {
      var workspace = FrameWorkspace()
      var frame = Frame(width: 32, height: 8)
      for index in order {
        frame.brightness = transition.render(
          from: old, to: new, progress: instants[index], context: context, into: &frame.pixels, workspace: &workspace)
        #expect(frame == alone[index], "\(name) at \(instants[index]) after other frames")
      }
    }
  }

  @Test(arguments: names)
  func snapshotsAtFourInstants(name: String) throws {
    // Frames at 20, 40, 60 and 80 % stacked, one dark row between; brightness shown as
    // the number of lit pixels in a bar under each frame (32 = full).
    let transition = Transition(entry: try EffectCatalog.parse(name))
    var sheet = Framebuffer(width: 32, height: 4 * 10)
    for (index, p) in [0.2, 0.4, 0.6, 0.8].enumerated() {
      let frame = render(transition, at: p)
      sheet.draw(frame.pixels, atX: 0, y: index * 10)
      sheet.fill(x: 0, y: index * 10 + 8, width: Int((frame.brightness * 32).rounded()), height: 1, lit: true)
    }
    expectSnapshot(sheet, named: name)
  }

  @Test func fadeCarriesBrightnessInTheFrame() throws {
    let transition = Transition(entry: try EffectCatalog.parse("fade"))
    #expect(render(transition, at: 0.25).brightness == 0.5)
    #expect(render(transition, at: 0.75).brightness == 0.5)
    #expect(render(transition, at: 0.75).pixels == TransitionEffectTests.cards(width: 32, height: 8).1)
  }

  @Test func combinedEffectsApplyTogether() throws {
    // The old text fades (dithered, since the new text is lit too) while both move up.
    let transition = Transition(
      entry: try EffectCatalog.parse("scroll-up"), exit: try EffectCatalog.parse("fade+scroll-up"))
    let plain = Transition(entry: try EffectCatalog.parse("scroll-up"))
    let (old, _) = TransitionEffectTests.cards(width: 32, height: 8)
    let combined = render(transition, at: 0.25)
    let pushed = render(plain, at: 0.25)
    #expect(combined.brightness == 1)
    #expect(combined.pixels.litCount < pushed.pixels.litCount)
    // Once the old text's fade is over, only the push remains.
    #expect(render(transition, at: 0.6).pixels.litCount <= render(plain, at: 0.6).pixels.litCount)
    #expect(render(transition, at: 0).pixels == old)
  }

  @Test func exitAndEntryCanDiffer() throws {
    let transition = Transition(
      entry: try EffectCatalog.parse("wipe-right"), exit: try EffectCatalog.parse("scroll-up"))
    let middle = render(transition, at: 0.5)
    // Left half: new text; the old text has moved up by half the height on the right.
    let (old, new) = TransitionEffectTests.cards(width: 32, height: 8)
    #expect(middle.pixels.cropped(x: 0, y: 0, width: 16, height: 8) == new.cropped(x: 0, y: 0, width: 16, height: 8))
    #expect(middle.pixels.cropped(x: 16, y: 0, width: 16, height: 4) == old.cropped(x: 16, y: 4, width: 16, height: 4))
  }

  @Test func customTransitionDrawsWhatItIsGiven() {
    let transition = Transition(duration: 1) { old, new, p, area in
      area.draw(p < 0.5 ? old : new, atX: 0, y: 0)
      area.invert()
    }
    let (old, _) = TransitionEffectTests.cards(width: 32, height: 8)
    var inverted = old
    inverted.invert()
    #expect(render(transition, at: 0.2).pixels == inverted)
  }

  @Test func easingKeepsTheEndsAndBendsTheMiddle() {
    for easing in Easing.allCases {
      #expect(easing.apply(0) == 0 && easing.apply(1) == 1)
    }
    #expect(Easing.easeIn.apply(0.5) < 0.5)
    #expect(Easing.easeOut.apply(0.5) > 0.5)
    #expect(Easing.easeInOut.apply(0.25) < 0.25 && Easing.easeInOut.apply(0.75) > 0.75)
  }

  @Test func randomOrderDependsOnTheSeedOnly() {
    #expect(EffectContext(width: 16, height: 8, seed: 1).randomRank
      == EffectContext(width: 16, height: 8, seed: 1).randomRank)
    #expect(EffectContext(width: 16, height: 8, seed: 1).randomRank
      != EffectContext(width: 16, height: 8, seed: 2).randomRank)
    #expect(Set(EffectContext(width: 16, height: 8).randomRank).count == 128)
  }

  @Test func unknownEffectNamesSuggestTheNearest() {
    #expect(throws: EffectCatalog.UnknownEffect(name: "scrol-up", suggestion: "scroll-up")) {
      try EffectCatalog.parse("fade+scrol-up")
    }
    #expect(EffectCatalog.effect(named: "dissolve")?.name == "cross-fade")
  }

  @Test func userSpritesParseAndReportBadFrames() throws {
    let sprite = try Sprite(text: "#.\n.#\n\n.#\n#.\n")
    #expect(sprite.frames.count == 2 && sprite.width == 2)
    #expect(sprite.frame(atStep: 0, mirrored: true).text == ".#\n#.\n")
    #expect(throws: Sprite.Invalid.self) { try Sprite(text: "#.\n\n###\n") }
    #expect(throws: Sprite.Invalid(description: "line 4: unexpected character 'x' at column 1 (use '#' or '.')")) {
      try Sprite(text: "#\n#\n\nx\n")
    }
  }
}

/// The word-wise column effects against their column-by-column definitions.
@Suite struct ColumnEffectReferenceTests {
  /// A layer holding random pixels, fully covering.
  func layer(width: Int, height: Int, seed: UInt64) -> Layer {
    var random = SplitMix64(seed: seed)
    var card = Framebuffer(width: width, height: height)
    // Blank columns too: slice skips them.
    for y in 0..<height {
      for x in 0..<width where x % 5 != 2 && Bool.random(using: &random) { card[x, y] = true }
    }
    var layer = Layer()
    layer.load(card)
    return layer
  }

  @Test func sliceMovesOneColumnAtATimeAsItsDefinitionSays() {
    for (width, height) in [(32, 8), (70, 9)] {
      let original = layer(width: width, height: height, seed: UInt64(width))
      let context = EffectContext(width: width, height: height)
      for role in [TransitionRole.entering, .exiting] {
        for step in 1..<100 {
          let q = Double(step) / 100
          var actual = original
          var scratch = Framebuffer(width: 0, height: 0)
          SliceEffect().apply(to: &actual, progress: q, role: role, context: context, scratch: &scratch)
          // Definition: each lit column, leftmost first, travels its whole trip before the
          // next starts; entering from the right edge, exiting off the left edge.
          let source = original.pixels
          let lit = (0..<width).filter { x in (0..<height).contains { source[x, $0] } }
          let total = lit.reduce(0) { $0 + (role == .entering ? width - $1 : $1 + 1) }
          var budget = Int((q * Double(total)).rounded(.down))
          var expected = Framebuffer(width: width, height: height)
          for x in lit {
            let trip = role == .entering ? width - x : x + 1
            let travelled = min(trip, budget)
            budget -= travelled
            let position = role == .entering ? width - travelled : x - travelled
            expected.draw(source, sourceX: x, sourceY: 0, width: 1, height: height, atX: position, y: 0)
          }
          #expect(actual.pixels == expected, "\(width)x\(height) \(role) at \(q)")
        }
      }
    }
  }

  @Test func openingAndClosingMatchTheirColumnDefinitions() {
    for (width, height) in [(32, 8), (33, 5)] {
      let original = layer(width: width, height: height, seed: 9)
      let context = EffectContext(width: width, height: height)
      for effect in MaskEffect.all where ["opening", "opening-cursor", "closing", "closing-cursor"].contains(effect.name) {
        let isOpening = effect.name.hasPrefix("opening"), cursor = effect.name.hasSuffix("cursor")
        for role in [TransitionRole.entering, .exiting] {
          for step in 0...100 {
            let q = Double(step) / 100
            var actual = original
            var scratch = Framebuffer(width: 0, height: 0)
            effect.apply(to: &actual, progress: q, role: role, context: context, scratch: &scratch)
            // Definition: a column is open within `reach` of the centre (opening) or beyond
            // it (closing); the entering layer shows where open; bars mark open/closed edges.
            let half = Double(width) / 2, reach = isOpening ? q * half : (1 - q) * half
            func isOpen(_ x: Int) -> Bool { (abs(Double(x) + 0.5 - half) < reach) == isOpening }
            var expected = original
            expected.maskColumns { isOpen($0) == (role == .entering) }
            if cursor, q > 0, q < 1 {
              for x in 0..<width where x + 1 < width && isOpen(x) != isOpen(x + 1) {
                expected.cursorColumn(at: isOpen(x) == isOpening ? x + 1 : x)
              }
            }
            #expect(actual.pixels == expected.pixels && actual.coverage == expected.coverage
                      && actual.overlay == expected.overlay && actual.overlayCoverage == expected.overlayCoverage,
                    "\(effect.name) \(role) at \(q)")
          }
        }
      }
    }
  }

  @Test func meshMovesEvenColumnsUpAndOddColumnsDown() {
    for (width, height) in [(32, 8), (70, 9)] {
      let original = layer(width: width, height: height, seed: 7)
      let context = EffectContext(width: width, height: height)
      for step in 1..<20 {
        let q = Double(step) / 20
        var actual = original
        var scratch = Framebuffer(width: 0, height: 0)
        MeshEffect().apply(to: &actual, progress: q, role: .exiting, context: context, scratch: &scratch)
        let distance = Int((q * Double(height)).rounded())
        var expected = Framebuffer(width: width, height: height), coverage = expected
        for x in 0..<width {
          let dy = x % 2 == 0 ? -distance : distance
          expected.draw(original.pixels, sourceX: x, sourceY: 0, width: 1, height: height, atX: x, y: dy)
          coverage.draw(original.coverage, sourceX: x, sourceY: 0, width: 1, height: height, atX: x, y: dy)
        }
        if distance >= height { (expected, coverage) = (Framebuffer(width: width, height: height), Framebuffer(width: width, height: height)) }
        #expect(actual.pixels == expected, "\(width)x\(height) at \(q)")
        #expect(actual.coverage == coverage, "\(width)x\(height) coverage at \(q)")
      }
    }
  }
}

import BitmapFonts
import Dispatch
import MatrixCore
import Testing

import Marquee

/// `SignController` called as Docs/zones.md calls it: defaults included (no `at:`), and from
/// several threads while a player draws.
@Suite struct SignControllerTests {
  func controller() throws -> SignController {
    let ticker = ZoneContent(
      messages: ["Next train: Central 4 min", "Platform 2"], motion: .scroll(.init(speed: 25, gap: 12)))
    let clock = ZoneContent(messages: ["12:00"], style: .init(alignment: .center))
    let sign = try Sign(width: 64, height: 8, zones: [
      Zone(name: "clock", x: 0, y: 0, width: 26, height: 8, content: clock),
      Zone(name: "ticker", x: 26, y: 0, width: 38, height: 8, content: ticker),
    ])
    return SignController(sign: sign, wake: StopFlag())
  }

  func draw(_ controller: SignController, at t: Double) -> Framebuffer {
    var frame = Frame(width: controller.width, height: controller.height)
    var workspace = FrameWorkspace()
    controller.render(at: t, into: &frame, workspace: &workspace)
    return frame.pixels
  }

  @Test func everyChangeWithItsDefaultsTakesEffectAtTheLastFrameDrawn() throws {
    let controller = try controller()
    _ = draw(controller, at: 3)
    #expect(controller.currentTime == 3)

    #expect(try controller.replaceMessages(["12:01"], inZone: "clock", immediately: true))
    #expect(controller.sign.zones[0].content.messages == ["12:01"])
    let clockAlone = try Sign(width: 26, height: 8, content: ZoneContent(
      messages: ["12:01"], style: .init(alignment: .center)))
    #expect(draw(controller, at: 3.5).cropped(x: 0, y: 0, width: 26, height: 8) == clockAlone.frame(at: 0).pixels)

    // The first zone when no zone is named.
    #expect(try controller.replaceMessages(["13:00"]))
    #expect(controller.sign.zones[0].content.messages == ["13:00"])
    var content = controller.sign.zones[1].content
    content.messages = ["Replaced"]
    #expect(try controller.replaceContent(content, inZone: "ticker"))
    #expect(try controller.replaceContent(content, inZone: "ticker") == false)

    // Pause freezes every zone from the last frame drawn; resume continues.
    try controller.pause()
    let frozen = draw(controller, at: 4)
    #expect(draw(controller, at: 9) == frozen)
    try controller.resume()
    try controller.pause(zone: "ticker")
    try controller.resume(zone: "ticker")
    #expect(throws: SignController.ChangeError.noSuchZone("nope", zones: controller.sign.zones.map(\.name))) { try controller.pause(zone: "nope") }
  }

  @Test func changesFromManyThreadsWhileAPlayerDraws() throws {
    let controller = try controller()
    let stop = controller.wake!
    let writers = 8, changesEach = 200
    let done = DispatchGroup()
    for writer in 0..<writers {
      DispatchQueue.global().async(group: done) {
        for change in 0..<changesEach {
          _ = try? controller.replaceMessages(["w\(writer) c\(change)"], inZone: "ticker")
          _ = try? controller.replaceMessages(["\(change % 60)"])
          if change % 10 == 0 {
            try? controller.pause(zone: "ticker")
            try? controller.resume()
          }
          _ = controller.currentTime
          _ = controller.sign
        }
      }
    }
    DispatchQueue.global().async(group: done) {
      var frame = Frame(width: 64, height: 8)
      var workspace = FrameWorkspace()
      for step in 0..<2000 { controller.render(at: Double(step) / 40, into: &frame, workspace: &workspace) }
    }
    #expect(done.wait(timeout: .now() + 120) == .success, "the writers and the player finished")
    #expect(stop.wakeCount > 0)
    let lastTicker = controller.sign.zones[1].content.messages
    #expect(lastTicker.count == 1 && lastTicker[0].hasSuffix("c\(changesEach - 1)"))
  }
}

/// Whether new content is "the same" is derived from its values, not a hand-kept list.
@Suite struct ContentEqualityTests {
  func cycling(_ transition: Transition) -> ZoneContent {
    ZoneContent(messages: ["A", "B"], motion: .cycle(), transition: transition)
  }

  @Test func twoHandDrawnTransitionsAreDifferentContentAndACopyIsTheSame() throws {
    let blink = Transition(duration: 0.5) { old, _, _, area in area.draw(old, atX: 0, y: 0) }
    let wipe = Transition(duration: 0.5) { _, new, _, area in area.draw(new, atX: 0, y: 0) }
    #expect(cycling(blink) == cycling(blink))
    #expect(cycling(blink) != cycling(wipe))
    let controller = SignController(sign: try Sign(width: 32, height: 8, content: cycling(blink)))
    #expect(try controller.replaceContent(cycling(blink), inZone: "main") == false)
    #expect(try controller.replaceContent(cycling(wipe), inZone: "main", immediately: true))
  }

  @Test func everySettingTakesPartInEquality() throws {
    let base = ZoneContent(messages: ["A"])
    var changed: [ZoneContent] = []
    var content = base
    content.style.presentation.flippedVertically = true
    changed.append(content)
    content = base
    content.sprite = try Sprite(text: "#.\n.#")
    changed.append(content)
    content = base
    content.style.renderer = TextRenderer(fonts: FontChain(BuiltinFont3x5()))
    changed.append(content)
    content = base
    content.transition = Transition(entry: try EffectCatalog.parse("fade"), duration: 0.5)
    changed.append(content)
    content = base
    content.motion = .scroll()
    changed.append(content)
    content = base
    content.motion = .auto(.init(gap: 3))
    changed.append(content)
    content = base
    content.seed = 1
    changed.append(content)
    content = base
    content.epoch = 1_000
    changed.append(content)
    for other in changed { #expect(other != base) }
  }
}

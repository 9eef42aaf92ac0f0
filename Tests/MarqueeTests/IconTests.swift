import BitmapFonts
import MatrixCore
import Testing

@testable import Marquee
@testable import TimelineCore

/// Icons inside messages: `{icon:NAME}` is one character of the line, drawn from the
/// renderer's icon set at the line's height, scrolled and cut like the letters around it.
@Suite struct IconTests {
  /// A font with a 16-row line (14 above the baseline) and no glyphs.
  final class SixteenRows: Font {
    let name = "sixteen", ascent = 14, descent = 2
    func glyph(for scalar: Unicode.Scalar) -> Glyph? { nil }
  }

  /// The pixels of a frame's columns `x..<x+width` as `#`/`.` rows.
  func rows(_ frame: Framebuffer, x: Int, width: Int) -> [String] {
    (0..<frame.height).map { y in String((x..<(x + width)).map { frame[$0, y] ? "#" : "." }) }
  }

  func picture(_ rows: [String]) -> Framebuffer {
    var picture = Framebuffer(width: rows[0].count, height: rows.count)
    for (y, row) in rows.enumerated() {
      for (x, cell) in row.enumerated() where cell == "#" { picture[x, y] = true }
    }
    return picture
  }

  @Test func theBuiltInSetHasWhatStationsAndShopsShow() {
    let wanted = [
      "arrow-up", "arrow-down", "arrow-left", "arrow-right", "arrow-up-left", "arrow-up-right", "arrow-down-left", "arrow-down-right",
      "train", "metro", "bus", "plane", "taxi", "walk", "accessibility", "clock", "temperature", "sun", "cloud", "rain", "snow",
      "heart", "star", "check", "cross", "warning", "info", "wifi", "phone", "cup", "cart", "open", "closed", "yen", "dollar",
      "euro", "percent",
    ]
    #expect(Set(IconSet.builtIn.names) == Set(wanted))
    for name in wanted {
      let icon = IconSet.builtIn[name]!
      // Drawn for 8-pixel lines, and for 16-pixel ones.
      #expect(icon.pictures.count == 2 && icon.pictures[0].height <= 8 && (9...16).contains(icon.pictures[1].height), "\(name)")
      #expect(icon.pictures[0].litCount > 0, "\(name)")
    }
    // The 16-pixel train is its own drawing, not the 8-pixel one doubled.
    let train = IconSet.builtIn["train"]!
    #expect(train.pictures[1] != BuiltinIcons.doubled(train.pictures[0]) && train.pictures[1].width == 16)
    // The derived arrows are the drawn one turned, at both sizes.
    let big = IconSet.builtIn["arrow-left"]!.pictures[1]
    #expect(rows(big, x: 0, width: 16)[7] == "################" && rows(big, x: 0, width: 16)[0] == ".......#........")
    let up = IconSet.builtIn["arrow-up"]!.pictures[0], right = IconSet.builtIn["arrow-right"]!.pictures[0]
    #expect(rows(up, x: 0, width: 8)[0] == "...##..." && rows(right, x: 0, width: 8).map { $0.last! } == Array("...##...") )
  }

  @Test func anIconIsOneCharacterOfTheLineAtItsHeight() throws {
    let text = TextTemplate("A{icon:heart}B").expand(at: 0)
    #expect(text.count == 3 && IconText.names(in: text) == ["heart"])
    let renderer = TextRenderer()
    let strip = renderer.render(text)
    // 5x7 letters, one column between: A at 0, the 7-wide heart at 6, B at 14.
    #expect(strip.width == 5 + 1 + 7 + 1 + 5 && strip.height == 8)
    // The 6-row heart is centred on the 8-row line: rows 1 to 6.
    #expect(rows(strip, x: 6, width: 7) == [".......", ".##.##.", "#######", "#######", ".#####.", "..###..", "...#...", "......."])
    // On a 16-pixel line the 16-pixel picture is drawn.
    let tall = TextRenderer(fonts: FontChain(SixteenRows()))
    let big = tall.render(IconText.character("heart"))
    #expect(big.width == 16 && big.height == 16 && big.litCount == IconSet.builtIn["heart"]!.pictures[1].litCount)
  }

  @Test func iconsScrollWithTheText() throws {
    let content = ZoneContent(messages: ["Gleis 3 {icon:arrow-right} {icon:train}"], motion: .scroll(.init(speed: 10)))
    let timeline = try content.makeTimeline(width: 32, height: 8)
    var frame = Frame(width: 32, height: 8)
    var workspace = FrameWorkspace()
    let arrow = rows(IconSet.builtIn["arrow-right"]!.pictures[0], x: 0, width: 8)
    func arrowColumn(at t: Double) -> Int? {
      timeline.render(at: t, into: &frame, workspace: &workspace)
      return (-8..<32).first { x in rows(frame.pixels, x: x, width: 8) == arrow }
    }
    // The arrow is drawn whole, and a second later 10 columns further left (10 px/s).
    let start = try #require(arrowColumn(at: 2))
    #expect(arrowColumn(at: 3) == start - 10)
  }

  @Test func unknownNamesAreRefusedWithTheNearestNames() {
    let content = ZoneContent(messages: ["Zug {icon:trian}"])
    #expect(throws: MarqueeError.unknownIcon(UnknownIcon(name: "trian", suggestions: ["train"]))) {
      try content.makeTimeline(width: 32, height: 8)
    }
    #expect("\(MarqueeError.unknownIcon(UnknownIcon(name: "hart", suggestions: ["cart", "heart"])))"
      == "no icon named 'hart' (did you mean 'cart', 'heart'?); 'marquee icons' lists them")
  }

  @Test func doubledBracesStayTextAndEveryMessageReadsThem() throws {
    // Without placeholders of the time, a message's {{ and }} still show one brace.
    var frame = Frame(width: 64, height: 8)
    var workspace = FrameWorkspace()
    try ZoneContent(messages: ["{{icon:train}}"]).makeTimeline(width: 64, height: 8).render(at: 0, into: &frame, workspace: &workspace)
    let expected = TextRenderer().render("{icon:train}")
    #expect(rows(frame.pixels, x: 0, width: expected.width) == rows(expected, x: 0, width: expected.width))
  }

  @Test func aSetWithItsOwnIconsReplacesBuiltInOnes() throws {
    let logo = Icon(name: "logo", pictures: [picture(["##..", "####", "..##"])])
    let set = IconSet.builtIn.adding(IconSet([logo, Icon(name: "heart", pictures: [picture(["#"])])]))
    #expect(set["logo"] == logo && set["heart"]!.pictures[0].width == 1 && set["train"] != nil)
    var style = ZoneContent.Style()
    style.renderer = TextRenderer(fonts: FontChain(BuiltinFont5x7(), icons: set))
    #expect(throws: Never.self) { try ZoneContent(messages: ["{icon:logo}"], style: style).makeTimeline(width: 8, height: 8) }
  }

  /// A two-frame icon (a bar that turns): 0.2 s upright, 0.3 s flat.
  func spinner() -> (IconSet, Framebuffer, Framebuffer) {
    let upright = picture(["..#..", "..#..", "..#..", "..#..", "..#.."])
    let flat = picture([".....", ".....", "#####", ".....", "....."])
    let spin = Icon(name: "spin", picture: Picture(frames: [upright, flat], delays: [0.2, 0.3]))
    return (IconSet.builtIn.adding(IconSet([spin])), upright, flat)
  }

  func style(_ icons: IconSet) -> ZoneContent.Style {
    var style = ZoneContent.Style()
    style.renderer = TextRenderer(fonts: FontChain(BuiltinFont5x7(), icons: icons))
    return style
  }

  @Test func anAnimatedIconPlaysAtItsOwnDelaysInStillText() throws {
    let (icons, upright, flat) = spinner()
    let timeline = try ZoneContent(messages: ["{icon:spin}"], style: style(icons)).makeTimeline(width: 5, height: 8)
    var frame = Frame(width: 5, height: 8)
    var workspace = FrameWorkspace()
    func shown(_ t: Double) -> [String] {
      timeline.render(at: t, into: &frame, workspace: &workspace)
      return Array(rows(frame.pixels, x: 0, width: 5)[1...5])
    }
    let up = rows(upright, x: 0, width: 5), down = rows(flat, x: 0, width: 5)
    #expect(shown(0) == up && shown(0.19) == up && shown(0.2) == down && shown(0.49) == down && shown(0.5) == up && shown(0.75) == down)
    // Still text with an animation changes at its frames' edges, so a paced player wakes for them.
    #expect(timeline.nextChange(after: 0.1) == 0.2 && timeline.nextChange(after: 0.2) == 0.5 && timeline.nextChange(after: 0.6) == 0.7)
  }

  @Test func anAnimatedIconPlaysWhileItsLineScrollsAndCycles() throws {
    let (icons, upright, flat) = spinner()
    let content = ZoneContent(messages: ["Wait {icon:spin} please"], motion: .scroll(.init(speed: 10)), style: style(icons))
    let timeline = try content.makeTimeline(width: 32, height: 8)
    var frame = Frame(width: 32, height: 8)
    var workspace = FrameWorkspace()
    func column(of picture: Framebuffer, at t: Double) -> Int? {
      timeline.render(at: t, into: &frame, workspace: &workspace)
      let wanted = rows(picture, x: 0, width: 5)
      return (0..<27).first { x in Array(rows(frame.pixels, x: x, width: 5)[1...5]) == wanted }
    }
    // At 0.1 s the bar stands upright, at 0.3 s it lies flat, two columns further left.
    let first = try #require(column(of: upright, at: 0.1))
    #expect(column(of: flat, at: 0.3) == first - 2)
    #expect(timeline.nextChange(after: 0.15) == 0.2)
    // In cycle mode it plays while its message stands.
    let cycle = ZoneContent(messages: ["{icon:spin} A", "B"], motion: .cycle(.init(dwell: 2)), style: style(icons))
    let cycling = try cycle.makeTimeline(width: 32, height: 8)
    cycling.render(at: 0.1, into: &frame, workspace: &workspace)
    let before = frame.pixels
    cycling.render(at: 0.3, into: &frame, workspace: &workspace)
    #expect(frame.pixels != before && cycling.nextChange(after: 0.1) == 0.2)
  }
}

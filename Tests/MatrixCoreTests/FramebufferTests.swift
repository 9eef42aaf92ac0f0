import MarqueeTesting
import Testing

@testable import MatrixCore

/// A reference framebuffer: one Bool per pixel, drawn pixel by pixel, to check the
/// word-wise code against.
struct NaiveImage: Equatable {
  var width: Int, height: Int
  var pixels: [Bool]

  init(_ framebuffer: Framebuffer) {
    let w = framebuffer.width, h = framebuffer.height
    width = w
    height = h
    pixels = (0..<h).flatMap { y in (0..<w).map { x in framebuffer[x, y] } }
  }

  subscript(x: Int, y: Int) -> Bool {
    get { pixels[y * width + x] }
    set { pixels[y * width + x] = newValue }
  }

  mutating func draw(
    _ source: NaiveImage, sourceX: Int, sourceY: Int, width w: Int, height h: Int,
    atX x: Int, y: Int, mode: BlitMode
  ) {
    for row in 0..<max(0, h) {
      for column in 0..<max(0, w) {
        let sx = sourceX + column, sy = sourceY + row
        let dx = x + column, dy = y + row
        guard sx >= 0, sy >= 0, sx < source.width, sy < source.height else { continue }
        guard dx >= 0, dy >= 0, dx < width, dy < height else { continue }
        let s = source[sx, sy]
        switch mode {
        case .copy: self[dx, dy] = s
        case .or: self[dx, dy] = self[dx, dy] || s
        case .xor: self[dx, dy] = self[dx, dy] != s
        case .clear: if s { self[dx, dy] = false }
        case .and: if !s { self[dx, dy] = false }
        }
      }
    }
  }
}

func randomFramebuffer(width: Int, height: Int, using random: inout SplitMix64) -> Framebuffer {
  var framebuffer = Framebuffer(width: width, height: height)
  for y in 0..<height {
    for x in 0..<width where Bool.random(using: &random) { framebuffer[x, y] = true }
  }
  return framebuffer
}

@Suite struct FramebufferTests {
  @Test func newFramebufferIsDarkAndPixelsCanBeSetAndCleared() {
    var framebuffer = Framebuffer(width: 70, height: 3)
    #expect(framebuffer.isBlank)
    framebuffer[0, 0] = true
    framebuffer[69, 2] = true
    framebuffer[64, 1] = true
    #expect(framebuffer[0, 0] && framebuffer[69, 2] && framebuffer[64, 1])
    #expect(!framebuffer[1, 0] && !framebuffer[63, 1])
    #expect(framebuffer.litCount == 3)
    framebuffer[64, 1] = false
    #expect(!framebuffer[64, 1])
    #expect(framebuffer.litCount == 2)
  }

  /// The lit extent against a pixel-by-pixel search, at widths of one word and more.
  @Test(arguments: [1, 8, 64, 65, 130])
  func litRowsAndColumnsAreTheExtentOfTheLitPixels(width: Int) {
    var random = SplitMix64(seed: UInt64(width))
    for _ in 0..<50 {
      var fb = Framebuffer(width: width, height: 9)
      for _ in 0..<Int(random.next() % 4) { fb[Int(random.next() % UInt64(width)), Int(random.next() % 9)] = true }
      let lit = (0..<9).flatMap { y in (0..<width).filter { fb[$0, y] }.map { (x: $0, y: y) } }
      let rows = lit.isEmpty ? nil : lit.map(\.y).min()!...lit.map(\.y).max()!
      let columns = lit.isEmpty ? nil : lit.map(\.x).min()!...lit.map(\.x).max()!
      #expect(fb.litRows == rows && fb.litColumns == columns, "\(fb.text)")
    }
  }

  @Test func pointsOutsideReadDarkAndIgnoreWrites() {
    var framebuffer = Framebuffer(width: 8, height: 8)
    framebuffer[-1, 0] = true
    framebuffer[8, 0] = true
    framebuffer[0, -1] = true
    framebuffer[0, 8] = true
    #expect(framebuffer.isBlank)
    #expect(!framebuffer[-1, -1] && !framebuffer[100, 100])
  }

  @Test(arguments: [1, 7, 63, 64, 65, 130])
  func fillInvertAndClearKeepPaddingDark(width: Int) {
    var framebuffer = Framebuffer(width: width, height: 3)
    framebuffer.fill(true)
    #expect(framebuffer.litCount == width * 3)
    framebuffer.invert()
    #expect(framebuffer.isBlank)
    framebuffer.invert()
    #expect(framebuffer.litCount == width * 3)
    // Equal to one lit pixel by pixel: padding bits never leak into equality.
    var byPixel = Framebuffer(width: width, height: 3)
    for y in 0..<3 { for x in 0..<width { byPixel[x, y] = true } }
    #expect(framebuffer == byPixel)
    framebuffer.clear()
    #expect(framebuffer.isBlank)
  }

  @Test(arguments: [1, 7, 63, 64, 65, 130])
  func aRowSetAWordAtATimeIsThePixelsOfItsBits(width: Int) {
    var random = SplitMix64(seed: UInt64(width))
    var framebuffer = Framebuffer(width: width, height: 3)
    var byPixel = Framebuffer(width: width, height: 3)
    for y in 0..<3 {
      for index in 0..<framebuffer.wordsPerRow {
        let bits = random.next()
        framebuffer.setRow(y, wordAt: index, to: bits)
        // The leftmost pixel is the top bit; bits past the width are dropped.
        for bit in 0..<64 where bits >> UInt64(63 - bit) & 1 == 1 { byPixel[64 * index + bit, y] = true }
      }
    }
    #expect(framebuffer == byPixel)
    // Rows and words outside change nothing.
    framebuffer.setRow(3, wordAt: 0, to: ~0)
    framebuffer.setRow(-1, wordAt: 0, to: ~0)
    framebuffer.setRow(0, wordAt: framebuffer.wordsPerRow, to: ~0)
    framebuffer.setRow(0, wordAt: -1, to: ~0)
    #expect(framebuffer == byPixel)
  }

  @Test func supportsTheSizesSignsNeed() {
    #expect(Framebuffer(width: 1, height: 1).wordsPerRow == 1)
    var large = Framebuffer(width: 4096, height: 256)
    large[4095, 255] = true
    #expect(large.litCount == 1)
    #expect(Framebuffer.validateSize(width: -1, height: 8) != nil)
    #expect(Framebuffer.validateSize(width: 1 << 30, height: 1 << 30) != nil)
    #expect(Framebuffer.validateSize(width: 0, height: 8) == nil)
  }

  @Test func blitMatchesAPixelByPixelReferenceAtAnyOffset() {
    var random = SplitMix64(seed: 42)
    let modes: [BlitMode] = [.copy, .or, .xor, .clear, .and]
    for _ in 0..<400 {
      let destination = randomFramebuffer(
        width: Int.random(in: 1...150, using: &random), height: Int.random(in: 1...5, using: &random),
        using: &random)
      let source = randomFramebuffer(
        width: Int.random(in: 0...150, using: &random), height: Int.random(in: 0...6, using: &random),
        using: &random)
      let sx = Int.random(in: -70...70, using: &random)
      let sy = Int.random(in: -3...3, using: &random)
      let w = Int.random(in: -2...160, using: &random)
      let h = Int.random(in: -1...7, using: &random)
      let x = Int.random(in: -160...160, using: &random)
      let y = Int.random(in: -6...6, using: &random)
      let mode = modes.randomElement(using: &random)!
      var actual = destination
      actual.draw(source, sourceX: sx, sourceY: sy, width: w, height: h, atX: x, y: y, mode: mode)
      var expected = NaiveImage(destination)
      expected.draw(
        NaiveImage(source), sourceX: sx, sourceY: sy, width: w, height: h, atX: x, y: y, mode: mode)
      #expect(NaiveImage(actual) == expected, "blit \(mode) from (\(sx),\(sy)) \(w)x\(h) to (\(x),\(y))")
    }
  }

  @Test func windowCopyMatchesTheGeneralBlit() {
    var random = SplitMix64(seed: 11)
    for round in 0..<400 {
      let strip = randomFramebuffer(
        width: round % 50 == 0 ? 0 : Int.random(in: 1...300, using: &random),
        height: Int.random(in: 1...6, using: &random), using: &random)
      var window = randomFramebuffer(
        width: Int.random(in: 1...200, using: &random), height: strip.height + Int.random(in: 0...3, using: &random),
        using: &random)
      // Inside the strip, past its end (dark), and on word boundaries (no shift).
      let sourceX = round % 4 == 0
        ? 64 * Int.random(in: 0...5, using: &random) : Int.random(in: 0..<(strip.width + 130), using: &random)
      let y = Int.random(in: 0...(window.height - strip.height), using: &random)
      var expected = window
      expected.fill(x: 0, y: y, width: expected.width, height: strip.height, lit: false)
      expected.draw(strip, sourceX: sourceX, sourceY: 0, width: expected.width, height: strip.height, atX: 0, y: y)
      window.copyWindow(of: strip, sourceX: sourceX, sourceY: 0, toY: y, rows: strip.height)
      #expect(window == expected)
    }
  }

  @Test func wholeBlitWithNegativeOffsetClips() throws {
    let source = try Framebuffer(text: "##.\n.##\n")
    var destination = Framebuffer(width: 3, height: 2)
    destination.draw(source, atX: -1, y: 1)
    #expect(destination.text == "...\n#..\n")
  }

  @Test func fillRectangleClipsAndMatchesPixels() {
    var framebuffer = Framebuffer(width: 100, height: 4)
    framebuffer.fill(x: 60, y: -1, width: 10, height: 3, lit: true)
    #expect(framebuffer.litCount == 20)
    #expect(framebuffer[60, 0] && framebuffer[69, 1] && !framebuffer[70, 1] && !framebuffer[60, 2])
    framebuffer.fill(x: 65, y: 0, width: 100, height: 100, lit: false)
    #expect(framebuffer.litCount == 10)
  }

  @Test func textFormRoundTrips() throws {
    var random = SplitMix64(seed: 7)
    let framebuffer = randomFramebuffer(width: 67, height: 5, using: &random)
    let text = framebuffer.text
    #expect(text.split(separator: "\n").allSatisfy { $0.count == 67 })
    #expect(try Framebuffer(text: text) == framebuffer)
  }

  @Test func textFormErrorsNameTheLine() {
    #expect(throws: FramebufferTextError(line: 2, reason: "row has 2 pixels, expected 3")) {
      try Framebuffer(text: "#.#\n##\n")
    }
    #expect(throws: FramebufferTextError(
      line: 1, reason: "unexpected character 'x' at column 2 (use '#' or '.')")) {
      try Framebuffer(text: "#x#\n")
    }
  }

  @Test func croppedReadsOutsideAsDark() throws {
    let framebuffer = try Framebuffer(text: "##\n##\n")
    #expect(framebuffer.cropped(x: 1, y: 1, width: 2, height: 2).text == "#.\n..\n")
  }

  @Test func snapshotOfAPattern() {
    var framebuffer = Framebuffer(width: 12, height: 5)
    framebuffer.fill(x: 0, y: 0, width: 12, height: 5, lit: true)
    framebuffer.fill(x: 1, y: 1, width: 10, height: 3, lit: false)
    framebuffer[5, 2] = true
    expectSnapshot(framebuffer, named: "box")
  }
}

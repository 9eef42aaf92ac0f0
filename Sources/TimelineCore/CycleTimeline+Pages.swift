import FontCore
import MatrixCore

extension CycleTimeline {
  /// Pages (翻页): each message wrapped into lines as wide as the area (``LineBreaker``),
  /// the lines stacked into pages as tall as it, each line aligned across it by the
  /// settings; the pages take turns like cycled messages, with the transition between them.
  /// A message that reads right to left is wrapped in reading order and each of its lines
  /// reads right to left, starting at the right by default.
  ///
  /// - Throws: ``MarqueeError/textTallerThanSign(textHeight:signHeight:)`` when one line is
  ///   taller than the area, ``MarqueeError/contentTooLarge(_:)`` for a page that cannot be.
  public convenience init(
    pagesOf messages: [String], renderer: TextRenderer, width: Int, height: Int, lineSpacing: Int = 0,
    settings: CycleSettings = CycleSettings()
  ) throws(MarqueeError) {
    var cards: [MessageCard] = []
    var pixels = 0
    for message in messages.isEmpty ? [""] : messages {
      // Every line of a message reads in the direction of the message's first letter.
      var lineRenderer = renderer
      lineRenderer.direction = renderer.paragraphDirection(message)
      let rightToLeft = lineRenderer.direction == .rtl
      let layouts = LineBreaker.lines(message, width: width, renderer: lineRenderer).map(lineRenderer.layout)
      let lineHeight = layouts.map { $0.height }.max() ?? renderer.lineHeight
      guard lineHeight <= height else { throw .textTallerThanSign(textHeight: lineHeight, signHeight: height) }
      let perPage = max(1, (height + lineSpacing) / (lineHeight + lineSpacing))
      for start in stride(from: 0, to: layouts.count, by: perPage) {
        let lines = layouts[start..<min(layouts.count, start + perPage)]
        let pageHeight = lines.count * lineHeight + (lines.count - 1) * lineSpacing
        if let problem = Framebuffer.validateSize(width: width, height: pageHeight) { throw .contentTooLarge(problem) }
        pixels += width * pageHeight
        try MarqueeError.checkContent(pixels: pixels, "the pages")
        var page = Framebuffer(width: width, height: pageHeight)
        var animations: [TextRenderer.PlacedAnimation] = []
        for (row, layout) in lines.enumerated() {
          // Lines of one page share a height; each stands on its row's bottom.
          let x = settings.alignment.offset(contentWidth: layout.width, areaWidth: width, rightToLeft: rightToLeft)
          let y = row * (lineHeight + lineSpacing) + lineHeight - layout.height
          page.draw(renderer.draw(layout), atX: x, y: y, mode: .or)
          animations += layout.animations.map { $0.moved(x, y) }
        }
        var card = MessageCard(strip: page, width: width, height: height, alignment: .left, verticalAlignment: settings.verticalAlignment)
        card.animations = animations
        cards.append(card)
      }
    }
    self.init(cards: cards, width: width, height: height, settings: settings)
  }
}

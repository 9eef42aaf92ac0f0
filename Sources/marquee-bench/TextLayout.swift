import Foundation
import BitmapFonts
import Platform
import Marquee
import MatrixCore

/// What laying a message out costs, once per message (never per frame): a 1,000-character
/// mixed Arabic-Latin message through normalisation, joining, the bidirectional algorithm
/// and glyph placement, against 1,000 Latin characters in the same run; then frames of
/// the laid-out right-to-left ribbon and pages, whose allocations must be 0.
struct TextLayout {
  static let unifont = "/usr/share/unifont/unifont.hex"

  /// A sign's kind of Arabic: prices, a brand name, brackets, numbers.
  static func mixedMessage(length: Int) -> String {
    let pieces = ["عرض خاص", " ", "iPhone 15", " ", "بسعر", " ", "3,499", " ", "درهم", " ", "(لفترة محدودة)", " - ", "Apple Store", " ", "السلام عليكم", " "]
    var text = ""
    var index = 0
    while text.count < length {
      text += pieces[index % pieces.count]
      index += 1
    }
    return String(text.prefix(length))
  }

  func run() {
    guard let font = try? FontFile.load(path: TextLayout.unifont).font else {
      print("marquee-bench scenario=layout skipped=needs-debian-package-unifont")
      return
    }
    let renderer = TextRenderer(fonts: FontChain(font))
    let mixed = TextLayout.mixedMessage(length: 1000)
    let latin = String(String(repeating: Scenarios.lumaMessage + " ", count: 20).prefix(1000))
    // Seven rounds of ten layouts each; the median round, and the spread of all seven.
    func rounds(_ text: String) -> [Double] {
      _ = renderer.layout(text)
      return (0..<7).map { _ in
        let start = Measure.monotonic()
        for _ in 0..<10 { _ = renderer.draw(renderer.layout(text)) }
        return Double(Measure.monotonic() - start) / 10 / 1000
      }.sorted()
    }
    let mixedTimes = rounds(mixed), latinTimes = rounds(latin)
    var line = ResultLine(scenario: "layout", width: renderer.measure(mixed), height: renderer.lineHeight)
    line.add("characters", mixed.count)
    line.add("us_per_layout", mixedTimes[3], decimals: 1)
    line.add("us_min", mixedTimes[0], decimals: 1)
    line.add("us_max", mixedTimes[6], decimals: 1)
    line.add("latin_us_per_layout", latinTimes[3], decimals: 1)
    line.add("ratio_to_latin", mixedTimes[3] / latinTimes[3], decimals: 2)
    line.print()
    framesOf(renderer: renderer, mixed: mixed)
  }

  /// Frames of the laid-out right-to-left content: time and allocations per frame.
  func framesOf(renderer: TextRenderer, mixed: String) {
    let bench = Scenarios(width: 128, height: 32, frames: 2000, message: mixed)
    do {
      let ribbon = try RibbonTimeline(
        messages: [mixed], renderer: renderer, width: 128, height: 32, settings: MarqueeSettings(alwaysScrolls: true, speed: 100))
      bench.composeAndEncode("layout-rtl-ribbon", ribbon, frames: 2000)
      let pages = try CycleTimeline(
        pagesOf: [mixed], renderer: renderer, width: 128, height: 32, settings: CycleSettings(dwell: 0.05, transition: .scrollUp))
      bench.composeAndEncode("layout-rtl-pages", pages, frames: 2000)
    } catch {
      print("marquee-bench scenario=layout-rtl error=\(error)")
    }
  }
}

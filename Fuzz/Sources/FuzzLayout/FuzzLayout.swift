import BitmapFonts

/// libFuzzer entry point: any bytes as UTF-8 text to lay out and draw, in every paragraph
/// direction, and through the writing-system steps on their own: NFC (which must be
/// idempotent), Arabic joining, the bidirectional algorithm (whose order must be a
/// permutation of the scalars it keeps) and line breaking.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: min(size, 4096)), as: UTF8.self)
  let renderer = TextRenderer(fonts: FontChain([BuiltinFont5x7(), BuiltinFont3x5()]))
  let strip = renderer.render(text)
  precondition(strip.width == renderer.measure(text), "measure and render disagree")
  _ = LineBreaker.lines(String(text.prefix(128)), width: 24, renderer: renderer)
  let scalars = Array(text.unicodeScalars)
  for direction in TextDirection.allCases {
    let paragraph = BidiParagraph(scalars, direction: direction)
    let kept = paragraph.levels.indices.filter { paragraph.levels[$0] != BidiParagraph.removed }
    precondition(paragraph.visualOrder.sorted() == kept, "the visual order is not a permutation")
    precondition(paragraph.levels.allSatisfy { $0 == BidiParagraph.removed || $0 <= 126 }, "a level beyond the deepest")
  }
  _ = ReadingOrder(text, direction: .rtl)
  let normalised = Normalization.nfc(text.unicodeScalars)
  precondition(Normalization.nfc(normalised) == normalised, "NFC is not idempotent")
  _ = ArabicJoining.join(normalised)
  return 0
}

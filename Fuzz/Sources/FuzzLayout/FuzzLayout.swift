import BitmapFonts

/// libFuzzer entry point: any bytes as UTF-8 text to lay out and draw.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: min(size, 4096)), as: UTF8.self)
  let renderer = TextRenderer(fonts: FontChain([BuiltinFont5x7(), BuiltinFont3x5()]))
  let strip = renderer.render(text)
  precondition(strip.width == renderer.measure(text), "measure and render disagree")
  return 0
}

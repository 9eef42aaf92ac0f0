import BitmapFonts

/// libFuzzer entry point: any bytes as a BDF file must give a font or an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let font = try? BDFFont(text: bytes, name: "fuzz", path: "fuzz.bdf") {
    _ = TextRenderer(fonts: FontChain(font)).render("Ag中\u{301}")
  }
  return 0
}

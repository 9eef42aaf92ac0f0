import BitmapFonts

/// libFuzzer entry point: any bytes as an X11 PCF font (glyphs decoded lazily, so lookups
/// are part of the target).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let font = try? PCFFont(data: bytes, name: "fuzz", path: "fuzz.pcf") {
    for code in [0x0, 0x41, 0xFF, 0x4E2D, 0xFFFD, 0xFFFF] { _ = font.glyph(for: Unicode.Scalar(UInt32(code))!) }
  }
  return 0
}

import BitmapFonts

/// libFuzzer entry point: any bytes as a Unifont .hex file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let font = try? HexFont(data: bytes, name: "fuzz", path: "fuzz.hex") {
    for code in [0x41, 0x4E2D, 0x301, 0x10000] { _ = font.glyph(for: Unicode.Scalar(UInt32(code))!) }
  }
  return 0
}

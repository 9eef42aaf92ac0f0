import BitmapFonts

/// libFuzzer entry point: any bytes as a PSF1/PSF2 console font.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let font = try? PSFFont(data: bytes, name: "fuzz", path: "fuzz.psf") {
    _ = TextRenderer(fonts: FontChain(font)).render("Hé€")
  }
  return 0
}

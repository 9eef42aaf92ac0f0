import BitmapFonts

/// libFuzzer entry point: any bytes as a picture file (PNG, GIF, PBM or XBM by their first
/// bytes).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  _ = try? PictureFile.decode(bytes, path: "fuzz")
  return 0
}

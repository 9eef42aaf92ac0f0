import BitmapFonts

/// libFuzzer entry point: any bytes as a picture file (PNG, GIF, PBM or XBM by their first
/// bytes). A picture that decodes holds no more pixels than its limit, all frames counted.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let picture = try? PictureFile.decode(bytes, path: "fuzz") else { return 0 }
  let pixels = picture.frames.reduce(0) { $0 + $1.width * $1.height }
  if pixels > PictureLimits.maximumPixels { fatalError("a picture of \(pixels) pixels decoded") }
  return 0
}

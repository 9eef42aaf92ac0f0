import BitmapFonts

/// libFuzzer entry point: any bytes as a gzip file, output capped at 1 MiB.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  _ = try? Gzip.decompress(bytes, limit: 1 << 20)
  return 0
}

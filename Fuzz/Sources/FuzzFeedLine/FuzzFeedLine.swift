import MarqueeCLI

/// libFuzzer entry point: any bytes as a `--stdin` line (plain text or a JSON object).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  FeedLineCheck.process(String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
  return 0
}

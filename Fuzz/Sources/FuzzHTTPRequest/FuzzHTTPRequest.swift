import MarqueeCLI

/// libFuzzer entry point: any bytes as what a client sends `marquee serve`, read by the
/// server's request parser as it reads a connection.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  HTTPRequestCheck.process(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}

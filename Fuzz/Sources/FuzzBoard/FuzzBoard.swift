import Drivers

/// libFuzzer entry point: any bytes as a board file; a board that loads is also encoded.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  if let board = try? Board(json: text, path: "fuzz.json"), board.chipCount <= 64 {
    var encoder = MAX7219Encoder(board: board)
    var output = SPITransactions()
    encoder.startUp(into: &output)
  }
  return 0
}

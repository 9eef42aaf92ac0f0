import Drivers
import MatrixCore

/// libFuzzer entry point: any bytes as a board file of any family; a small board that
/// loads is also started up and sent a lit frame through its encoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let board = try? SignBoard(json: text, path: "fuzz.json"), board.width * board.height <= 4096 else { return 0 }
  var frame = Frame(width: board.width, height: board.height)
  frame.pixels.fill(true)
  switch board {
  case .max7219(let board):
    var encoder = MAX7219Encoder(board: board)
    var output = SPITransactions()
    encoder.startUp(into: &output)
    encoder.encode(frame, into: &output)
  case .ht16k33(let board):
    var encoder = HT16K33Encoder(board: board)
    var output = I2CWrites()
    encoder.startUp(into: &output)
    encoder.encode(frame, into: &output)
  case .pixels(let board):
    var encoder = PixelEncoder(board: board, color: RGBColor(red: 255, green: 255, blue: 255))
    var output = SPITransactions()
    encoder.encode(frame, into: &output)
  case .hub12(let board):
    var encoder = HUB12Encoder(board: board)
    var cycle = HUB12Cycle()
    encoder.encode(frame, into: &cycle)
  }
  return 0
}

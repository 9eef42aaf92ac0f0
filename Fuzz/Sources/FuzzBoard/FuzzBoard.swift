import Drivers
import MatrixCore

/// A screen that takes frames and keeps nothing.
struct NullScreen: Display {
  let width: Int, height: Int
  var wantsEveryFrame: Bool { false }
  mutating func show(_ frame: Frame, changed: Bool) throws {}
  mutating func shutdown() throws {}
}

/// Shows one lit frame and shuts the display down.
struct LitFrame: DisplayVisitor {
  mutating func visit<D: Display>(_ display: inout D) throws {
    var frame = Frame(width: display.width, height: display.height)
    frame.pixels.fill(true)
    try display.show(frame, changed: true)
    try display.shutdown()
  }
}

/// libFuzzer entry point: any bytes as a board file of any family; a small board that
/// loads is also started up and sent a lit frame through its family's encoder and the
/// emulator of its chips.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let board = try? SignBoard(json: text, path: "fuzz.json"), board.width * board.height <= 4096 else { return 0 }
  var visitor = LitFrame()
  try? board.family.emulate(on: NullScreen(width: board.width, height: board.height), BoardSettings(), &visitor)
  _ = board.units
  _ = board.devices
  return 0
}

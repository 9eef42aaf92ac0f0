import HTTP

/// libFuzzer entry point: any bytes as what a client sends `marquee serve`, through a
/// connection's input as the server reads it: in pieces (the first byte sets their size,
/// 1 to 256, as a client's sends split a stream), pipelined, then a half-close.
///
/// Checks what the server relies on: the input never holds more than its capacity, and a
/// full input always holds a request or an error (so a connection that stops being read
/// while full cannot wait forever).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let first = bytes.first else { return 0 }
  let piece = Int(first) + 1
  var input = HTTPInput()
  var offset = 1
  reading: while true {
    taking: while true {
      switch input.next() {
      case .request: continue
      case .waiting: break taking
      case .failure, .finished: break reading
      }
    }
    if offset >= bytes.count {
      input.end()
      continue
    }
    precondition(input.room > 0, "a full input holds neither a request nor an error")
    let end = min(bytes.count, offset + min(piece, input.room))
    input.append(Array(bytes[offset..<end]))
    offset = end
    precondition(input.count <= HTTPInput.capacity)
  }
  return 0
}

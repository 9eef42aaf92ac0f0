import Platform

/// Reads lines from a file descriptor, bounding each line's length.
package struct LineReader {
  package enum Line {
    case text(String)
    case tooLong
  }

  let descriptor: Int32
  let maximumLength: Int
  var buffer: [UInt8] = []
  var start = 0
  var ended = false

  package init(descriptor: Int32, maximumLength: Int) {
    self.descriptor = descriptor
    self.maximumLength = maximumLength
  }

  package mutating func next() -> Line? {
    var skipping = false
    while true {
      if let newline = buffer[start...].firstIndex(of: 0x0A) {
        let bytes = buffer[start..<newline]
        start = newline + 1
        if skipping { return .tooLong }
        // Invalid UTF-8 becomes U+FFFD.
        return .text(String(decoding: bytes, as: UTF8.self))
      }
      if buffer.count - start > maximumLength {
        skipping = true
        buffer.removeAll(keepingCapacity: true)
        start = 0
      }
      if ended {
        guard start < buffer.count else { return nil }
        let bytes = buffer[start...]
        start = buffer.count
        return skipping ? .tooLong : .text(String(decoding: bytes, as: UTF8.self))
      }
      if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = retryingOnInterrupt { chunk.withUnsafeMutableBytes { FileBytes.read(descriptor, into: $0.baseAddress!, count: $0.count) } }
      if count <= 0 {
        ended = true
        continue
      }
      buffer += chunk[0..<count]
    }
  }
}

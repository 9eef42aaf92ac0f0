import HTTP
import MatrixCore
import SignService

/// One client's event stream: the state after each change, and each new frame as the LEDs
/// show it (dark while the sign is off).
final class SignEvents: HTTPEventSource, @unchecked Sendable {
  let session: SignSession
  var sentGeneration: UInt64 = .max
  var sentOff: Bool?
  var sentChanges = -1
  var pixels: Framebuffer

  init(session: SignSession) {
    self.session = session
    pixels = Framebuffer(width: session.width, height: session.height)
  }

  func next(now: Int64) -> [UInt8]? {
    var bytes: [UInt8] = []
    let changes = session.changes.count
    if changes != sentChanges {
      sentChanges = changes
      bytes += Array("event: state\ndata: \(session.state().text)\n\n".utf8)
    }
    let (generation, brightness, off) = session.frame(into: &pixels)
    if generation != sentGeneration || off != sentOff {
      (sentGeneration, sentOff) = (generation, off)
      bytes += Array("event: frame\ndata: \(SignEvents.frameEvent(pixels, brightness: brightness, on: !off))\n\n".utf8)
    }
    return bytes.isEmpty ? nil : bytes
  }

  /// A frame as an event: size, brightness, whether the LEDs are lit, and each row's bits
  /// in hex (MSB leftmost).
  static func frameEvent(_ pixels: Framebuffer, brightness: Double, on: Bool) -> String {
    let rows = SignEvents.hexRows(pixels).map { "\"" + $0 + "\"" }
    let level = (brightness * 1000).rounded() / 1000
    return "{\"width\":\(pixels.width),\"height\":\(pixels.height),\"brightness\":\(level),\"on\":\(on),\"rows\":[\(rows.joined(separator: ","))]}"
  }

  /// Each row's bits in hex, two digits per 8 pixels, the leftmost pixel in the top bit:
  /// how the event stream, the icons' previews and the page draw pixels.
  static func hexRows(_ pixels: Framebuffer) -> [String] {
    let digits = Array("0123456789abcdef")
    var rows: [String] = []
    rows.reserveCapacity(pixels.height)
    for y in 0..<pixels.height {
      var row = ""
      for byteStart in stride(from: 0, to: pixels.width, by: 8) {
        var byte = 0
        for bit in 0..<8 where byteStart + bit < pixels.width && pixels[byteStart + bit, y] { byte |= 0x80 >> bit }
        row.append(digits[byte >> 4])
        row.append(digits[byte & 15])
      }
      rows.append(row)
    }
    return rows
  }
}

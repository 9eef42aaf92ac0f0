import MQTT

/// libFuzzer entry point: any bytes as what a broker sends the sign's MQTT client, in pieces
/// (the first byte sets their size, 1 to 256, as TCP splits a stream).
///
/// Checks what the client relies on: decoding ends in packets or an error, never a crash or
/// a hang; the buffer never holds more than one packet over the limit's bound; and every
/// packet decoded encodes to bytes that decode to the same packet (an oversized PUBLISH,
/// skipped, is only reported).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let first = bytes.first else { return 0 }
  let piece = Int(first) + 1
  var decoder = MQTTDecoder(limit: 4096)
  var offset = 1
  while offset < bytes.count {
    let end = min(bytes.count, offset + piece)
    decoder.append(bytes[offset..<end])
    offset = end
    do {
      while let packet = try decoder.next() {
        // An oversized PUBLISH is reported without its payload: nothing to round-trip.
        if case .oversized(_, _, _, let length) = packet {
          precondition(length > decoder.limit, "a packet of \(length) bytes reported as oversized")
          continue
        }
        var again = MQTTDecoder(limit: 1 << 20)
        again.append(packet.bytes)
        precondition((try? again.next()) == packet, "a decoded packet does not round-trip: \(packet)")
      }
    } catch {
      return 0
    }
    precondition(decoder.buffered <= 4096 + 5 + piece, "the decoder holds \(decoder.buffered) bytes")
  }
  return 0
}

/// Protocol Buffers' wire format, read field by field: what the GTFS-Realtime reader walks.
/// Every length is checked against what is left, and nesting is bounded.
public struct ProtobufReader {
  /// A field's value as the wire carries it.
  public enum Value: Equatable {
    case varint(UInt64)
    case fixed64(UInt64)
    case bytes(ArraySlice<UInt8>)
    case fixed32(UInt32)
  }

  /// Why a message cannot be read.
  public struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  let bytes: ArraySlice<UInt8>

  public init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

  /// Calls `field` with each field's number and value, in order.
  ///
  /// - Throws: ``Malformed`` for a varint over 10 bytes, a length past the end, or a wire
  ///   type protobuf does not have (groups included: proto3 and GTFS-Realtime use none).
  public func fields(_ field: (Int, Value) throws(Malformed) -> Void) throws(Malformed) {
    var index = bytes.startIndex
    func varint() throws(Malformed) -> UInt64 {
      var result: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        guard index < bytes.endIndex else { throw Malformed(description: "a number runs past the end of the message") }
        let byte = bytes[index]
        index += 1
        guard shift < 64 else { throw Malformed(description: "a number longer than 10 bytes") }
        result |= UInt64(byte & 0x7F) << shift
        if byte & 0x80 == 0 { return result }
        shift += 7
      }
    }
    func take(_ count: Int) throws(Malformed) -> ArraySlice<UInt8> {
      guard count >= 0, bytes.endIndex - index >= count else { throw Malformed(description: "a field runs past the end of the message") }
      defer { index += count }
      return bytes[index..<(index + count)]
    }
    while index < bytes.endIndex {
      let key = try varint()
      let number = Int(truncatingIfNeeded: key >> 3)
      guard number > 0 else { throw Malformed(description: "field number 0") }
      switch key & 7 {
      case 0: try field(number, .varint(try varint()))
      case 1: try field(number, .fixed64(try take(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
      case 2:
        let length = try varint()
        guard length <= UInt64(Int.max) else { throw Malformed(description: "a length too large") }
        try field(number, .bytes(try take(Int(length))))
      case 5: try field(number, .fixed32(try take(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }))
      default: throw Malformed(description: "wire type \(key & 7), which protobuf messages here do not use")
      }
    }
  }
}

extension ProtobufReader.Value {
  /// The value as a signed 64-bit integer (int64 and int32 fields), or nil for another wire type.
  var int64: Int64? {
    if case .varint(let raw) = self { return Int64(bitPattern: raw) }
    return nil
  }

  /// The value as text (a string field), or nil.
  var text: String? {
    if case .bytes(let raw) = self { return String(decoding: raw, as: UTF8.self) }
    return nil
  }

  /// The value's bytes (an embedded message), or nil.
  var message: ArraySlice<UInt8>? {
    if case .bytes(let raw) = self { return raw }
    return nil
  }
}

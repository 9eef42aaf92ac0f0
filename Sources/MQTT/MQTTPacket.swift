/// The MQTT 3.1.1 packets a sign's client sends and receives (OASIS standard, section 3),
/// as values, with their encodings: pure, so they are tested byte for byte and fuzzed.
public enum MQTTPacket: Sendable, Equatable {
  case connect(Connect)
  case connectAcknowledgement(sessionPresent: Bool, returnCode: UInt8)
  case publish(Message, packetID: UInt16?)
  case publishAcknowledgement(packetID: UInt16)
  case subscribe(packetID: UInt16, topics: [(filter: String, qos: UInt8)])
  /// Each topic's granted QoS, or 0x80 for a refusal.
  case subscribeAcknowledgement(packetID: UInt16, granted: [UInt8])
  case unsubscribe(packetID: UInt16, filters: [String])
  case unsubscribeAcknowledgement(packetID: UInt16)
  /// A PUBLISH larger than the decoder's limit: its topic, QoS and packet ID were read (to
  /// acknowledge it), the rest of its `length` bytes are skipped as they come.
  case oversized(topic: String, qos: UInt8, packetID: UInt16?, length: Int)
  case pingRequest
  case pingResponse
  case disconnect

  /// A CONNECT's fields.
  public struct Connect: Sendable, Equatable {
    public var clientID: String
    public var keepAlive: UInt16
    public var cleanSession = true
    public var username: String?
    public var password: String?
    /// The last will: published by the broker when the connection is lost.
    public var will: Message?

    public init(clientID: String, keepAlive: UInt16, username: String? = nil, password: String? = nil, will: Message? = nil) {
      self.clientID = clientID
      self.keepAlive = keepAlive
      self.username = username
      self.password = password
      self.will = will
    }
  }

  /// An application message.
  public struct Message: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: UInt8
    public var retain: Bool
    /// Set on a QoS 1 message sent again.
    public var duplicate = false

    public init(topic: String, payload: [UInt8], qos: UInt8 = 0, retain: Bool = false) {
      self.topic = topic
      self.payload = payload
      self.qos = qos
      self.retain = retain
    }
  }

  public static func == (a: MQTTPacket, b: MQTTPacket) -> Bool {
    switch (a, b) {
    case (.subscribe(let i, let x), .subscribe(let j, let y)):
      i == j && x.count == y.count && zip(x, y).allSatisfy { $0.filter == $1.filter && $0.qos == $1.qos }
    case (.connect(let x), .connect(let y)): x == y
    case (.connectAcknowledgement(let s, let c), .connectAcknowledgement(let t, let d)): s == t && c == d
    case (.publish(let m, let i), .publish(let n, let j)): m == n && i == j
    case (.publishAcknowledgement(let i), .publishAcknowledgement(let j)): i == j
    case (.subscribeAcknowledgement(let i, let g), .subscribeAcknowledgement(let j, let h)): i == j && g == h
    case (.unsubscribe(let i, let x), .unsubscribe(let j, let y)): i == j && x == y
    case (.unsubscribeAcknowledgement(let i), .unsubscribeAcknowledgement(let j)): i == j
    case (.oversized(let t, let q, let i, let l), .oversized(let u, let r, let j, let m)): t == u && q == r && i == j && l == m
    case (.pingRequest, .pingRequest), (.pingResponse, .pingResponse), (.disconnect, .disconnect): true
    default: false
    }
  }

  /// What a CONNACK return code means (section 3.2.2.3).
  public static func refusal(_ code: UInt8) -> String {
    switch code {
    case 1: "the broker does not speak MQTT 3.1.1"
    case 2: "the broker refused the client identifier"
    case 3: "the broker is unavailable"
    case 4: "the broker refused the user name or password"
    case 5: "the broker says this client is not authorised"
    default: "the broker refused the connection (return code \(code))"
    }
  }

  // MARK: Encoding

  /// The packet's bytes.
  public var bytes: [UInt8] {
    var body: [UInt8] = []
    let first: UInt8
    switch self {
    case .connect(let connect):
      first = 0x10
      body += MQTTPacket.string("MQTT") + [4]
      var flags: UInt8 = connect.cleanSession ? 0x02 : 0
      if let will = connect.will { flags |= 0x04 | (will.qos << 3) | (will.retain ? 0x20 : 0) }
      if connect.password != nil { flags |= 0x40 }
      if connect.username != nil { flags |= 0x80 }
      body += [flags] + MQTTPacket.number(connect.keepAlive) + MQTTPacket.string(connect.clientID)
      if let will = connect.will { body += MQTTPacket.string(will.topic) + MQTTPacket.number(UInt16(will.payload.count)) + will.payload }
      if let username = connect.username { body += MQTTPacket.string(username) }
      if let password = connect.password { body += MQTTPacket.string(password) }
    case .connectAcknowledgement(let present, let code):
      first = 0x20
      body = [present ? 1 : 0, code]
    case .publish(let message, let packetID):
      first = 0x30 | (message.duplicate ? 0x08 : 0) | (message.qos << 1) | (message.retain ? 1 : 0)
      body = MQTTPacket.string(message.topic) + (packetID.map(MQTTPacket.number) ?? []) + message.payload
    case .publishAcknowledgement(let packetID):
      first = 0x40
      body = MQTTPacket.number(packetID)
    case .subscribe(let packetID, let topics):
      first = 0x82
      body = MQTTPacket.number(packetID)
      for topic in topics { body += MQTTPacket.string(topic.filter) + [topic.qos] }
    case .subscribeAcknowledgement(let packetID, let granted):
      first = 0x90
      body = MQTTPacket.number(packetID) + granted
    case .unsubscribe(let packetID, let filters):
      first = 0xA2
      body = MQTTPacket.number(packetID)
      for filter in filters { body += MQTTPacket.string(filter) }
    case .unsubscribeAcknowledgement(let packetID):
      first = 0xB0
      body = MQTTPacket.number(packetID)
    case .oversized(let topic, let qos, let packetID, _):
      // Written as the PUBLISH it began as, without its payload (tests make one this way).
      first = 0x30 | (qos << 1)
      body = MQTTPacket.string(topic) + (packetID.map(MQTTPacket.number) ?? [])
    case .pingRequest: first = 0xC0
    case .pingResponse: first = 0xD0
    case .disconnect: first = 0xE0
    }
    return [first] + MQTTPacket.remainingLength(body.count) + body
  }

  static func number(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

  static func string(_ text: String) -> [UInt8] {
    let utf8 = Array(text.utf8.prefix(65_535))
    return number(UInt16(utf8.count)) + utf8
  }

  /// The variable-length "remaining length" (section 2.2.3): 7 bits a byte, low first.
  static func remainingLength(_ count: Int) -> [UInt8] {
    var value = count
    var bytes: [UInt8] = []
    repeat {
      var byte = UInt8(value % 128)
      value /= 128
      if value > 0 { byte |= 0x80 }
      bytes.append(byte)
    } while value > 0
    return bytes
  }
}

/// Why bytes from a broker are not an MQTT 3.1.1 packet.
public struct MQTTProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
  public var description: String
  init(_ description: String) { self.description = description }
}

/// Turns the bytes a broker sends into packets, however they are split across reads.
///
/// A PUBLISH larger than ``limit`` does not end the connection: once its topic and packet
/// ID are in, it comes out as ``MQTTPacket/oversized(topic:qos:packetID:length:)`` (so the
/// client can acknowledge and count it), and the rest of its bytes are dropped as they
/// arrive, never held. Any other packet over the limit, or a malformed one, is an error
/// (the connection is then closed).
public struct MQTTDecoder: Sendable {
  var buffer: [UInt8] = []
  /// Bytes of an oversized packet still to come and be dropped.
  var skipping = 0
  /// The largest packet accepted, in bytes.
  public let limit: Int

  public init(limit: Int = MQTTDecoder.defaultLimit) { self.limit = limit }

  /// The largest packet a sign takes by default: 256 KiB.
  public static let defaultLimit = 256 * 1024

  /// Bytes held, not yet a whole packet.
  public var buffered: Int { buffer.count }

  /// Adds bytes read from the connection.
  public mutating func append(_ bytes: some Collection<UInt8>) {
    var rest = bytes[...]
    if skipping > 0 {
      let dropped = min(skipping, rest.count)
      skipping -= dropped
      rest = rest.dropFirst(dropped)
    }
    buffer.append(contentsOf: rest)
  }

  /// The next whole packet, or nil until more bytes come.
  public mutating func next() throws(MQTTProtocolError) -> MQTTPacket? {
    guard skipping == 0, buffer.count >= 2 else { return nil }
    var length = 0, multiplier = 1, index = 1
    while true {
      guard index < buffer.count else { return nil }
      let byte = buffer[index]
      length += Int(byte & 0x7F) * multiplier
      index += 1
      if byte & 0x80 == 0 { break }
      multiplier *= 128
      guard index < 5 else { throw MQTTProtocolError("a remaining length longer than four bytes") }
    }
    let first = buffer[0]
    if length > limit {
      guard first >> 4 == 3 else { throw MQTTProtocolError("a packet of \(length) bytes, over the limit of \(limit)") }
      return try oversized(first, headerLength: index, length: length)
    }
    guard buffer.count >= index + length else { return nil }
    let body = Array(buffer[index..<(index + length)])
    buffer.removeFirst(index + length)
    return try MQTTDecoder.packet(first, body)
  }

  /// An oversized PUBLISH, once its topic and packet ID are in: the bytes held of it go,
  /// and the rest are skipped as they come.
  mutating func oversized(_ first: UInt8, headerLength: Int, length: Int) throws(MQTTProtocolError) -> MQTTPacket? {
    let qos = (first >> 1) & 3
    guard qos < 3 else { throw MQTTProtocolError("a PUBLISH with QoS 3") }
    guard buffer.count >= headerLength + 2 else { return nil }
    let topicLength = Int(buffer[headerLength]) << 8 | Int(buffer[headerLength + 1])
    let needed = 2 + topicLength + (qos > 0 ? 2 : 0)
    guard needed <= length else { throw MQTTProtocolError("a PUBLISH whose topic is cut short") }
    guard buffer.count >= headerLength + needed else { return nil }
    let start = headerLength + 2
    guard let topic = String(validating: buffer[start..<(start + topicLength)], as: UTF8.self), MQTTTopic.problem(topic, filter: false) == nil else {
      throw MQTTProtocolError("a PUBLISH whose topic is not a valid topic name")
    }
    let packetID = qos > 0 ? UInt16(buffer[start + topicLength]) << 8 | UInt16(buffer[start + topicLength + 1]) : nil
    let held = min(buffer.count, headerLength + length)
    skipping = headerLength + length - held
    buffer.removeFirst(held)
    return .oversized(topic: topic, qos: qos, packetID: packetID, length: length)
  }

  static func packet(_ first: UInt8, _ body: [UInt8]) throws(MQTTProtocolError) -> MQTTPacket {
    let flags = first & 0x0F
    func number(_ at: Int) throws(MQTTProtocolError) -> UInt16 {
      guard at + 1 < body.count else { throw MQTTProtocolError("a packet cut short") }
      return UInt16(body[at]) << 8 | UInt16(body[at + 1])
    }
    switch first >> 4 {
    case 2:
      guard body.count == 2, flags == 0, body[0] & 0xFE == 0 else { throw MQTTProtocolError("a malformed CONNACK") }
      return .connectAcknowledgement(sessionPresent: body[0] == 1, returnCode: body[1])
    case 3:
      let qos = (flags >> 1) & 3
      guard qos < 3 else { throw MQTTProtocolError("a PUBLISH with QoS 3") }
      let topicLength = Int(try number(0))
      guard 2 + topicLength <= body.count else { throw MQTTProtocolError("a PUBLISH whose topic is cut short") }
      guard let topic = String(validating: body[2..<(2 + topicLength)], as: UTF8.self), MQTTTopic.problem(topic, filter: false) == nil
      else { throw MQTTProtocolError("a PUBLISH whose topic is not a valid topic name") }
      var at = 2 + topicLength
      var packetID: UInt16?
      if qos > 0 {
        packetID = try number(at)
        at += 2
      }
      var message = MQTTPacket.Message(topic: topic, payload: Array(body[at...]), qos: qos, retain: flags & 1 != 0)
      message.duplicate = flags & 8 != 0
      return .publish(message, packetID: packetID)
    case 4:
      guard body.count == 2, flags == 0 else { throw MQTTProtocolError("a malformed PUBACK") }
      return .publishAcknowledgement(packetID: try number(0))
    case 9:
      guard body.count >= 3, flags == 0 else { throw MQTTProtocolError("a malformed SUBACK") }
      let granted = Array(body[2...])
      guard granted.allSatisfy({ $0 <= 2 || $0 == 0x80 }) else { throw MQTTProtocolError("a SUBACK with an unknown return code") }
      return .subscribeAcknowledgement(packetID: try number(0), granted: granted)
    case 11:
      guard body.count == 2, flags == 0 else { throw MQTTProtocolError("a malformed UNSUBACK") }
      return .unsubscribeAcknowledgement(packetID: try number(0))
    case 13:
      guard body.isEmpty, flags == 0 else { throw MQTTProtocolError("a malformed PINGRESP") }
      return .pingResponse
    default:
      throw MQTTProtocolError("a packet of type \(first >> 4), which a broker does not send a client")
    }
  }
}

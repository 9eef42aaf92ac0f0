import Testing

@testable import MQTT

/// The packets byte for byte, as the MQTT 3.1.1 standard lays them out (section 3), and the
/// decoder's refusals.
@Suite struct MQTTPacketTests {
  @Test func aConnectAsTheStandardWritesIt() {
    let plain = MQTTPacket.connect(.init(clientID: "sign", keepAlive: 30))
    #expect(plain.bytes == [0x10, 16, 0, 4] + Array("MQTT".utf8) + [4, 0x02, 0, 30, 0, 4] + Array("sign".utf8))
    let will = MQTTPacket.Message(topic: "s/st", payload: Array("offline".utf8), qos: 1, retain: true)
    let full = MQTTPacket.connect(.init(clientID: "c", keepAlive: 60, username: "u", password: "pw", will: will))
    // Flags: user name, password, will retain, will QoS 1, will, clean session.
    #expect(full.bytes[9] == 0x80 | 0x40 | 0x20 | 0x08 | 0x04 | 0x02)
    #expect(Array(full.bytes[12...]) == [0, 1, 0x63, 0, 4] + Array("s/st".utf8) + [0, 7] + Array("offline".utf8) + [0, 1, 0x75, 0, 2, 0x70, 0x77])
  }

  @Test func publishSubscribeAndTheLengthsBeyondOneByte() throws {
    let message = MQTTPacket.Message(topic: "a/b", payload: [1, 2, 3], qos: 1, retain: true)
    #expect(MQTTPacket.publish(message, packetID: 10).bytes == [0x33, 10, 0, 3, 0x61, 0x2F, 0x62, 0, 10, 1, 2, 3])
    #expect(MQTTPacket.publish(.init(topic: "t", payload: []), packetID: nil).bytes == [0x30, 3, 0, 1, 0x74])
    #expect(MQTTPacket.subscribe(packetID: 7, topics: [("x/#", 1)]).bytes == [0x82, 8, 0, 7, 0, 3, 0x78, 0x2F, 0x23, 1])
    #expect(MQTTPacket.pingRequest.bytes == [0xC0, 0] && MQTTPacket.disconnect.bytes == [0xE0, 0])
    // The standard's examples of the remaining length (section 2.2.3).
    #expect(MQTTPacket.remainingLength(127) == [0x7F] && MQTTPacket.remainingLength(128) == [0x80, 0x01])
    #expect(MQTTPacket.remainingLength(16_383) == [0xFF, 0x7F] && MQTTPacket.remainingLength(2_097_152) == [0x80, 0x80, 0x80, 0x01])
    // A 321-byte payload round-trips through the decoder, fed a byte at a time.
    let long = MQTTPacket.Message(topic: "l", payload: (0..<321).map { UInt8($0 & 0xFF) })
    var decoder = MQTTDecoder()
    var decoded: MQTTPacket?
    for byte in MQTTPacket.publish(long, packetID: nil).bytes {
      #expect(decoded == nil)
      decoder.append([byte])
      decoded = try decoder.next()
    }
    #expect(decoded == .publish(long, packetID: nil))
  }

  @Test func whatABrokerSendsIsDecoded() throws {
    var decoder = MQTTDecoder()
    decoder.append([0x20, 2, 0, 0, 0x20, 2, 0, 5, 0x90, 4, 0, 7, 1, 0x80, 0x40, 2, 0, 9, 0xD0, 0])
    #expect(try decoder.next() == .connectAcknowledgement(sessionPresent: false, returnCode: 0))
    #expect(try decoder.next() == .connectAcknowledgement(sessionPresent: false, returnCode: 5))
    #expect(try decoder.next() == .subscribeAcknowledgement(packetID: 7, granted: [1, 0x80]))
    #expect(try decoder.next() == .publishAcknowledgement(packetID: 9))
    #expect(try decoder.next() == .pingResponse)
    #expect(try decoder.next() == nil)
    #expect(MQTTPacket.refusal(5) == "the broker says this client is not authorised")
  }

  @Test(arguments: [
    ([0x30, 0x80, 0x80, 0x80, 0x80, 0x01], "a remaining length longer than four bytes"),
    ([0x30, 3, 0, 5, 0x61], "a PUBLISH whose topic is cut short"),
    ([0x36, 4, 0, 1, 0x61, 0], "a PUBLISH with QoS 3"),
    ([0x30, 3, 0, 1, 0x23], "a PUBLISH whose topic is not a valid topic name"),
    ([0x30, 4, 0, 2, 0xC3, 0x28], "a PUBLISH whose topic is not a valid topic name"),
    ([0x10, 0], "a packet of type 1, which a broker does not send a client"),
    ([0x20, 3, 0, 0, 0], "a malformed CONNACK"),
    ([0x90, 3, 0, 1, 7], "a SUBACK with an unknown return code"),
  ] as [([UInt8], String)])
  func malformedPacketsAreRefused(bytes: [UInt8], reason: String) {
    var decoder = MQTTDecoder()
    decoder.append(bytes)
    #expect(throws: MQTTProtocolError(reason)) { try decoder.next() }
  }

  @Test func aPacketOverTheLimitIsRefusedBeforeItArrives() {
    var decoder = MQTTDecoder(limit: 1000)
    // Any packet but a PUBLISH over the limit ends the connection.
    decoder.append([0x90] + MQTTPacket.remainingLength(1001))
    #expect(throws: MQTTProtocolError("a packet of 1001 bytes, over the limit of 1000")) { try decoder.next() }
  }

  /// An oversized PUBLISH (a 256 KiB retained message) is reported once its topic and
  /// packet ID are in, its bytes are dropped as they come (never held), and the packet
  /// after it decodes: the connection is kept. Fed in pieces, as reads split it.
  @Test func anOversizedPublishIsSkippedAndTheNextPacketDecodes() throws {
    var decoder = MQTTDecoder(limit: 1000)
    let big = MQTTPacket.publish(.init(topic: "s/content", payload: [UInt8](repeating: 7, count: 5000), qos: 1), packetID: 9).bytes
    let next = MQTTPacket.publish(.init(topic: "s/v", payload: Array("42".utf8)), packetID: nil).bytes
    var seen: [MQTTPacket] = []
    let bytes = big + next
    for start in stride(from: 0, to: bytes.count, by: 700) {
      decoder.append(bytes[start..<min(bytes.count, start + 700)])
      while let packet = try decoder.next() { seen.append(packet) }
      #expect(decoder.buffered <= 1400)
    }
    #expect(seen == [.oversized(topic: "s/content", qos: 1, packetID: 9, length: big.count - 3), .publish(.init(topic: "s/v", payload: Array("42".utf8)), packetID: nil)])
  }

  @Test func unsubscribeAsTheStandardWritesIt() throws {
    #expect(MQTTPacket.unsubscribe(packetID: 3, filters: ["a/b"]).bytes == [0xA2, 7, 0, 3, 0, 3, 0x61, 0x2F, 0x62])
    var decoder = MQTTDecoder()
    decoder.append([0xB0, 2, 0, 3])
    #expect(try decoder.next() == .unsubscribeAcknowledgement(packetID: 3))
  }
}

/// Topic names and filters as section 4.7 allows them, checked before the sign subscribes.
@Suite struct MQTTTopicTests {
  @Test(arguments: [
    ("", "an empty topic"), ("a\u{1}b", "U+0001"), ("a\u{7F}", "U+007F"), ("a\u{85}b", "U+0085"), ("a\u{0}", "U+0000"),
    ("a/+", "wildcards"), (String(repeating: "é", count: 40_001), "a topic of 80002 bytes; MQTT allows 65535"),
  ])
  func topicNamesMQTTDoesNotAllow(topic: String, reason: String) {
    #expect(MQTTTopic.problem(topic, filter: false)?.contains(reason) == true, "\(String(describing: MQTTTopic.problem(topic, filter: false)))")
  }

  @Test func filtersAndMatching() {
    #expect(MQTTTopic.problem("station/#", filter: true) == nil && MQTTTopic.problem("a/+/c", filter: true) == nil)
    #expect(MQTTTopic.problem("a/#/c", filter: true) != nil && MQTTTopic.problem("a/b+", filter: true) != nil)
    #expect(MQTTTopic.problem(String(repeating: "x", count: 65_535), filter: false) == nil)
    #expect(MQTTTopic.matches("station/next", filter: "station/#") && MQTTTopic.matches("station", filter: "station/#"))
    #expect(MQTTTopic.matches("a/b/c", filter: "a/+/c") && !MQTTTopic.matches("a/b/d", filter: "a/+/c"))
    #expect(!MQTTTopic.matches("home/alarm/code", filter: "station/#") && !MQTTTopic.matches("$SYS/x", filter: "#"))
  }
}

/// Broker addresses as people write them.
@Suite struct MQTTAddressTests {
  @Test func theFormsPeopleWrite() throws {
    #expect(try MQTTAddress("mqtt://broker.local") == MQTTAddress(host: "broker.local", port: 1883))
    let full = try MQTTAddress("mqtt://sign:p%40ss:w0rd@10.0.0.2:1884")
    #expect(full.host == "10.0.0.2" && full.port == 1884 && full.username == "sign" && full.password == "p@ss:w0rd")
    #expect(try MQTTAddress("mqtt://[::1]:1885").host == "::1")
    // What an error, a log or the process list may show of an address: never the password.
    #expect(MQTTAddress.redacted("mqtt://sign:s3cret@host:1883") == "mqtt://sign:***@host:1883")
    #expect(MQTTAddress.redacted("mqtt://sign@host") == "mqtt://sign@host" && MQTTAddress.redacted("mqtt://host") == "mqtt://host")
    let refused = #expect(throws: MQTTAddress.Invalid.self) { try MQTTAddress("mqtt://sign:s3cret@host:99999") }
    #expect(refused.map { !$0.description.contains("s3cret") && $0.description.contains("sign:***@host") } == true)
    #expect(try MQTTAddress("mqtt://user@host").password == nil)
  }

  @Test(arguments: [
    ("mqtts://broker:8883", "TLS is not supported"),
    ("http://broker", "is not an MQTT address"),
    ("mqtt://", "names no broker host"),
    ("mqtt://host:0", "the port '0' is not 1-65535"),
    ("mqtt://host:99999", "the port '99999' is not 1-65535"),
    ("mqtt://:pw@host", "the user name is empty"),
    ("mqtt://u:%zz@host", "the password is badly percent-encoded"),
  ])
  func badAddressesSayWhatIsWrong(text: String, reason: String) {
    #expect { try MQTTAddress(text) } throws: { "\($0)".contains(reason) }
  }
}

extension MQTTAddress {
  init(host: String, port: UInt16) {
    try! self.init("mqtt://\(host):\(port)")
  }
}

import Foundation
import MQTT
import Platform
import Synchronization
import TestSupport

/// A hostile or broken MQTT broker on loopback, written with the MQTT module's own packets:
/// it accepts the sign, records what it sends (CONNECTs, SUBSCRIBEs, UNSUBSCRIBEs), and
/// sends whatever a test tells it to, as fast as the socket takes it.
final class FakeBroker: @unchecked Sendable {
  /// What the sign sent, as the broker read it.
  struct Seen {
    var connects: [(clientID: String, username: String?, password: String?, at: Double)] = []
    var subscribed: [String] = []
    var unsubscribed: [String] = []
  }

  let port: UInt16
  let listener: Int32
  let seen = Mutex(Seen())
  /// The sign's connection now, or -1.
  let current = Atomic<Int32>(-1)
  /// Whether to close each connection as soon as it is acknowledged.
  let dropsAfterConnect: Bool
  let stopped = Atomic<Bool>(false)

  init(dropsAfterConnect: Bool = false) throws {
    self.dropsAfterConnect = dropsAfterConnect
    guard let (listener, port) = LoopbackListener.open() else { throw CLIError("the fake broker cannot listen") }
    self.listener = listener
    self.port = port
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  deinit {
    stopped.store(true, ordering: .releasing)
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    let fd = current.load(ordering: .acquiring)
    if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
  }

  var url: String { "mqtt://127.0.0.1:\(port)" }

  func acceptLoop() {
    while !stopped.load(ordering: .acquiring) {
      let fd = accept(listener, nil, nil)
      guard fd >= 0 else { return }
      var time = timeval(tv_sec: 10, tv_usec: 0)
      setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
      Thread.detachNewThread { [self] in serve(fd) }
    }
  }

  /// Reads the sign's packets (the client's own framing: first byte, remaining length).
  func serve(_ fd: Int32) {
    defer { close(fd) }
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while !stopped.load(ordering: .acquiring) {
      while let (first, body) = FakeBroker.packet(&buffer) {
        switch first >> 4 {
        case 1:
          record(connect: body)
          _ = TCPConnection.write([0x20, 2, 0, 0], to: fd)
          if dropsAfterConnect { return }
          current.store(fd, ordering: .releasing)
        case 8:
          let id = Array(body[0..<2])
          var at = 2, granted: [UInt8] = []
          while at + 2 <= body.count {
            let length = Int(body[at]) << 8 | Int(body[at + 1])
            let topic = String(decoding: body[(at + 2)..<min(body.count, at + 2 + length)], as: UTF8.self)
            seen.withLock { $0.subscribed.append(topic) }
            at += 2 + length + 1
            granted.append(1)
          }
          _ = TCPConnection.write([0x90, UInt8(2 + granted.count)] + id + granted, to: fd)
        case 10:
          var at = 2
          while at + 2 <= body.count {
            let length = Int(body[at]) << 8 | Int(body[at + 1])
            let topic = String(decoding: body[(at + 2)..<min(body.count, at + 2 + length)], as: UTF8.self)
            seen.withLock { $0.unsubscribed.append(topic) }
            at += 2 + length
          }
          _ = TCPConnection.write([0xB0, 2] + Array(body[0..<2]), to: fd)
        case 12: _ = TCPConnection.write([0xD0, 0], to: fd)
        case 14: return
        default: break
        }
      }
      let count = recv(fd, &chunk, chunk.count, 0)
      if count <= 0 { return }
      buffer += chunk[0..<count]
    }
  }

  func record(connect body: [UInt8]) {
    func string(_ at: inout Int) -> String? {
      guard at + 2 <= body.count else { return nil }
      let length = Int(body[at]) << 8 | Int(body[at + 1])
      defer { at += 2 + length }
      return String(decoding: body[(at + 2)..<min(body.count, at + 2 + length)], as: UTF8.self)
    }
    var at = 0
    _ = string(&at)  // "MQTT"
    let flags = body[at + 1]
    at += 4
    let id = string(&at) ?? ""
    if flags & 0x04 != 0 {
      _ = string(&at)
      _ = string(&at)
    }
    let user = flags & 0x80 != 0 ? string(&at) : nil
    let password = flags & 0x40 != 0 ? string(&at) : nil
    seen.withLock { $0.connects.append((id, user, password, SystemClock.monotonicSeconds())) }
  }

  static func packet(_ buffer: inout [UInt8]) -> (UInt8, [UInt8])? {
    guard buffer.count >= 2 else { return nil }
    var length = 0, multiplier = 1, index = 1
    while true {
      guard index < buffer.count else { return nil }
      length += Int(buffer[index] & 0x7F) * multiplier
      index += 1
      if buffer[index - 1] & 0x80 == 0 { break }
      multiplier *= 128
    }
    guard buffer.count >= index + length else { return nil }
    defer { buffer.removeFirst(index + length) }
    return (buffer[0], Array(buffer[index..<(index + length)]))
  }

  /// Waits (bounded) for the sign to connect and subscribe.
  func waitForSign() -> Bool {
    for _ in 0..<500 {
      if current.load(ordering: .acquiring) >= 0 && !seen.withLock({ $0.subscribed.isEmpty }) { return true }
      usleep(20_000)
    }
    return false
  }

  /// Sends `bytes` to the sign's connection; whether all went.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    let fd = current.load(ordering: .acquiring)
    return fd >= 0 && TCPConnection.write(bytes, to: fd)
  }

  /// A PUBLISH, QoS 0 unless `qos` (packet ID 1).
  static func publish(_ topic: String, _ payload: [UInt8], retain: Bool = false, qos: UInt8 = 0) -> [UInt8] {
    var message = MQTTPacket.Message(topic: topic, payload: payload, qos: qos, retain: retain)
    message.duplicate = false
    return MQTTPacket.publish(message, packetID: qos > 0 ? 1 : nil).bytes
  }

  static func publish(_ topic: String, _ text: String, retain: Bool = false) -> [UInt8] {
    publish(topic, Array(text.utf8), retain: retain)
  }
}

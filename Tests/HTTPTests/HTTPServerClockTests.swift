import Foundation
import HTTP
import Platform
import Synchronization
import TestSupport
import Testing

/// The server's timeouts on a clock the test moves: an idle connection closed and a
/// half-sent head answered 408 the moment the clock passes their limits, without sleeping.
@Suite(.offThePool) struct HTTPServerClockTests {
  /// A client socket connected to `port`.
  static func connect(_ port: UInt16) throws -> Int32 {
    try TCPConnection.open("127.0.0.1", port, seconds: 5)
  }

  /// What the server sends until it closes, within `seconds` (nil: still open then).
  static func untilClosed(_ descriptor: Int32, within seconds: Double = 10) -> [UInt8]? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    let end = SystemClock.monotonicSeconds() + seconds
    while SystemClock.monotonicSeconds() < end {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 50) > 0 else { continue }
      let count = recv(descriptor, &chunk, chunk.count, 0)
      if count <= 0 { return bytes }
      bytes += chunk[0..<count]
    }
    return nil
  }

  @Test func idleAndHalfSentConnectionsEndWhenTheClockSaysSo() throws {
    let clock = ManualSignClock(wall: 0)
    let stop = Atomic<Bool>(false)
    var router = HTTPRouter()
    router.add("GET", "/") { _ in .now(.text("hi")) }
    // Short limits: were the server to read the real clock, both connections would end within
    // the half second below.
    var limits = HTTPServer.Limits()
    limits.idleTimeout = 200_000_000
    limits.headDeadline = 200_000_000
    let server = try HTTPServer(
      address: ListenAddress(host: "127.0.0.1", port: 0, isIPv6: false), responder: router, limits: limits, clock: clock.clock,
      shouldStop: { stop.load(ordering: .relaxed) })
    server.start()
    defer {
      stop.store(true, ordering: .relaxed)
      server.join()
    }
    let idle = try HTTPServerClockTests.connect(server.address.port)
    defer { close(idle) }
    let halfSent = try HTTPServerClockTests.connect(server.address.port)
    defer { close(halfSent) }
    #expect(TCPConnection.write(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8), to: halfSent))
    // Both are open while the clock stands still, however long that is in real time.
    #expect(HTTPServerClockTests.untilClosed(idle, within: 0.5) == nil)
    clock.advance(by: 1)
    server.wake()
    #expect(HTTPServerClockTests.untilClosed(idle) == [], "the idle connection closed without a word")
    let answer = HTTPServerClockTests.untilClosed(halfSent).map { String(decoding: $0, as: UTF8.self) } ?? "still open"
    #expect(answer.hasPrefix("HTTP/1.1 408 "), "\(answer)")
  }
}

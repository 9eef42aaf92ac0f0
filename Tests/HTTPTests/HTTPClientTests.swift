import Foundation
import HTTP
import Platform
import Synchronization
import TestSupport
import Testing

/// The client `marquee notify` uses, against the server in the same process.
@Suite(.offThePool) struct HTTPClientTests {
  /// A server on a free loopback port answering with `router`, stopped by the returned call.
  static func serve(_ router: HTTPRouter) throws -> (HTTPServer, @Sendable () -> Void) {
    let box = StopBox()
    let server = try HTTPServer(address: ListenAddress(host: "127.0.0.1", port: 0, isIPv6: false), responder: router, shouldStop: { box.stopped })
    server.start()
    return (server, { box.stop(); server.join() })
  }

  final class StopBox: Sendable {
    let flag = Atomic<Bool>(false)
    var stopped: Bool { flag.load(ordering: .relaxed) }
    func stop() { flag.store(true, ordering: .relaxed) }
  }

  @Test func sendsARequestAndReadsTheAnswer() throws {
    var router = HTTPRouter()
    router.add("POST", "/api/notify") { request in
      .now(.text("got \(request.header("authorization") ?? "-") \(String(decoding: request.body, as: UTF8.self))"))
    }
    let (server, stop) = try HTTPClientTests.serve(router)
    defer { stop() }
    let client = try HTTPClient(url: "http://127.0.0.1:\(server.address.port)/")
    let answer = try client.send("POST", "/api/notify", headers: [("Authorization", "Bearer t")], body: Array("{\"a\":1}".utf8))
    #expect(answer.status == 200)
    #expect(String(decoding: answer.body, as: UTF8.self) == "got Bearer t {\"a\":1}")
    #expect(answer.header("content-type") == "text/plain; charset=utf-8")
    let missing = try client.send("GET", "/nope")
    #expect(missing.status == 404)
  }

  @Test func readsTheAddressTheWayTheOtherOptionsDo() throws {
    #expect(try HTTPClient(url: "http://[::1]:9000").address == HostPort(host: "::1", port: 9000, bracketed: true))
    #expect(try HTTPClient(url: "http://sign.local").address.port == 80)
    for (text, words) in [
      ("https://sign", "plain HTTP"), ("http://", "is not a sign's address"), ("http://sign:0", "the port '0' is not 1-65535"),
      ("http://[::1", "closing ']'"),
    ] {
      #expect(throws: HTTPClient.Failure.self, "\(text)") { try HTTPClient(url: text) }
      do { _ = try HTTPClient(url: text) } catch { #expect(error.description.contains(words), "\(text): \(error)") }
    }
  }

  @Test func givesUpOnAServerThatNeverAnswers() throws {
    // A socket that listens and never accepts: the kernel completes the connection, nobody reads.
    let silent = try ListenAddress(host: "127.0.0.1", port: 0, isIPv6: false).listen()
    defer { close(silent) }
    let port = ListenAddress.bound(silent, like: .loopback).port
    let client = HTTPClient(HostPort(host: "127.0.0.1", port: port), limit: 0.3)
    #expect { try client.send("GET", "/") } throws: { ($0 as? HTTPClient.Failure)?.description.contains("did not answer within") == true }
  }

  @Test func saysWhenNothingListens() throws {
    let closed = try ListenAddress(host: "127.0.0.1", port: 0, isIPv6: false).listen()
    let port = ListenAddress.bound(closed, like: .loopback).port
    close(closed)
    #expect { try HTTPClient(HostPort(host: "127.0.0.1", port: port)).send("GET", "/") } throws: {
      ($0 as? HTTPClient.Failure)?.description.contains("cannot reach http://127.0.0.1:\(port)") == true
    }
  }
}

import Foundation
import HTTP
import TestSupport
import Testing

/// A source's document is fetched as a well-behaved client fetches: validators sent back and
/// a 304 taken as "unchanged", chunks joined, redirects followed a few times and to http(s)://
/// only, a document over the limit refused (not cut), and one time limit for the whole.
/// (The same over TLS: HTTPSFetchTests.)
@Suite(.offThePool) struct HTTPFetchTests {
  @Test func validatorsComeBackAndA304IsUnchanged() throws {
    let server = try #require(ScriptedHTTPServer { request in
      if request.headers["if-none-match"] == "\"v1\"" { return .status(304, headers: [("ETag", "\"v1\"")]) }
      return .status(200, "{\"t\": 21.5}", headers: [("ETag", "\"v1\""), ("Last-Modified", "Sat, 05 Dec 2026 08:00:00 GMT")])
    })
    defer { server.stop() }
    let first = try HTTPFetch.get(server.url("/w.json"), limit: 5, maximumBytes: 1000)
    #expect(first.status == 200 && first.body == Array("{\"t\": 21.5}".utf8))
    #expect(first.entityTag == "\"v1\"" && first.lastModified == "Sat, 05 Dec 2026 08:00:00 GMT")
    let second = try HTTPFetch.get(server.url("/w.json"), limit: 5, maximumBytes: 1000, entityTag: first.entityTag, lastModified: first.lastModified)
    #expect(second.status == 304 && second.body.isEmpty)
    #expect(server.requests.last?.headers["if-modified-since"] == "Sat, 05 Dec 2026 08:00:00 GMT")
  }

  @Test func chunksAreJoined() throws {
    let server = try #require(ScriptedHTTPServer { _ in
      .init(bytes: Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n7;x=y\r\n, world\r\n0\r\n\r\n".utf8))
    })
    defer { server.stop() }
    #expect(try HTTPFetch.get(server.url("/"), limit: 5, maximumBytes: 100).body == Array("hello, world".utf8))
  }

  @Test func redirectsAreFollowedAFewTimesAndOnlyToHTTPOrHTTPS() throws {
    let server = try #require(ScriptedHTTPServer { request in
      switch request.path {
      case "/a": .status(302, headers: [("Location", "/b")])
      case "/b": .status(301, headers: [("Location", "c")])
      case "/c": .status(200, "here")
      case "/file": .status(302, headers: [("Location", "file:///etc/passwd")])
      default: .status(307, headers: [("Location", "/loop")])
      }
    })
    defer { server.stop() }
    let answer = try HTTPFetch.get(server.url("/a"), limit: 5, maximumBytes: 100)
    #expect(answer.body == Array("here".utf8) && answer.url == server.url("/c"))
    for (path, words) in [("/file", "file:///etc/passwd, which is neither an http:// nor an https:// address"), ("/loop", "more than 5 redirects")] {
      #expect(throws: HTTPFetch.Failure.self) { try HTTPFetch.get(server.url(path), limit: 5, maximumBytes: 100) }
      do {
        _ = try HTTPFetch.get(server.url(path), limit: 5, maximumBytes: 100)
      } catch {
        #expect(error.description.contains(words), "\(error)")
      }
    }
  }

  @Test func badAnswersAreRefusedWithTheirReason() throws {
    let server = try #require(ScriptedHTTPServer { request in
      switch request.path {
      case "/huge": .status(200, String(repeating: "x", count: 5000))
      case "/slow": .status(200, "late", delay: 3)
      case "/fail": .status(500, "oops")
      case "/short": .init(bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8))
      default: .init(bytes: Array("SSH-2.0-OpenSSH\r\n".utf8))
      }
    })
    defer { server.stop() }
    let cases: [(String, Double, String)] = [
      ("/huge", 5, "larger than 1000 bytes"), ("/slow", 0.5, "within"), ("/fail", 5, "answered 500"),
      ("/short", 5, "ended after 3 of its 10 bytes"), ("/junk", 5, "not HTTP"),
    ]
    for (path, limit, words) in cases {
      let started = Date()
      do {
        _ = try HTTPFetch.get(server.url(path), limit: limit, maximumBytes: 1000)
        Issue.record("\(path) was taken")
      } catch {
        #expect(error.description.contains(words), "\(path): \(error)")
        #expect(error.description.contains(server.url(path)), "\(path): the error names the address: \(error)")
      }
      #expect(Date().timeIntervalSince(started) < limit + 2, "\(path) kept the fetch past its limit")
    }
    #expect(throws: HTTPFetch.Failure.self) { try HTTPFetch.get("ftp://example.org/", limit: 1, maximumBytes: 10) }
  }
}

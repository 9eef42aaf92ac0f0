import HTTP
import Testing

/// A connection's input as the server reads it: pipelined requests, half-closes, limits.
@Suite struct HTTPInputTests {
  static let get = Array("GET /a HTTP/1.1\r\nHost: x\r\n\r\n".utf8)

  @Test func pipelinedRequestsComeOutOneAtATimeAndTheInputIsBounded() {
    var input = HTTPInput()
    input.append(Array([[UInt8]](repeating: HTTPInputTests.get, count: 10_000).joined()))
    // Only as much as one largest request (and a little) is held.
    #expect(input.count == HTTPInput.capacity)
    #expect(input.room == 0)
    var served = 0
    while case .request(let request) = input.next() {
      #expect(request.path == "/a")
      served += 1
    }
    #expect(served == HTTPInput.capacity / HTTPInputTests.get.count)
    #expect(input.room > 0)
  }

  @Test func aHalfCloseStillYieldsTheWholeRequestsSentBeforeIt() {
    var input = HTTPInput()
    input.append(HTTPInputTests.get + HTTPInputTests.get)
    input.end()
    #expect(input.room == 0)
    guard case .request = input.next(), case .request = input.next() else {
      Issue.record("two requests before the close")
      return
    }
    #expect(input.next() == .finished)
    var partial = HTTPInput()
    partial.append(Array(HTTPInputTests.get.prefix(10)))
    #expect(partial.next() == .waiting)
    partial.end()
    guard case .failure(let error) = partial.next() else {
      Issue.record("a request cut by the close is an error")
      return
    }
    #expect(error.status == 400)
  }

  @Test func absoluteFormAndHost() {
    func parse(_ text: String) -> HTTPRequestParser.Outcome { HTTPRequestParser.parse(Array(text.utf8)[...]) }
    guard case .request(let absolute, _) = parse("GET http://Sign.Local:8080/api/state?x=1 HTTP/1.1\r\nHost: other\r\n\r\n") else {
      Issue.record("the absolute form is taken")
      return
    }
    #expect(absolute.path == "/api/state" && absolute.query == ["x": "1"] && absolute.authority == "Sign.Local:8080")
    guard case .request(let bare, _) = parse("GET http://sign HTTP/1.1\r\nHost: sign\r\n\r\n") else {
      Issue.record("an absolute form without a path is /")
      return
    }
    #expect(bare.path == "/")
    #expect(parse("GET /api/state HTTP/1.1\r\n\r\n") == .failure(HTTPRequestError(status: 400, message: "an HTTP/1.1 request needs a Host header")))
    guard case .request(let old, _) = parse("GET /api/state HTTP/1.0\r\n\r\n") else {
      Issue.record("HTTP/1.0 may omit Host")
      return
    }
    #expect(old.authority == nil && old.closes)
    guard case .failure = parse("GET http://user@evil/ HTTP/1.1\r\nHost: x\r\n\r\n") else {
      Issue.record("user info in the target is refused")
      return
    }
  }
}

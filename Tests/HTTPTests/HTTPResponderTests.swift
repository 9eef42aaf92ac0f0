import HTTP
import SimpleJSON
import Testing

/// The responder seam in-process: requests in, responses out, no sockets.
@Suite struct HTTPResponderTests {
  static func router() -> HTTPRouter {
    var router = HTTPRouter()
    router.add("GET", "/api/state") { _ in .now(.text("state")) }
    router.add("PATCH", "/api/content") { request in .now(.text("patched \(request.body.count)")) }
    router.add("PUT", "/api/content") { _ in .later { complete in complete(.text("put later")) } }
    return router
  }

  static func get(_ path: String, host: String = "127.0.0.1:8080", headers: [String: String] = [:]) -> HTTPRequest {
    HTTPRequest(method: "GET", path: path, headers: headers.merging(["Host": host]) { a, _ in a })
  }

  @Test func theRouterAnswers404And405Itself() {
    let router = HTTPResponderTests.router()
    #expect(router.respond(to: HTTPResponderTests.get("/nope")).wait().status == 404)
    let wrong = router.respond(to: HTTPRequest(method: "DELETE", path: "/api/content")).wait()
    #expect(wrong.status == 405 && wrong.header("allow") == "PATCH, PUT")
    #expect(router.respond(to: HTTPResponderTests.get("/api/state")).wait().body == Array("state".utf8))
    #expect(router.respond(to: HTTPRequest(method: "PUT", path: "/api/content")).wait().body == Array("put later".utf8))
  }

  @Test func theHostCheckRefusesOtherNamesBeforeAnyHandler() {
    let check = HostCheck(HostNames(extra: ["shop.example"], machineName: "signpi"), HTTPResponderTests.router())
    for host in ["evil.example", "evil.example:8080", "signpi.evil.example", "localhost.evil.example", "127.0.0.1.nip.io"] {
      #expect(check.respond(to: HTTPResponderTests.get("/api/state", host: host)).wait().status == 421, "\(host)")
    }
    for host in ["127.0.0.1", "127.0.0.2:8080", "[::1]:8080", "[::ffff:127.0.0.1]", "10.1.2.3:80", "localhost", "LocalHost.",
                 "a.localhost", "signpi", "SIGNPI.local", "signpi.local.", "shop.example:8080"] {
      #expect(check.respond(to: HTTPResponderTests.get("/api/state", host: host)).wait().status == 200, "\(host)")
    }
  }

  @Test func theTokenCheckTakesTheSchemeInAnyCase() {
    let check = BearerTokenCheck(token: "0123456789abcdef0123", HTTPResponderTests.router())
    for header in ["Bearer 0123456789abcdef0123", "bearer 0123456789abcdef0123", "BEARER  0123456789abcdef0123"] {
      #expect(check.respond(to: HTTPResponderTests.get("/api/state", headers: ["Authorization": header])).wait().status == 200, "\(header)")
    }
    for header in ["Bearer 0123456789abcdef012", "Bearer 0123456789abcdef01234", "Basic 0123456789abcdef0123", "Bearer", "Bearer0123456789abcdef0123", ""] {
      let response = check.respond(to: HTTPResponderTests.get("/api/state", headers: ["Authorization": header])).wait()
      #expect(response.status == 401 && response.header("www-authenticate") == "Bearer", "\(header)")
    }
    // Outside the protected prefix (the page) no token is asked.
    #expect(check.respond(to: HTTPResponderTests.get("/nope")).wait().status == 404)
  }

  @Test func writesMustBeJSONInUTF8() {
    let check = JSONBodyCheck(HTTPResponderTests.router())
    func patch(_ body: [UInt8], type: String?) -> Int {
      var headers = ["Host": "localhost"]
      if let type { headers["Content-Type"] = type }
      return check.respond(to: HTTPRequest(method: "PATCH", path: "/api/content", headers: headers, body: body)).wait().status
    }
    #expect(patch(Array("{}".utf8), type: "application/json") == 200)
    #expect(patch(Array("{}".utf8), type: "Application/JSON; charset=utf-8") == 200)
    #expect(patch(Array("a=b".utf8), type: "application/x-www-form-urlencoded") == 415)
    #expect(patch(Array("{}".utf8), type: nil) == 415)
    #expect(patch([0x7B, 0x22, 0xC3, 0x22, 0x7D], type: "application/json") == 400)
    #expect(patch(Array(#"{"m": "你好"}"#.utf8), type: "application/json") == 200)
  }

  @Test func loopbackIsEveryAddressOfTheLoopbackNetworks() {
    for text in ["127.0.0.1:80", "127.0.0.2:80", "127.255.255.254:80", "[::1]:80", "[0:0:0:0:0:0:0:1]:80", "[::ffff:127.0.0.1]:80",
                 "[::ffff:7f00:2]:80"] {
      #expect(ListenAddress(text)?.isLoopback == true, "\(text)")
    }
    for text in ["0.0.0.0:80", "10.0.0.1:80", "128.0.0.1:80", "[::]:80", "[::2]:80", "[::ffff:10.0.0.1]:80", "[fe80::1]:80"] {
      #expect(ListenAddress(text)?.isLoopback == false, "\(text)")
    }
  }
}

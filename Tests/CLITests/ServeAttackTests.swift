import Foundation
import Platform
import SimpleJSON
import TestSupport
import Testing

/// `marquee serve` attacked from loopback as an outsider would, on raw sockets: each test is
/// a sequence an attack sent, and checks that the sign keeps answering others, keeps its
/// memory (read from /proc/PID/status) and changes nothing it was not asked to by a
/// request that passed every check.
@Suite(.offThePool, .serialized) struct ServeAttackTests {
  /// A folder for one test's files, removed after.
  final class Folder {
    let path = NSTemporaryDirectory() + "marquee-attack-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    init() throws { try FileManager.default.createDirectory(atPath: path + "/fonts", withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  static func request(_ method: String, _ path: String, host: String, body: String? = nil, extra: String = "") -> [UInt8] {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n\(extra)"
    if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
    return Array((head + "\r\n" + (body ?? "")).utf8)
  }

  static func messages(_ sign: ServedSign) throws -> JSONValue? {
    try ServeTests.json(sign.client.request("GET", "/api/state"))["zones"]?.arrayValue?.first?["messages"]
  }

  /// Pipelining `GET /` without ever reading the answers, on three connections with small
  /// receive buffers, to a server with a token file and no token sent: the server stops
  /// reading them instead of queueing answers. Before, one such connection took 357 MB.
  @Test func pipelinedRequestsWhoseAnswersAreNeverReadKeepMemoryBounded() throws {
    let folder = try Folder()
    let sign = try ServedSign(["--token-file", folder.path + "/token", "--output", "ascii", "X"])
    _ = sign.client.request("GET", "/")
    let before = sign.residentKB
    let page = ServeAttackTests.request("GET", "/", host: sign.client.host)
    let burst = Array([[UInt8]](repeating: page, count: 40_000).joined())
    var holders: [Int32] = []
    defer { for fd in holders { close(fd) } }
    for _ in 0..<3 {
      let fd = sign.client.connect(timeout: 2, receiveBuffer: 4096)
      try #require(fd >= 0)
      holders.append(fd)
      // What the server does not read waits in the kernel's buffers (or the send times out).
      HTTPTestClient.send(fd, burst)
    }
    // The most the server holds while it works through what it was sent (sampled for 1.5 s).
    let during = sign.peakResidentKB(seconds: 1.5)
    #expect(during - before < 8 * 1024, "resident memory went from \(before) KiB to \(during) KiB")
    // Others are still answered while the three hold their places.
    #expect(sign.client.request("GET", "/api/state")?.status == 401)
    #expect(sign.stop().status == 128 + SIGTERM)
  }

  /// Sixty spellings of one font (its name in any case, paths through `.`, `..` and `//`)
  /// load it once. Before, each spelling loaded the file again and kept it.
  @Test func manySpellingsOfOneFontLoadItOnce() throws {
    let folder = try Folder()
    // A 1.5 MB Unifont-style hex font of 20,000 glyphs, 16 pixels tall.
    var hex = ""
    for code in 0x4E00..<(0x4E00 + 20_000) { hex += String(format: "%04X:", code) + String(repeating: "0FF0", count: 16) + "\n" }
    try hex.write(toFile: folder.path + "/fonts/big.hex", atomically: true, encoding: .utf8)
    let sign = try ServedSign(["--output", "ascii", "--height", "16", "X"], environment: ["XDG_DATA_HOME": folder.path])
    func patch(_ font: String) -> Int? {
      sign.client.request("PATCH", "/api/content", body: #"{"messages": ["\#(font.count)"], "font": "\#(font)"}"#)?.status
    }
    #expect(patch("big") == 200)
    let before = sign.residentKB
    var spellings = ["BIG", "Big", "bIG", "biG", "BiG", "bIg", "BIg"]
    let base = folder.path + "/fonts"
    for n in 0..<53 {
      switch n % 4 {
      case 0: spellings.append(base + String(repeating: "/.", count: n) + "/big.hex")
      case 1: spellings.append(base + String(repeating: "/../fonts", count: n) + "/big.hex")
      case 2: spellings.append(base + String(repeating: "/", count: n + 1) + "big.hex")
      default: spellings.append(base + String(repeating: "/./", count: n) + "big.hex")
      }
    }
    #expect(Set(spellings).count == 60)
    for spelling in spellings { #expect(patch(spelling) == 200, "\(spelling)") }
    let after = sign.residentKB
    #expect(after - before < 8 * 1024, "resident memory went from \(before) KiB to \(after) KiB over 60 spellings")
    _ = sign.stop()
  }

  /// Over the API a font is a name the sign offers: `/dev/stdin` cannot hang the server, and
  /// the answer for a path does not tell whether it exists.
  @Test func aFontPathCannotHangTheServerNorProbeTheDisk() throws {
    let folder = try Folder()
    // A FIFO that looks like a font in the user's font folder: offered by name, never opened
    // to wait for a writer.
    try #require(mkfifo(folder.path + "/fonts/trap.hex", 0o600) == 0)
    let sign = try ServedSign(["--output", "ascii", "X"], environment: ["XDG_DATA_HOME": folder.path])
    var answers: [String] = []
    for font in ["/dev/stdin", "/etc/shadow", "/etc/no-such-file", "../../etc/passwd"] {
      let response = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["Y"], "font": "\#(font)"}"#)
      #expect(response?.status == 400)
      answers.append((response?.text ?? "").replacingOccurrences(of: font, with: "PATH"))
    }
    #expect(Set(answers).count == 1, "the answers differ by path: \(answers)")
    #expect(answers[0].contains("not a font this sign offers"), "\(answers[0])")
    let trap = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["Y"], "font": "trap"}"#)
    #expect(trap?.status == 400 && trap?.text.contains("is not a regular file") == true, "\(trap?.text ?? "no answer")")
    #expect(try ServeAttackTests.messages(sign) == .array([.string("X")]), "nothing changed")
    let result = sign.stop()
    #expect(result.status == 128 + SIGTERM && !result.timedOut)
  }

  /// Bytes sent on an event stream are dropped, and past a few KiB the stream is closed.
  /// Before, 200 MB sent after `GET /api/events` were all kept.
  @Test func inputOnAnEventStreamIsNotKept() throws {
    let sign = try ServedSign(["--output", "ascii", "X"])
    let before = sign.residentKB
    let fd = sign.client.connect(timeout: 5)
    defer { close(fd) }
    HTTPTestClient.send(fd, ServeAttackTests.request("GET", "/api/events", host: sign.client.host))
    let flood = [UInt8](repeating: 0x41, count: 1 << 20)
    var sent = 0
    for _ in 0..<64 {
      let count = HTTPTestClient.send(fd, flood)
      sent += count
      if count < flood.count { break }
    }
    #expect(sent < 64 << 20, "the server took all of 64 MiB on a stream")
    #expect(sign.peakResidentKB(seconds: 0.5) - before < 8 * 1024)
    #expect(sign.client.request("GET", "/api/state")?.status == 200)
    _ = sign.stop()
  }

  /// A write whose second zone cannot be shown (a font taller than the zone) is refused
  /// whole, naming the field; the first zone is not changed either.
  @Test func aWriteThatCannotBeShownIsRefusedWhole() throws {
    let folder = try Folder()
    let layout = folder.path + "/layout.json"
    try #"""
      {"zones": [{"name": "top", "x": 0, "y": 0, "width": 32, "height": 8, "messages": ["A"]},
                 {"name": "small", "x": 0, "y": 8, "width": 32, "height": 6, "font": "3x5", "messages": ["b"]}]}
      """#.write(toFile: layout, atomically: true, encoding: .utf8)
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "--height", "14", "--layout", layout])
    let before = try ServeTests.json(sign.client.request("GET", "/api/state"))
    let put = sign.client.request(
      "PUT", "/api/content", body: #"{"zones": [{"zone": "top", "messages": ["NEW"]}, {"zone": "small", "messages": ["c"], "font": "5x7"}]}"#)
    #expect(put?.status == 400)
    #expect(put?.text.contains("zones[1].font: the text is 8 pixels tall but the sign is 6 pixels tall") == true, "\(put?.text ?? "")")
    #expect(try ServeTests.json(sign.client.request("GET", "/api/state")) == before, "nothing changed")
    #expect(!sign.child.errorSoFar.contains("skipped"), "\(sign.child.errorSoFar)")
    _ = sign.stop()
  }

  /// DNS rebinding: a request naming another host is refused before any handler runs, so a
  /// page on `evil.example` pointed at 127.0.0.1 can neither read nor change the sign.
  @Test func aForeignHostIsRefused() throws {
    let sign = try ServedSign(["--output", "ascii", "--allow-host", "shop-sign.example", "X"])
    let client = sign.client
    for host in ["evil.example", "evil.example:\(client.port)", "127.0.0.1.evil.example", "localhost.evil.example"] {
      let read = client.request("GET", "/api/state", headers: ["Host": host])
      #expect(read?.status == 421, "\(host): \(read?.status ?? 0)")
      let write = client.request("PATCH", "/api/content", body: #"{"messages": ["pwned"], "immediately": true}"#, headers: ["Host": host])
      #expect(write?.status == 421)
    }
    // The absolute form's host counts, not the Host header's.
    let absolute = client.raw(ServeAttackTests.request("GET", "http://evil.example/api/state", host: client.host))
    #expect(absolute?.status == 421)
    #expect(try ServeAttackTests.messages(sign) == .array([.string("X")]), "nothing changed")
    for host in ["127.0.0.1:\(client.port)", "localhost", "LOCALHOST.", "sign.localhost", "[::1]:\(client.port)",
                 "192.168.1.20:8080", "shop-sign.example", "Shop-Sign.Example:8080"] {
      #expect(client.request("GET", "/api/state", headers: ["Host": host])?.status == 200, "\(host)")
    }
    // HTTP/1.1 requires Host.
    #expect(client.raw(Array("GET /api/state HTTP/1.1\r\n\r\n".utf8))?.status == 400)
    _ = sign.stop()
  }

  /// Silent connections re-opened as fast as they are dropped, and event streams that never
  /// read, leave a place for a normal request. Before, 30 of either got everyone 503.
  @Test func silentConnectionsAndIdleStreamsDoNotLockOthersOut() throws {
    let sign = try ServedSign(["--output", "ascii", "X"])
    let client = sign.client
    var holders: [Int32] = []
    defer { for fd in holders { close(fd) } }
    // 40 connections that say nothing (more than the 32 request places).
    for _ in 0..<40 { holders.append(client.connect()) }
    // 20 event streams on a still sign that are never read (more than the 16 stream places).
    var streams: [Int32] = []
    for _ in 0..<20 {
      let fd = client.connect()
      HTTPTestClient.send(fd, ServeAttackTests.request("GET", "/api/events", host: client.host))
      streams.append(fd)
    }
    holders += streams
    for round in 0..<20 {
      // The attacker re-opens a silent connection for each one dropped.
      holders.append(client.connect())
      let answer = client.request("GET", "/api/state")
      #expect(answer?.status == 200, "round \(round): \(answer?.status ?? 0)")
    }
    // The oldest streams made room for the newer ones: the first was closed by the server.
    var buffer = [UInt8](repeating: 0, count: 65536)
    var closed = false
    for _ in 0..<100 where !closed {
      let count = recv(streams[0], &buffer, buffer.count, 0)
      closed = count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }
    #expect(closed, "the oldest of 20 streams is still open")
    _ = sign.stop()
  }

  /// A request followed by the client's FIN (half-close) is answered, and a write sent that
  /// way is applied. Before, it got no answer.
  @Test func aHalfClosedRequestIsAnswered() throws {
    let sign = try ServedSign(["--output", "ascii", "X"])
    for body in [nil, #"{"messages": ["Half"], "immediately": true}"#] {
      let fd = sign.client.connect()
      defer { close(fd) }
      let method = body == nil ? "GET" : "PATCH", path = body == nil ? "/api/state" : "/api/content"
      HTTPTestClient.send(fd, ServeAttackTests.request(method, path, host: sign.client.host, body: body))
      shutdown(fd, Int32(SHUT_WR))
      let response = HTTPTestClient.read(fd)
      #expect(response?.status == 200, "\(method): \(response?.status ?? 0)")
    }
    #expect(try ServeAttackTests.messages(sign) == .array([.string("Half")]))
    // Two requests, then the FIN: both answered.
    let fd = sign.client.connect()
    defer { close(fd) }
    let two = ServeAttackTests.request("GET", "/api/stats", host: sign.client.host) + ServeAttackTests.request("GET", "/api/fonts", host: sign.client.host)
    HTTPTestClient.send(fd, two)
    shutdown(fd, Int32(SHUT_WR))
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { break }
      received.append(contentsOf: buffer[0..<count])
    }
    #expect(String(decoding: received, as: UTF8.self).components(separatedBy: "HTTP/1.1 200 OK").count == 3)
    _ = sign.stop()
  }

  /// The smaller findings: `bearer` in any case, the absolute form, a body that is not
  /// UTF-8.
  @Test func tokenSchemeAbsoluteFormAndUTF8() throws {
    let folder = try Folder()
    let sign = try ServedSign(["--token-file", folder.path + "/token", "--output", "ascii", "X"])
    let token = try String(contentsOfFile: folder.path + "/token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
      #expect(sign.client.request("GET", "/api/state", headers: ["Authorization": "\(scheme) \(token)"])?.status == 200, "\(scheme)")
    }
    #expect(sign.client.request("GET", "/api/state", headers: ["Authorization": "Basic \(token)"])?.status == 401)
    let auth = "Authorization: Bearer \(token)\r\n"
    let absolute = sign.client.raw(ServeAttackTests.request("GET", "http://127.0.0.1:\(sign.client.port)/api/state", host: "ignored", extra: auth))
    #expect(absolute?.status == 200)
    let body = Array(#"{"messages": ["bad "#.utf8) + [0xFF, 0xFE] + Array(#""]}"#.utf8)
    var head = Array("PATCH /api/content HTTP/1.1\r\nHost: \(sign.client.host)\r\n\(auth)Content-Type: application/json\r\n".utf8)
    head += Array("Content-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
    let invalid = sign.client.raw(head + body)
    #expect(invalid?.status == 400 && invalid?.text.contains("not UTF-8") == true, "\(invalid?.text ?? "")")
    let state = try ServeTests.json(sign.client.request("GET", "/api/state", headers: ["Authorization": "Bearer \(token)"]))
    #expect(state["zones"]?.arrayValue?.first?["messages"] == .array([.string("X")]))
    _ = sign.stop()
  }

  /// Every loopback address is loopback: no token is asked for `127.0.0.2` or
  /// `::ffff:127.0.0.1`, and one is for an address other machines reach.
  @Test func loopbackAddressesInEverySpelling() throws {
    for address in ["127.0.0.2:0", "[::ffff:127.0.0.1]:0", "[0:0:0:0:0:0:0:1]:0"] {
      let child = try BinaryRunner.start(["serve", "--listen", address, "--output", "ascii", "X"])
      for _ in 0..<3000 where !child.errorSoFar.contains("Serving the sign at") {
        if child.ends(within: 0.01) { break }
      }
      #expect(child.errorSoFar.contains("Serving the sign at"), "\(address): \(child.errorSoFar)")
      child.send(SIGTERM)
      let result = child.wait(timeout: 20)
      #expect(result.status == 128 + SIGTERM, "\(address): \(result.stderr)")
    }
    let open = try BinaryRunner.run(["serve", "--listen", "[::ffff:10.0.0.1]:0", "X"])
    #expect(open.status == 64 && open.stderr.contains("--token-file"), "\(open.stderr)")
  }
}

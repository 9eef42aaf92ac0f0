import Foundation
import HTTP
import Platform
import TestSupport
import Testing

/// `https://` is fetched by the helper `marquee-https` (FoundationNetworking, libcurl) with
/// the rules of `http://`: validators and 304, redirects between the two a few times, the
/// size and time limits, each bad answer refused with its reason; a server signed by an
/// authority the test made is trusted only when the source names it (`"ca"`); and a helper
/// that is missing, cannot load, hangs or floods costs the sign only the wait it chose.
@Suite(.offThePool) struct HTTPSFetchTests {
  /// The helper as `swift build` leaves it beside the test bundle.
  static let helper = SecureFetch.besideThisProgram()

  /// A scripted server with a TLS front, or nil (recorded as skipped) without openssl/python3.
  static func served(_ handler: @escaping @Sendable (ScriptedHTTPServer.Request) -> ScriptedHTTPServer.Reply) throws -> (ScriptedHTTPServer, TLSFront)? {
    if let missing = TLSFront.missingTools {
      print("HTTPSFetchTests: skipped: \(missing)")
      return nil
    }
    let helper = try #require(helper)
    try #require(FileManager.default.isExecutableFile(atPath: helper), "build the helper first: swift build --product marquee-https")
    let server = try #require(ScriptedHTTPServer(handler))
    return (server, try TLSFront(backendPort: server.port))
  }

  /// The failure's words, or "" when the fetch was taken.
  static func failure(_ fetch: () throws(HTTPFetch.Failure) -> HTTPFetch.Answer) -> String {
    do {
      _ = try fetch()
      return ""
    } catch {
      return error.description
    }
  }

  @Test func aPrivateAuthorityIsTrustedOnlyWhenNamedAndValidatorsComeBack() throws {
    guard let (server, front) = try Self.served({ request in
      if request.headers["if-none-match"] == "\"v1\"" { return .status(304, headers: [("ETag", "\"v1\"")]) }
      return .status(200, "{\"t\": 21.5}", headers: [("ETag", "\"v1\""), ("Last-Modified", "Sat, 05 Dec 2026 08:00:00 GMT")])
    }) else { return }
    defer { server.stop() }
    let trusting = SecureFetch(certificateAuthority: front.authority)
    let first = try HTTPFetch.get(front.url("/w.json"), limit: 10, maximumBytes: 1000, secure: trusting)
    #expect(first.status == 200 && first.body == Array("{\"t\": 21.5}".utf8))
    #expect(first.entityTag == "\"v1\"" && first.lastModified == "Sat, 05 Dec 2026 08:00:00 GMT" && first.url == front.url("/w.json"))
    let second = try HTTPFetch.get(
      front.url("/w.json"), limit: 10, maximumBytes: 1000, entityTag: first.entityTag, lastModified: first.lastModified, secure: trusting)
    #expect(second.status == 304 && second.body.isEmpty)
    #expect(server.requests.last?.headers["if-modified-since"] == "Sat, 05 Dec 2026 08:00:00 GMT")

    // Without the authority the system's store is all there is: refused, and the way out said.
    let refused = Self.failure { () throws(HTTPFetch.Failure) in try HTTPFetch.get(front.url("/w.json"), limit: 10, maximumBytes: 1000) }
    #expect(refused.contains(front.url("/w.json")) && refused.contains("certificate is not trusted") && refused.contains("\"ca\""), "\(refused)")
    // The authority is trusted for the helper alone: the system's bundle is as it was.
    if let bundle = try? String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8) {
      #expect(!bundle.contains(try String(contentsOfFile: front.authority, encoding: .utf8)))
    }
    let notPEM = Self.failure { () throws(HTTPFetch.Failure) in
      try HTTPFetch.get(front.url("/w.json"), limit: 10, maximumBytes: 1000, secure: SecureFetch(certificateAuthority: "/etc/hostname"))
    }
    #expect(notPEM.contains("/etc/hostname holds no PEM certificate"), "\(notPEM)")
  }

  @Test func redirectsGoBetweenHTTPAndHTTPSAFewTimes() throws {
    let plain = try #require(ScriptedHTTPServer { request in
      switch request.path {
      default: .status(200, "plain here")
      }
    })
    defer { plain.stop() }
    let plainURL = plain.url("/plain")
    guard let (server, front) = try Self.served({ request in
      switch request.path {
      case "/a": .status(301, headers: [("Location", "/b")])
      case "/b": .status(302, headers: [("Location", plainURL)])
      case "/c": .status(200, "secure here")
      case "/file": .status(302, headers: [("Location", "file:///etc/passwd")])
      default: .status(307, headers: [("Location", "/loop")])
      }
    }) else { return }
    defer { server.stop() }
    let trusting = SecureFetch(certificateAuthority: front.authority)
    let down = try HTTPFetch.get(front.url("/a"), limit: 20, maximumBytes: 100, secure: trusting)
    #expect(down.body == Array("plain here".utf8) && down.url == plainURL)

    let up = try #require(ScriptedHTTPServer { _ in .status(302, headers: [("Location", front.url("/c"))]) })
    defer { up.stop() }
    let secured = try HTTPFetch.get(up.url("/x"), limit: 20, maximumBytes: 100, secure: trusting)
    #expect(secured.body == Array("secure here".utf8) && secured.url == front.url("/c"))

    for (path, words) in [("/file", "which is neither an http:// nor an https:// address"), ("/loop", "more than 5 redirects")] {
      let said = Self.failure { () throws(HTTPFetch.Failure) in try HTTPFetch.get(front.url(path), limit: 30, maximumBytes: 100, secure: trusting) }
      #expect(said.contains(words), "\(path): \(said)")
    }
  }

  @Test func badAnswersAreRefusedWithTheirReasonWithinTheLimit() throws {
    guard let (server, front) = try Self.served({ request in
      switch request.path {
      case "/huge": .status(200, String(repeating: "x", count: 200_000))
      case "/slow": .status(200, "late", delay: 6)
      case "/fail": .status(500, "oops")
      case "/short": .init(bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8))
      default: .init(bytes: Array("SSH-2.0-OpenSSH\r\n".utf8))
      }
    }) else { return }
    defer { server.stop() }
    let trusting = SecureFetch(certificateAuthority: front.authority)
    let cases: [(String, Double, String)] = [
      ("/huge", 10, "larger than 1000 bytes"), ("/slow", 2, "no answer within 2 s"), ("/fail", 10, "answered 500"),
      ("/short", 10, "the answer ended early"), ("/junk", 10, "the answer is not HTTP"),
    ]
    for (path, limit, words) in cases {
      let started = SystemClock.monotonicSeconds()
      let said = Self.failure { () throws(HTTPFetch.Failure) in try HTTPFetch.get(front.url(path), limit: limit, maximumBytes: 1000, secure: trusting) }
      #expect(!said.isEmpty && said.contains(words) && said.contains(front.url(path)), "\(path): \(said)")
      #expect(SystemClock.monotonicSeconds() - started < limit + 3, "\(path) kept the fetch past its limit")
    }
  }

  @Test func aHelperThatIsMissingCannotLoadHangsOrFloodsIsReportedInTime() throws {
    let folder = NSTemporaryDirectory() + "marquee-helpers-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // Written by a shell, not by this process: a descriptor of ours open for writing would be
    // inherited by a child another test starts meanwhile, and the script's exec fail (ETXTBSY).
    func helper(_ name: String, _ script: String) throws -> SecureFetch {
      let path = "\(folder)/\(name)"
      let escaped = script.replacingOccurrences(of: "'", with: "'\\''")
      let written = try ChildProcess.shell("printf '%s\\n' '#!/bin/sh' '\(escaped)' > '\(path)' && chmod 755 '\(path)'")
      try #require(written.status == 0, "\(written.stderr)")
      return SecureFetch(helper: path)
    }
    let url = "https://127.0.0.1:9/x"
    let missing = Self.failure { () throws(HTTPFetch.Failure) in try HTTPFetch.get(url, limit: 5, maximumBytes: 100, secure: SecureFetch(helper: folder + "/none")) }
    #expect(missing.contains("\(folder)/none, which is not there") && missing.contains("swift build -c release --product marquee-https"), "\(missing)")
    // What the dynamic loader says when libcurl4 is not installed, and its status.
    let unloadable = try helper(
      "unloadable", "echo \"$0: error while loading shared libraries: libcurl.so.4: cannot open shared object file: No such file or directory\" >&2; exit 127")
    let noCurl = Self.failure { () throws(HTTPFetch.Failure) in try HTTPFetch.get(url, limit: 5, maximumBytes: 100, secure: unloadable) }
    #expect(noCurl.contains("https:// needs libcurl4") && noCurl.contains("apt install libcurl4") && noCurl.contains("libcurl.so.4"), "\(noCurl)")

    var started = SystemClock.monotonicSeconds()
    let hanging = try helper("hanging", "sleep 60 & sleep 60")
    let hung = Self.failure { () throws(HTTPFetch.Failure) in try HTTPFetch.get(url, limit: 1, maximumBytes: 100, secure: hanging) }
    #expect(hung.contains("no answer within 1 s"), "\(hung)")
    #expect(SystemClock.monotonicSeconds() - started < 5)

    started = SystemClock.monotonicSeconds()
    let flooding = try helper("flooding", "exec yes")
    let flooded = Self.failure { () throws(HTTPFetch.Failure) in try HTTPFetch.get(url, limit: 20, maximumBytes: 100, secure: flooding) }
    #expect(flooded.contains("larger than 100 bytes"), "\(flooded)")
    #expect(SystemClock.monotonicSeconds() - started < 10)
  }
}

import Foundation
import HTTP
import Marquee
import MarqueeServe
import SignService
import SimpleJSON
import TestSupport
import Testing

/// `PUT /api/sources`: a token holder sets the sign's live data sources (they replace the
/// config's), checked whole and refused at the field, never a file of the sign's own, never
/// one that content still shows; kept in the state file before the answer, fetched at once,
/// the same after a restart, and the config's again after a reload.
@Suite(.offThePool) struct SourcesRouteTests {
  static let token = "s3cret-token-for-tests"

  /// A served sign from the config `text` with a state file and a token, its routes, and a
  /// way to send a request with the token.
  final class Sign {
    let folder: SignSessionTests.Folder
    let session: SignSession
    let responder: any HTTPResponder
    let stop = StopFlag()

    init(_ text: String, folder: SignSessionTests.Folder, token: String? = SourcesRouteTests.token) throws {
      self.folder = folder
      let config = folder.path + "/sign.json", state = folder.path + "/state.json"
      if !FileManager.default.fileExists(atPath: config) { try text.write(toFile: config, atomically: true, encoding: .utf8) }
      let load: @Sendable () throws -> RunOptions = {
        var options = try ConfigFile.load(config).options
        options.width = 64
        options.statePath = state
        return options
      }
      session = try SignSession(try load(), stop: stop, reports: .inMemory(), reload: load)
      responder = SignRoutes(session: session).responder(hosts: HostNames(machineName: "signpi"), token: token)
      session.start()
    }

    deinit { stop.set() }

    func send(_ method: String, _ path: String, _ body: String? = nil, token: String? = SourcesRouteTests.token) -> (status: Int, json: JSONValue?) {
      var headers = ["Host": "127.0.0.1:8080"]
      if let token { headers["Authorization"] = "Bearer \(token)" }
      if body != nil { headers["Content-Type"] = "application/json" }
      let answer = responder.respond(to: HTTPRequest(method: method, path: path, query: [:], headers: headers, body: Array((body ?? "").utf8))).wait()
      return (answer.status, try? JSONParser.parse(String(decoding: answer.body, as: UTF8.self)))
    }

    /// The error an answer gives, or "".
    static func error(_ answer: (status: Int, json: JSONValue?)) -> String {
      if case .string(let text)? = answer.json?["error"] { text } else { "" }
    }

    /// The names of the sources `GET /api/sources` gives.
    var names: [String] {
      guard case .array(let list)? = send("GET", "/api/sources").json?["sources"] else { return [] }
      return list.compactMap { if case .string(let name)? = $0["name"] { name } else { nil } }
    }

    /// What the first zone shows now.
    var showing: [String] {
      guard case .array(let zones)? = session.state()["zones"], case .array(let shown)? = zones.first?["showing"] else { return [] }
      return shown.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
  }

  static let config = #"{"sources": [{"name": "notice", "url": "notice.txt", "text": {}}], "messages": ["{source:notice|-}"]}"#

  @Test func aTokenHolderSetsSourcesThatAreFetchedKeptAndRestored() throws {
    let server = try #require(ScriptedHTTPServer { _ in .status(200, #"{"current": {"temperature_2m": 3.25}}"#) })
    defer { server.stop() }
    let folder = try SignSessionTests.Folder()
    try "Closed today".write(toFile: folder.path + "/notice.txt", atomically: true, encoding: .utf8)
    let weather = #"{"name": "weather", "url": "\#(server.url("/f.json"))", "every": 600, "json": "current.temperature_2m", "format": "{0:.1f}°C"}"#
    do {
      let sign = try Sign(SourcesRouteTests.config, folder: folder)
      #expect(sign.names == ["notice"])
      // The config's file source may stay: the list replaces the config's, and content shows it.
      let set = sign.send("PUT", "/api/sources", #"{"sources": [{"name": "notice", "url": "notice.txt", "text": {}}, \#(weather)]}"#)
      #expect(set.status == 400 && Sign.error(set).contains("sources[0].url: 'notice.txt' is a file"), "\(String(describing: set.json))")
      // Taking the notice away while the zone shows it is refused; the list is as it was.
      let away = sign.send("PUT", "/api/sources", #"{"sources": [\#(weather)]}"#)
      #expect(away.status == 400 && Sign.error(away).contains("sources: 'notice' is shown by zone 'main' ({source:notice})"), "\(String(describing: away.json))")
      #expect(sign.names == ["notice"])
      // Content may name only a source the sign has: the weather is not one yet.
      #expect(sign.send("PATCH", "/api/content", #"{"messages": ["Out {source:weather|…}"]}"#).status == 400)
      // So the zone (and the config's) still shows the notice, and a list without it is refused.
      #expect(sign.send("PUT", "/api/sources", #"{"sources": [{"name": "notice2", "url": "\#(server.url("/n"))", "text": {}}, \#(weather)]}"#).status == 400)
    }
    // A config whose zone names nothing: the sources can go and come freely.
    let plain = try SignSessionTests.Folder()
    let sign = try Sign(#"{"messages": ["Out {source:weather|…}"], "sources": [\#(weather)]}"#, folder: plain)
    let put = sign.send("PUT", "/api/sources", #"{"sources": [\#(weather), {"name": "news", "url": "\#(server.url("/n.xml"))", "every": 900, "rss": {}}]}"#)
    #expect(put.status == 200, "\(String(describing: put.json))")
    #expect(sign.names == ["weather", "news"])
    #expect(eventually { sign.showing == ["Out 3.2°C"] })
    // On disk before the answer: the state file has the list as written.
    let kept = try String(contentsOfFile: plain.path + "/state.json", encoding: .utf8)
    #expect(kept.contains(#""sources""#) && kept.contains(server.url("/n.xml")))
    // A restart takes the list up again (and content may name what it set).
    let again = try Sign("", folder: plain)
    #expect(again.names == ["weather", "news"])
    #expect(eventually { again.showing == ["Out 3.2°C"] })
    // A reload (SIGHUP) goes back to the config's.
    guard case .success(.reloaded) = again.session.perform(.reload) else { Issue.record("not reloaded"); return }
    #expect(again.names == ["weather"])
  }

  /// What the config's zones name is the config as last read: after a reload (SIGHUP) to a
  /// config whose zone names no source, the sources can go.
  @Test func aSourceTheReloadedConfigNoLongerShowsCanGo() throws {
    let folder = try SignSessionTests.Folder()
    let source = #"{"name": "w", "url": "http://127.0.0.1:9/w", "text": {}}"#
    let sign = try Sign(#"{"messages": ["Now {source:w|-}"], "sources": [\#(source)]}"#, folder: folder)
    #expect(sign.send("PUT", "/api/sources", #"{"sources": []}"#).status == 400)
    try #"{"messages": ["Plain"], "sources": [\#(source)]}"#.write(toFile: folder.path + "/sign.json", atomically: true, encoding: .utf8)
    guard case .success(.reloaded) = sign.session.perform(.reload) else { Issue.record("not reloaded"); return }
    let answer = sign.send("PUT", "/api/sources", #"{"sources": []}"#)
    #expect(answer.status == 200, "\(Sign.error(answer))")
    #expect(sign.names.isEmpty)
  }

  @Test(arguments: [
    (#"{"sources": [{"name": "a", "url": "/etc/shadow", "text": {}}]}"#, "sources[0].url: '/etc/shadow' is a file"),
    (#"{"sources": [{"name": "a", "url": "file:///etc/shadow", "text": {}}]}"#, "sources[0].url: 'file:///etc/shadow' is a file"),
    (#"{"sources": [{"name": "a", "url": "https://x/", "ca": "/etc/ssl/private/key.pem", "text": {}}]}"#, "sources[0].ca: an authority's file is named in the config"),
    (#"{"sources": [{"name": "a", "url": "http://x/t.pb", "gtfsRealtime": {"static": "/var/lib/gtfs.zip", "stop": "S"}}]}"#, "sources[0].gtfsRealtime.static: '/var/lib/gtfs.zip' is a file"),
    (#"{"sources": [{"name": "a", "url": "http://x/", "every": 0, "text": {}}]}"#, "sources[0].every"),
    (#"{"sources": [{"name": "a", "url": "http://x/", "text": {}}, {"name": "a", "url": "http://y/", "text": {}}]}"#, "sources[1].name"),
    (#"{"sources": "http://x/"}"#, "sources"),
    (#"{"source": []}"#, "source"),
  ])
  func aBadListIsRefusedAtItsFieldAndChangesNothing(body: String, words: String) throws {
    let folder = try SignSessionTests.Folder()
    let sign = try Sign(#"{"messages": ["x"], "sources": [{"name": "w", "url": "http://127.0.0.1:9/w", "text": {}}]}"#, folder: folder)
    let answer = sign.send("PUT", "/api/sources", body)
    #expect(answer.status == 400 && Sign.error(answer).contains(words), "\(String(describing: answer.json))")
    #expect(sign.names == ["w"])
    let kept = (try? String(contentsOfFile: folder.path + "/state.json", encoding: .utf8)) ?? ""
    #expect(!kept.contains("sources"), "\(kept)")
  }

  @Test func withoutATokenSourcesAreNotSetAndTheTokenIsAsked() throws {
    let folder = try SignSessionTests.Folder()
    let open = try Sign(#"{"messages": ["x"]}"#, folder: folder, token: nil)
    let refused = open.send("PUT", "/api/sources", #"{"sources": []}"#, token: nil)
    #expect(refused.status == 403 && Sign.error(refused).contains("only on a sign that asks for its token"))
    let guarded = try Sign(#"{"messages": ["x"]}"#, folder: try SignSessionTests.Folder())
    #expect(guarded.send("PUT", "/api/sources", #"{"sources": []}"#, token: "wrong").status == 401)
    #expect(guarded.send("PUT", "/api/sources", #"{"sources": []}"#).status == 200)
  }
}

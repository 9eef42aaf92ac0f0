import Foundation
import HTTP
import SimpleJSON
import Testing
import TestSupport

@testable import MarqueeServe

/// The page is three files in the repository (Sources/MarqueeServe/Page), carried in the
/// binary by a generated Swift file: the generated file matches them, the script is valid
/// JavaScript to node, every element the script looks up exists, and the sign serves the
/// three with a policy that lets nothing else run.
@Suite struct WebPageFilesTests {
  static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/MarqueeServe/Page")

  static func file(_ name: String) throws -> String {
    try String(contentsOf: page.appendingPathComponent(name), encoding: .utf8)
  }

  static let hasPython = ChildProcess.commandExists("python3")
  static let hasNode = ChildProcess.commandExists("node")

  @Test func theBinaryCarriesThePageFilesAsTheyAre() throws {
    // The page as written, its style and script named by the version of the two.
    let versioned = try WebPageFilesTests.file("index.html")
      .replacingOccurrences(of: #""/page.css""#, with: #""/page.css?v=\#(WebPage.version)""#)
      .replacingOccurrences(of: #""/page.js""#, with: #""/page.js?v=\#(WebPage.version)""#)
    #expect(WebPage.html == versioned)
    #expect(WebPage.css == (try WebPageFilesTests.file("page.css")))
    #expect(WebPage.script == (try WebPageFilesTests.file("page.js")))
    #expect(WebPage.manifest == (try WebPageFilesTests.file("manifest.webmanifest")))
    #expect(WebPage.icon == (try WebPageFilesTests.file("icon.svg")))
  }

  /// Input borders stand out at least 3:1 against the page and the field behind them (WCAG
  /// 1.4.11), as the style sheet declares the colours.
  @Test func inputBordersHaveThreeToOneContrast() throws {
    let css = try WebPageFilesTests.file("page.css")
    func colour(_ pattern: String) throws -> String {
      let match = try #require(css.range(of: pattern + "#[0-9a-f]{3,6}", options: .regularExpression))
      return String(css[match].drop { $0 != "#" }.dropFirst())
    }
    func luminance(_ hex: String) -> Double {
      let full = hex.count == 3 ? hex.map { "\($0)\($0)" }.joined() : hex
      let channels = stride(from: 0, to: 6, by: 2).map { index -> Double in
        let start = full.index(full.startIndex, offsetBy: index)
        let value = Double(Int(full[start..<full.index(start, offsetBy: 2)], radix: 16)!) / 255
        return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
      }
      return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }
    func contrast(_ a: String, _ b: String) -> Double {
      let (light, dark) = (max(luminance(a), luminance(b)), min(luminance(a), luminance(b)))
      return (light + 0.05) / (dark + 0.05)
    }
    let border = try colour("--line: "), page = try colour("body \\{ margin: 0; background: "),
      field = try colour("textarea, select, input \\{ background: ")
    #expect(contrast(border, page) >= 3, "border #\(border) on the page #\(page): \(contrast(border, page))")
    #expect(contrast(border, field) >= 3, "border #\(border) on a field #\(field): \(contrast(border, field))")
  }

  /// The gzipped copies are the files: read back by gunzip (an independent decoder), each is
  /// its text, byte for byte; the sign sends them to a browser that accepts gzip, and the
  /// text to one that does not (or refuses it with q=0).
  @Test(.enabled(if: ChildProcess.commandExists("gunzip"), "needs gunzip (Debian package gzip)"))
  func theGzippedCopiesAreTheFilesAndGoOnlyToWhoAcceptsThem() throws {
    for (gzipped, text) in [(WebPage.htmlGzip, WebPage.html), (WebPage.cssGzip, WebPage.css), (WebPage.scriptGzip, WebPage.script)] {
      #expect(gzipped.count > 0 && gzipped.count < text.utf8.count / 2)
      let path = NSTemporaryDirectory() + "marquee-page-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).gz"
      try Data(gzipped).write(to: URL(fileURLWithPath: path))
      defer { try? FileManager.default.removeItem(atPath: path) }
      let result = try ChildProcess.run("/usr/bin/env", ["gunzip", "-c", path], timeout: 30)
      #expect(result.status == 0 && result.stdout == text, "\(result.stderr)")
    }
    let served = try SignRoutesTests.Served()
    for (accept, gzipped) in [("gzip, deflate, br", true), ("deflate", false), ("gzip;q=0", false), ("*", true), (nil, false), ("GZIP; q=0.5", true)] {
      let answer = served.send("GET", "/page.js", headers: accept.map { ["Accept-Encoding": $0] } ?? [:])
      #expect(answer.status == 200)
      #expect((answer.header("Content-Encoding") == "gzip") == gzipped, "Accept-Encoding: \(accept ?? "none")")
      #expect(answer.body == (gzipped ? WebPage.scriptGzip : Array(WebPage.script.utf8)))
      #expect(answer.header("Vary") == "Accept-Encoding")
    }
  }

  @Test(.enabled(if: hasPython, "needs python3 (Debian package python3)"))
  func theGeneratedSwiftIsWhatTheGeneratorWrites() throws {
    let result = try ChildProcess.run("/usr/bin/env", ["python3", WebPageFilesTests.page.appendingPathComponent("generate.py").path, "--check"], timeout: 60)
    #expect(result.status == 0, "\(result.stderr)")
  }

  @Test(.enabled(if: hasNode, "needs node (Debian package nodejs)"))
  func theScriptIsValidJavaScript() throws {
    let result = try ChildProcess.run("/usr/bin/env", ["node", "--check", WebPageFilesTests.page.appendingPathComponent("page.js").path], timeout: 60)
    #expect(result.status == 0, "node --check page.js: \(result.stderr)")
  }

  static let hasTidy = ChildProcess.commandExists("tidy")

  /// HTML Tidy reads the page without an error or a warning. (`inputmode` and
  /// `autocapitalize` are HTML's own attributes; Debian's tidy 5.6 predates them, so its
  /// warning about "proprietary" attributes is off.)
  @Test(.enabled(if: hasTidy, "needs tidy (Debian package tidy)"))
  func theMarkupIsValid() throws {
    let result = try ChildProcess.run(
      "/usr/bin/env", ["tidy", "-q", "-e", "--warn-proprietary-attributes", "no", WebPageFilesTests.page.appendingPathComponent("index.html").path],
      timeout: 60)
    #expect(result.status == 0 && result.stderr.isEmpty, "tidy: \(result.stderr)")
  }

  @Test func everyElementTheScriptNamesIsOnThePage() throws {
    let script = WebPage.script, html = WebPage.html
    let named = Set(script.matches(of: /\$\("([a-z0-9-]+)"\)/).map { String($0.1) })
    let present = Set(html.matches(of: /\sid="([a-z0-9-]+)"/).map { String($0.1) })
    #expect(named.count > 30)
    #expect(named.subtracting(present).isEmpty, "the script looks up elements the page lacks: \(named.subtracting(present).sorted())")
    // Every word the page marks for translation has its English and Chinese.
    let keys = Set(html.matches(of: /data-t(?:-aria)?="([A-Za-z0-9-]+)"/).map { String($0.1) })
    let scriptBytes = Array(script.utf8)
    for key in keys {
      #expect(WebPageFilesTests.occurs("\(key):", in: scriptBytes) || WebPageFilesTests.occurs("\"\(key)\":", in: scriptBytes), "no words for data-t \"\(key)\"")
    }
  }

  /// Whether `pattern` occurs in `text`, compared as bytes: Foundation's `contains`, on a
  /// script with Chinese in it, took most of a second for the page's keys in a debug build.
  static func occurs(_ pattern: String, in text: [UInt8]) -> Bool {
    let bytes = Array(pattern.utf8)
    var index = 0
    while index + bytes.count <= text.count {
      if text[index] == bytes[0] && text[index..<(index + bytes.count)].elementsEqual(bytes) { return true }
      index += 1
    }
    return false
  }

  /// The manifest is JSON naming the page and an icon the sign serves; the icon is SVG.
  @Test func thePageCanBeAddedToAHomeScreen() throws {
    let manifest = try JSONParser.parse(WebPage.manifest)
    #expect(manifest["start_url"] == .string("/") && manifest["display"] == .string("standalone"))
    guard case .array(let icons)? = manifest["icons"], case .string(let source)? = icons.first?["src"] else {
      Issue.record("no icon in the manifest")
      return
    }
    #expect(source == "/icon.svg" && WebPage.icon.hasPrefix("<svg "))
    #expect(WebPage.html.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#))
    #expect(WebPage.policy.contains("manifest-src 'self'"))
    // The page's weight: what a phone loads on a slow link, all from the sign's memory.
    let bytes = [WebPage.html, WebPage.css, WebPage.script, WebPage.manifest, WebPage.icon].map(\.utf8.count).reduce(0, +)
    #expect(bytes < 96 * 1024, "\(bytes) bytes")
  }

  @Test func theSignServesTheThreeWithAPolicy() throws {
    let served = try SignRoutesTests.Served()
    for (path, type, body) in [
      ("/", "text/html", WebPage.html), ("/page.css", "text/css", WebPage.css), ("/page.js", "text/javascript", WebPage.script),
      ("/manifest.webmanifest", "application/manifest+json", WebPage.manifest), ("/icon.svg", "image/svg+xml", WebPage.icon),
    ] {
      let answer = served.send("GET", path)
      #expect(answer.status == 200, "\(path)")
      #expect(answer.header("content-type")?.hasPrefix(type) == true, "\(path)")
      #expect(answer.body == Array(body.utf8), "\(path)")
      #expect(answer.header("content-security-policy")?.contains("script-src 'self'") == true, "\(path)")
    }
    #expect(WebPage.html.contains(#"<link rel="stylesheet" href="/page.css?v=\#(WebPage.version)">"#))
    #expect(WebPage.html.contains(#"<script src="/page.js?v=\#(WebPage.version)"></script>"#))
    // Named by its version, a file may be kept; otherwise, and the page itself, asked again.
    #expect(served.send("GET", "/page.js?v=\(WebPage.version)").header("cache-control") == "public, max-age=31536000, immutable")
    #expect(served.send("GET", "/page.css?v=\(WebPage.version)").header("cache-control") == "public, max-age=31536000, immutable")
    #expect(served.send("GET", "/page.js?v=old").header("cache-control") == "no-cache")
    #expect(served.send("GET", "/").header("cache-control") == "no-cache")
    let wire = String(decoding: served.send("GET", "/page.js?v=\(WebPage.version)").serialized(closes: false), as: UTF8.self)
    #expect(wire.components(separatedBy: "Cache-Control:").count == 2, "one Cache-Control header on the wire")
    #expect(served.send("GET", "/api/state").header("cache-control") == nil, "the API's answers carry the server's no-store")
    #expect(!WebPage.html.contains("<script>") && !WebPage.html.contains("<style>"), "inline script or style would be refused by the policy")
  }
}

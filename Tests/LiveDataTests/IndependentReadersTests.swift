import Foundation
import LiveData
import SimpleJSON
import TestSupport
import Testing

/// LiveData reads what sources send as other people's readers do: number formats as Python's
/// `str.format`, JSON Pointers as Python's `json` walked by RFC 6901, and feeds' titles as
/// `feedparser` (PyPI, in `.build/venv-sources`, which `.ci/run` makes).
@Suite(.offThePool) struct IndependentReadersTests {
  static let python = PythonTools.python(
    [ProcessInfo.processInfo.environment["MARQUEE_SOURCES_PYTHON"], ".build/venv-sources/bin/python"], importing: "feedparser")
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("independent_readers.py").path

  /// Python's answers to `job`.
  static func answers(_ job: JSONValue) throws -> JSONValue {
    let python = try #require(python)
    let result = try ChildProcess.run(python, [script], input: Data(job.text.utf8))
    #expect(result.status == 0, "\(result.stderr)")
    return try JSONParser.parse(bytes: [UInt8](result.stdoutData))
  }

  /// A generator that gives the same numbers on every run.
  struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return state ^ (state >> 29)
    }
  }

  @Test(.enabled(if: python != nil, "needs feedparser from PyPI in .build/venv-sources (.ci/run installs it)"))
  func numbersShowAsPythonFormatsThem() throws {
    var random = Seeded(state: 7)
    var cases: [(spec: String, number: Double)] = []
    // Halves and near-halves, where rounding differs between ways of doing it.
    let tricky: [Double] = [2.675, 0.125, 0.375, 1.5, 2.5, -2.5, 0.05, -0.05, 1.005, 1.015, 1e10 + 0.5, 123_456.789, 0, 0.0004, 99.95, 9.995, -0.0004]
    for spec in [".0f", ".1f", ".2f", ".3f", ".6f", ".9f"] {
      for number in tricky { cases.append((spec, number)) }
      for _ in 0..<60 {
        let magnitude = Double.random(in: -4...9, using: &random)
        let number = (Double.random(in: 0..<1, using: &random) < 0.5 ? -1 : 1) * Double.random(in: 1..<10, using: &random) * pow(10, magnitude.rounded(.down))
        cases.append((spec, number))
      }
    }
    for _ in 0..<40 { cases.append(("d", Double(Int.random(in: -1_000_000...1_000_000, using: &random)))) }
    for _ in 0..<40 { cases.append(("", Double(Int.random(in: -100_000...100_000, using: &random)) / 1000)) }
    let job = JSONValue.object([("formats", .array(cases.map { .array([.string($0.spec), .number($0.number)]) }))])
    let expected = try IndependentReadersTests.answers(job)["formats"]
    guard case .array(let texts)? = expected else { Issue.record("no formats in \(String(describing: expected))"); return }
    #expect(texts.count == cases.count)
    for (index, (spec, number)) in cases.enumerated() where index < texts.count {
      let ours = try NumberFormat("{0:\(spec)}").text(number)
      // Python writes a whole float in {} as 2.0; JSON cannot tell 2 from 2.0, so a whole
      // number is written as one.
      guard case .string(var theirs) = texts[index] else { continue }
      if spec.isEmpty, theirs.hasSuffix(".0") { theirs.removeLast(2) }
      #expect(ours == theirs, "format(\(number), '\(spec)')")
    }
  }

  @Test(.enabled(if: python != nil, "needs feedparser from PyPI in .build/venv-sources (.ci/run installs it)"))
  func pointersFindWhatPythonFinds() throws {
    let documents = [
      #"{"current": {"temperature_2m": 21.4, "wind": [3, 5.5, {"gust": 9}]}, "a/b": {"c~d": "slashes"}, "": {"": 1}, "list": ["x", "y"]}"#,
      #"[{"route": "7", "minutes": [2, 14]}, {"route": "12", "minutes": []}, null, true]"#,
      #"{"data": {"stations": [{"name": "中央", "next": "12:05"}], "count": 1}, "0": "zero key"}"#,
    ]
    let pointers = [
      "", "/current", "/current/temperature_2m", "/current/wind/1", "/current/wind/2/gust", "/current/wind/3", "/current/wind/01",
      "/a~1b/c~0d", "/a~1b", "//", "/", "/list/0", "/list/-", "/0/route", "/0/minutes/1", "/1/minutes/0", "/2", "/3",
      "/data/stations/0/name", "/data/count", "/0", "/data/stations/0/next/x", "/nope",
    ]
    var cases: [(String, String)] = []
    for document in documents { for pointer in pointers { cases.append((document, pointer)) } }
    let job = JSONValue.object([("pointers", .array(cases.map { .array([.string($0.0), .string($0.1)]) }))])
    guard case .array(let answers)? = try IndependentReadersTests.answers(job)["pointers"] else { Issue.record("no pointers"); return }
    for ((document, pointer), answer) in zip(cases, answers) {
      let ours = try JSONPath(pointer).value(in: try JSONParser.parse(document))
      guard case .array(let pair) = answer, pair.count == 2 else { continue }
      #expect((ours != nil) == (pair[0] == .bool(true)), "\(pointer) in \(document)")
      if let ours, pair[0] == .bool(true) { #expect(ours == pair[1], "\(pointer) in \(document)") }
    }
  }

  static let feeds = [
    // RSS 2.0: CDATA, references, a Chinese title, a title over lines, an item with none.
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <rss version="2.0"><channel><title>News</title>
    <item><title><![CDATA[Storm warning: <b>stay in</b>]]></title><pubDate>Sat, 05 Dec 2026 08:00:00 GMT</pubDate></item>
    <item><title>Tom &amp; Jerry&#8217;s &#x4e2d; day</title></item>
    <item><title>地铁 2 号线 延误</title></item>
    <item><title>
      A title
      over lines
    </title></item>
    <item><description>no title here</description></item>
    </channel></rss>
    """,
    // Atom: text, html and xhtml titles.
    """
    <?xml version="1.0" encoding="utf-8"?>
    <feed xmlns="http://www.w3.org/2005/Atom"><title>Feed</title>
    <entry><title>Plain &lt;not markup&gt;</title><updated>2026-12-05T08:00:00Z</updated></entry>
    <entry><title type="html">&lt;em&gt;Fresh&lt;/em&gt; bread &amp;amp; cake</title></entry>
    <entry><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Open <b>late</b> today</div></title></entry>
    </feed>
    """,
    // RSS 1.0 (RDF) with Dublin Core dates.
    """
    <?xml version="1.0"?>
    <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
    <channel rdf:about="x"><title>T</title></channel>
    <item rdf:about="a"><title>First</title><dc:date>2026-12-05</dc:date></item>
    <item rdf:about="b"><title>Second &#169; 2026</title></item>
    </rdf:RDF>
    """,
  ]

  @Test(.enabled(if: python != nil, "needs feedparser from PyPI in .build/venv-sources (.ci/run installs it)"))
  func feedTitlesAreFeedparsers() throws {
    let job = JSONValue.object([("feeds", .array(IndependentReadersTests.feeds.map { .string($0) }))])
    guard case .array(let answers)? = try IndependentReadersTests.answers(job)["feeds"] else { Issue.record("no feeds"); return }
    for (feed, answer) in zip(IndependentReadersTests.feeds, answers) {
      let ours = try FeedReader.items(Array(feed.utf8)).map(\.title)
      guard case .array(let titles) = answer else { continue }
      #expect(ours == titles.compactMap { if case .string(let title) = $0 { title } else { nil } }, "\(feed.prefix(60))")
    }
  }
}

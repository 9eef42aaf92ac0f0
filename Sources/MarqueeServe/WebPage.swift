import HTTP

/// The page `marquee serve` gives at `/`, with its style and script (`/page.css`,
/// `/page.js`): nothing fetched from elsewhere, so it works offline and on a phone. The
/// three are edited as files in `Page/` and carried in the binary (`WebPage+Files.swift`,
/// written by `Page/generate.py`, which a test runs to check it).
///
/// It draws the live sign as LEDs on a canvas from the event stream (read with `fetch`, so
/// the token can go in a header), and has controls for a zone's messages, mode, entry
/// effect and speed, for the brightness, and for pausing. When the sign asks for a token it
/// asks the person once and keeps it in the browser (`localStorage`); after a wrong token
/// or Cancel it asks no more, says so, and offers a button to enter it again. Below, the
/// programs with the one playing marked, and an editor for their schedules and messages; and
/// a form that sends a notification, with those waiting and showing. Its words are in English
/// and Simplified Chinese, chosen from the browser's language or by the switch at the top
/// (remembered in `localStorage`); effect names stay the sign's identifiers, with their
/// summaries translated, and what a person types is never translated.
enum WebPage {
  /// What the page may load and run: only its own script and style from this sign, only
  /// this sign to talk to, and no framing: an injected tag could not run or send anything.
  static let policy =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data: blob:; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

  /// The page, its style and its script gzipped (decoded once, at first use).
  static let htmlGzip = Base64.decode(htmlGzip64) ?? []
  static let cssGzip = Base64.decode(cssGzip64) ?? []
  static let scriptGzip = Base64.decode(scriptGzip64) ?? []

  /// The answer for one of the page's files: gzipped when the browser accepts it
  /// (`Accept-Encoding`) and a gzipped copy is carried. Asked for by its version (`?v=` as
  /// the page names it), a file may be kept for a year (it never changes under that name);
  /// otherwise, and for the page itself, the browser asks again each time.
  static func response(
    _ text: String, gzipped: [UInt8] = [], type: String, version: String? = nil, for request: HTTPRequest? = nil
  ) -> HTTPResponse {
    var response = HTTPResponse.text(text, type: type)
    if !gzipped.isEmpty, let request, WebPage.acceptsGzip(request.header("Accept-Encoding")) {
      response.body = gzipped
      response.headers.append(("Content-Encoding", "gzip"))
    }
    response.headers.append(("Vary", "Accept-Encoding"))
    response.headers.append(("Content-Security-Policy", policy))
    response.headers.append(("Cache-Control", version == WebPage.version ? "public, max-age=31536000, immutable" : "no-cache"))
    return response
  }

  /// Whether an `Accept-Encoding` value takes gzip (`gzip` or `*`, not refused with `q=0`).
  static func acceptsGzip(_ header: String?) -> Bool {
    guard let header else { return false }
    let plain = String(header.lowercased().filter { $0 != " " && $0 != "\t" })
    for part in plain.split(separator: ",") {
      let pieces = part.split(separator: ";")
      guard let coding = pieces.first, coding == "gzip" || coding == "*" else { continue }
      let weight = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
      if weight > 0 { return true }
    }
    return false
  }
}

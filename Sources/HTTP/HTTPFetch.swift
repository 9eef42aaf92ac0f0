import Platform

/// A GET of a document for a live data source, with one time limit for the whole exchange
/// (redirects included), a size limit that is an error and not a cut, the validators of the
/// last answer sent back (`If-None-Match`, `If-Modified-Since`) so an unchanged document costs
/// a `304`, and at most five redirects, to `http://` and `https://` only.
///
/// `http://` is spoken here (chunked answers read); `https://` by the helper program
/// `marquee-https` (``SecureFetch``), one run per exchange.
public enum HTTPFetch {
  /// What a fetch brought.
  public struct Answer: Sendable, Equatable {
    /// 200 (a document) or 304 (unchanged since the validators sent).
    public var status: Int
    public var body: [UInt8]
    /// The validators to send next time.
    public var entityTag: String?
    public var lastModified: String?
    /// The address the document came from, after redirects.
    public var url: String
  }

  /// Why a fetch failed, in words for a person (the address, and what happened).
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
  }

  /// The most redirects followed.
  public static let maximumRedirects = 5

  /// Fetches `url`, within `limit` seconds in all, refusing a document over `maximumBytes`;
  /// `https://` through `secure` (the helper beside this program, trusting the system's
  /// certificate authorities, by default).
  ///
  /// - Throws: ``Failure``: an address that is neither `http://` nor `https://`, the host
  ///   not found, no answer in time, a status other than 200 and 304, too many redirects, a
  ///   document too large, an answer that is not HTTP, a certificate not trusted, no helper.
  public static func get(
    _ url: String, limit: Double, maximumBytes: Int, entityTag: String? = nil, lastModified: String? = nil,
    secure: SecureFetch = SecureFetch()
  ) throws(Failure) -> Answer {
    let deadline = SystemClock.monotonicSeconds() + limit
    var address = url
    for _ in 0...maximumRedirects {
      let target = try Target(address)
      let left = deadline - SystemClock.monotonicSeconds()
      guard left > 0 else { throw Failure("\(url): no answer within \(seconds(limit)) s") }
      let bytes: [UInt8]
      if target.isSecure {
        bytes = try secure.exchange(address, deadline: deadline, limit: limit, maximumBytes: maximumBytes, entityTag: entityTag, lastModified: lastModified)
      } else {
        bytes = try exchange(target, address: address, left: left, limit: limit, maximumBytes: maximumBytes, entityTag: entityTag, lastModified: lastModified)
      }
      guard let answer = HTTPClient.parse(bytes, keepingWholeBody: true) else { throw Failure("\(address): the answer is not HTTP") }
      switch answer.status {
      case 200:
        var body = answer.body
        if answer.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
          guard let joined = dechunk(body) else { throw Failure("\(address): a chunked answer that does not end as chunks do") }
          body = joined
        } else if let length = answer.header("Content-Length").flatMap(Int.init), body.count < length {
          throw Failure("\(address): the answer ended after \(body.count) of its \(length) bytes")
        }
        guard body.count <= maximumBytes else {
          throw Failure("\(address): the document is larger than \(maximumBytes) bytes (the source's \"maxBytes\")")
        }
        return Answer(status: 200, body: body, entityTag: answer.header("ETag"), lastModified: answer.header("Last-Modified"), url: address)
      case 304:
        return Answer(status: 304, body: [], entityTag: answer.header("ETag") ?? entityTag, lastModified: answer.header("Last-Modified") ?? lastModified, url: address)
      case 301, 302, 303, 307, 308:
        guard let location = answer.header("Location"), !location.isEmpty else { throw Failure("\(address): a redirect (\(answer.status)) without a Location") }
        address = target.resolve(location)
        guard address.hasPrefix("http://") || address.hasPrefix("https://") else {
          throw Failure("\(url): redirected to \(address), which is neither an http:// nor an https:// address")
        }
      default:
        throw Failure("\(address): the server answered \(answer.status)")
      }
    }
    throw Failure("\(url): more than \(maximumRedirects) redirects")
  }

  /// One plain-HTTP exchange with `target`, within `left` seconds: the answer's bytes.
  static func exchange(
    _ target: Target, address: String, left: Double, limit: Double, maximumBytes: Int, entityTag: String?, lastModified: String?
  ) throws(Failure) -> [UInt8] {
    var head = "GET \(target.path) HTTP/1.1\r\nHost: \(target.hostHeader)\r\nConnection: close\r\nUser-Agent: marquee\r\nAccept-Encoding: identity\r\n"
    if let entityTag { head += "If-None-Match: \(entityTag)\r\n" }
    if let lastModified { head += "If-Modified-Since: \(lastModified)\r\n" }
    let client = HTTPClient(target.address, limit: left)
    do {
      return try client.exchange(Array((head + "\r\n").utf8), maximumBytes: maximumBytes + 65_536)
    } catch {
      // The exchange's own limit is what was left of the whole: the whole is what is said.
      if error.description.contains("did not answer within") { throw Failure("\(address): no answer within \(seconds(limit)) s") }
      let said = error.description
      throw Failure("\(address): " + (said.hasPrefix(client.url) ? "the server" + said.dropFirst(client.url.count) : said))
    }
  }

  /// `seconds` as a person writes it (10, 2.5).
  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }

  /// The body of a chunked answer, joined; nil when it does not end as chunks do.
  static func dechunk(_ bytes: [UInt8]) -> [UInt8]? {
    var body: [UInt8] = []
    var index = 0
    while true {
      guard let end = bytes[index...].firstRange(of: [0x0D, 0x0A]) else { return nil }
      let sizeText = String(decoding: bytes[index..<end.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
      guard let size = Int(HTTPRequestParser.trimmed(sizeText), radix: 16), size >= 0 else { return nil }
      index = end.upperBound
      if size == 0 { return body }
      guard bytes.count - index >= size + 2 else { return nil }
      body += bytes[index..<(index + size)]
      index += size + 2
    }
  }

  /// An `http://` or `https://` address taken apart.
  struct Target {
    /// `http` or `https`.
    var scheme: String
    var address: HostPort
    var hostHeader: String
    /// The path and query, `/` at least.
    var path: String

    /// Whether it is fetched over TLS (by the helper).
    var isSecure: Bool { scheme == "https" }

    init(_ url: String) throws(Failure) {
      guard let separator = url.firstRange(of: "://"), ["http", "https"].contains(url[..<separator.lowerBound]) else {
        throw Failure("\(url): neither an http:// nor an https:// address")
      }
      scheme = String(url[..<separator.lowerBound])
      let rest = url[separator.upperBound...]
      let slash = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
      let authority = rest[..<slash]
      guard !authority.contains("@") else { throw Failure("\(url): a user name in the address is not sent; leave it out") }
      do {
        address = try HostPort(authority, ports: .required(defaultPort: scheme == "https" ? 443 : 80))
      } catch {
        throw Failure("\(url): \(error)")
      }
      hostHeader = String(authority)
      let tail = rest[slash...].prefix { $0 != "#" }
      path = tail.isEmpty ? "/" : (tail.hasPrefix("?") ? "/" + tail : String(tail))
      guard path.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { throw Failure("\(url): the address has spaces or characters to percent-encode") }
    }

    /// A `Location` read against this address: absolute, from the root, or beside the path.
    func resolve(_ location: String) -> String {
      if location.contains("://") { return location }
      if location.hasPrefix("//") { return "\(scheme):" + location }
      if location.hasPrefix("/") { return "\(scheme)://\(hostHeader)\(location)" }
      let folder = path.prefix { $0 != "?" }
      let base = folder.lastIndex(of: "/").map { folder[...$0] } ?? "/"
      return "\(scheme)://\(hostHeader)\(base)\(location)"
    }
  }
}

/// Reads HTTP/1.1 requests from the bytes a connection received, within limits: the
/// request line and headers at most ``maximumHead`` bytes, a body at most ``maximumBody``
/// bytes and only with `Content-Length` (no chunked bodies).
///
/// A pure function of the bytes: the server and the fuzzer call it the same way.
public enum HTTPRequestParser {
  public static let maximumHead = 8 * 1024
  public static let maximumBody = 64 * 1024
  public static let maximumHeaders = 64

  /// What the bytes hold so far.
  public enum Outcome: Equatable, Sendable {
    /// Not a whole request yet.
    case incomplete
    /// A request, and how many bytes it took.
    case request(HTTPRequest, consumed: Int)
    /// A request that cannot be served (the connection is then closed).
    case failure(HTTPRequestError)
  }

  static func failure(_ status: Int, _ message: String) -> Outcome {
    .failure(HTTPRequestError(status: status, message: message))
  }

  /// Reads the first request in `bytes`.
  public static func parse(_ bytes: ArraySlice<UInt8>) -> Outcome {
    // The end of the head: CRLF CRLF (a bare LF LF is taken too, as servers commonly do).
    guard let (headEnd, bodyStart) = endOfHead(bytes) else {
      return bytes.count > maximumHead ? tooLongHead : .incomplete
    }
    if headEnd - bytes.startIndex > maximumHead { return tooLongHead }
    let head = bytes[bytes.startIndex..<headEnd]
    guard head.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || ($0 >= 0x20 && $0 < 0x7F) }) else {
      return failure(400, "the request head holds bytes that are not printable ASCII")
    }
    // Split as bytes: in Swift "\r\n" is one Character, so a String would not split it.
    let lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
      Substring(String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self))
    }
    let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isUppercase }),
      let target = Target(parts[1])
    else {
      return failure(400, "the request line is not 'METHOD /path HTTP/1.1'")
    }
    guard parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
      return failure(505, "only HTTP/1.1 and HTTP/1.0 are spoken here")
    }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() where !line.isEmpty {
      guard headers.count < maximumHeaders else { return failure(431, "more than \(maximumHeaders) headers") }
      guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, !line.first!.isWhitespace,
        line[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "-_".contains($0) })
      else {
        return failure(400, "a header line is not 'Name: value'")
      }
      let name = line[..<colon].lowercased()
      let value = trimmed(line[line.index(after: colon)...])
      if let earlier = headers[name] {
        // Repeated headers join with commas, except the ones that must be single.
        guard !["content-length", "host", "authorization", "content-type"].contains(name) else {
          return failure(400, "the header '\(name)' is given twice")
        }
        headers[name] = earlier + ", " + value
      } else {
        headers[name] = value
      }
    }
    if headers["transfer-encoding"] != nil {
      return failure(501, "chunked request bodies are not taken; send Content-Length")
    }
    var length = 0
    if let text = headers["content-length"] {
      guard let value = Int(text), value >= 0, text.allSatisfy(\.isNumber) else {
        return failure(400, "Content-Length is not a number")
      }
      guard value <= maximumBody else { return failure(413, "the body is longer than \(maximumBody) bytes") }
      length = value
    }
    let version11 = parts[2] == "HTTP/1.1"
    // RFC 9112 3.2: an HTTP/1.1 request without Host is answered 400.
    if version11 && headers["host"] == nil {
      return failure(400, "an HTTP/1.1 request needs a Host header")
    }
    guard bytes.endIndex - bodyStart >= length else { return .incomplete }
    guard let path = percentDecoded(target.path) else { return failure(400, "the path has a bad percent escape") }
    let connection = headers["connection"]?.lowercased() ?? ""
    let closes = connection.contains("close") || (!version11 && !connection.contains("keep-alive"))
    let request = HTTPRequest(
      method: String(parts[0]), path: path, query: target.query, headers: headers,
      body: Array(bytes[bodyStart..<(bodyStart + length)]), closes: closes, version: String(parts[2]),
      authority: target.authority ?? headers["host"])
    return .request(request, consumed: bodyStart + length - bytes.startIndex)
  }

  static let tooLongHead = failure(431, "the request line and headers are longer than \(maximumHead) bytes")

  /// A request target: origin form (`/path?query`) or absolute form
  /// (`http://host:port/path?query`, RFC 9112 3.2.2).
  struct Target {
    var authority: String?
    var path: Substring
    var query: [String: String] = [:]

    init?(_ text: Substring) {
      var rest = text
      if rest.lowercased().hasPrefix("http://") {
        rest = rest.dropFirst(7)
        let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        authority = String(rest[..<end])
        guard let authority, !authority.isEmpty, !authority.contains("@") else { return nil }
        rest = rest[end...]
        if rest.isEmpty || rest.first == "?" { rest = "/" + rest }
      }
      guard rest.hasPrefix("/") else { return nil }
      let pieces = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
      path = pieces[0]
      if pieces.count == 2 {
        for pair in pieces[1].split(separator: "&") {
          let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
          if let name = HTTPRequestParser.percentDecoded(kv[0]) {
            query[name] = kv.count == 2 ? HTTPRequestParser.percentDecoded(kv[1]) ?? "" : ""
          }
        }
      }
    }
  }

  /// Where the head ends and the body starts.
  static func endOfHead(_ bytes: ArraySlice<UInt8>) -> (Int, Int)? {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == 0x0A {
        let next = index + 1
        if next < bytes.endIndex && bytes[next] == 0x0A { return (index, next + 1) }
        if next + 1 < bytes.endIndex && bytes[next] == 0x0D && bytes[next + 1] == 0x0A { return (index, next + 2) }
      }
      index += 1
    }
    return nil
  }

  static func percentDecoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8).makeIterator()
    while let byte = iterator.next() {
      if byte == UInt8(ascii: "%") {
        guard let high = iterator.next(), let low = iterator.next(),
          let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
        else { return nil }
        bytes.append(value)
      } else {
        bytes.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The text without spaces and tabs at either end.
  static func trimmed(_ text: Substring) -> String {
    String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}

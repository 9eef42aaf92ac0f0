/// One HTTP/1.1 request: its method, target, headers and body.
struct HTTPRequest: Sendable, Equatable {
  var method: String
  /// The path, without the query.
  var path: String
  /// The query's `name=value` pairs, percent-decoded.
  var query: [String: String]
  /// Header names in lower case.
  var headers: [String: String]
  var body: [UInt8]
  /// HTTP/1.0 without keep-alive, or `Connection: close`.
  var closes: Bool

  /// A header's value (the name in any case).
  func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why a request cannot be served, as the status and message to answer with.
struct HTTPRequestError: Error, Sendable, Equatable {
  var status: Int
  var message: String
}

/// Reads HTTP/1.1 requests from the bytes a connection received, within limits: the
/// request line and headers at most ``maximumHead`` bytes, a body at most ``maximumBody``
/// bytes and only with `Content-Length` (no chunked bodies).
enum HTTPRequestParser {
  static let maximumHead = 8 * 1024
  static let maximumBody = 64 * 1024
  static let maximumHeaders = 64

  /// What the bytes hold so far.
  enum Outcome: Equatable {
    /// Not a whole request yet.
    case incomplete
    /// A request, and how many bytes it took.
    case request(HTTPRequest, consumed: Int)
    /// A request that cannot be served (the connection is then closed).
    case failure(HTTPRequestError)
  }

  static func parse(_ bytes: ArraySlice<UInt8>) -> Outcome {
    // The end of the head: CRLF CRLF (a bare LF LF is taken too, as servers commonly do).
    guard let (headEnd, bodyStart) = endOfHead(bytes) else {
      if bytes.count > maximumHead {
        return .failure(HTTPRequestError(status: 431, message: "the request line and headers are longer than \(maximumHead) bytes"))
      }
      return .incomplete
    }
    if headEnd - bytes.startIndex > maximumHead {
      return .failure(HTTPRequestError(status: 431, message: "the request line and headers are longer than \(maximumHead) bytes"))
    }
    let head = bytes[bytes.startIndex..<headEnd]
    guard head.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || ($0 >= 0x20 && $0 < 0x7F) }) else {
      return .failure(HTTPRequestError(status: 400, message: "the request head holds bytes that are not printable ASCII"))
    }
    // Split as bytes: in Swift "\r\n" is one Character, so a String would not split it.
    let lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
      Substring(String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self))
    }
    let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isUppercase }), parts[1].hasPrefix("/") else {
      return .failure(HTTPRequestError(status: 400, message: "the request line is not 'METHOD /path HTTP/1.1'"))
    }
    guard parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
      return .failure(HTTPRequestError(status: 505, message: "only HTTP/1.1 and HTTP/1.0 are spoken here"))
    }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() where !line.isEmpty {
      guard headers.count < maximumHeaders else {
        return .failure(HTTPRequestError(status: 431, message: "more than \(maximumHeaders) headers"))
      }
      guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, !line.first!.isWhitespace,
        line[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "-_".contains($0) })
      else {
        return .failure(HTTPRequestError(status: 400, message: "a header line is not 'Name: value'"))
      }
      let name = line[..<colon].lowercased()
      let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: " \t")
      if let earlier = headers[name] {
        // Repeated headers join with commas, except the ones that must be single.
        guard !["content-length", "host", "authorization", "content-type"].contains(name) else {
          return .failure(HTTPRequestError(status: 400, message: "the header '\(name)' is given twice"))
        }
        headers[name] = earlier + ", " + value
      } else {
        headers[name] = value
      }
    }
    if headers["transfer-encoding"] != nil {
      return .failure(HTTPRequestError(status: 501, message: "chunked request bodies are not taken; send Content-Length"))
    }
    var length = 0
    if let text = headers["content-length"] {
      guard let value = Int(text), value >= 0, text.allSatisfy(\.isNumber) else {
        return .failure(HTTPRequestError(status: 400, message: "Content-Length is not a number"))
      }
      guard value <= maximumBody else {
        return .failure(HTTPRequestError(status: 413, message: "the body is longer than \(maximumBody) bytes"))
      }
      length = value
    }
    guard bytes.endIndex - bodyStart >= length else { return .incomplete }
    let target = parts[1]
    let (path, query) = splitTarget(String(target))
    guard let path else {
      return .failure(HTTPRequestError(status: 400, message: "the path has a bad percent escape"))
    }
    let version11 = parts[2] == "HTTP/1.1"
    let connection = headers["connection"]?.lowercased() ?? ""
    let closes = connection.contains("close") || (!version11 && !connection.contains("keep-alive"))
    let request = HTTPRequest(
      method: String(parts[0]), path: path, query: query, headers: headers,
      body: Array(bytes[bodyStart..<(bodyStart + length)]), closes: closes)
    return .request(request, consumed: bodyStart + length - bytes.startIndex)
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

  /// The percent-decoded path (nil for a bad escape) and query pairs.
  static func splitTarget(_ target: String) -> (String?, [String: String]) {
    let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var query: [String: String] = [:]
    if pieces.count == 2 {
      for pair in pieces[1].split(separator: "&") {
        let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        if let name = percentDecoded(kv[0]) {
          query[name] = kv.count == 2 ? percentDecoded(kv[1]) ?? "" : ""
        }
      }
    }
    return (percentDecoded(pieces[0]), query)
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
}

/// Runs bytes through the request parser, as the server does (for fuzzing and tools).
public enum HTTPRequestCheck {
  /// Parses every request in `bytes`; returns how many were read and the error that ended
  /// the reading, if any.
  @discardableResult
  public static func process(_ bytes: [UInt8]) -> (requests: Int, failure: String?) {
    var rest = bytes[...]
    var count = 0
    while true {
      switch HTTPRequestParser.parse(rest) {
      case .incomplete: return (count, nil)
      case .failure(let error): return (count, "\(error.status) \(error.message)")
      case .request(_, let consumed):
        count += 1
        rest = rest.dropFirst(consumed)
      }
    }
  }
}

extension String {
  /// The text without the given characters at either end.
  func trimmingCharacters(in set: String) -> String {
    String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
  }
}

import SimpleJSON

/// An HTTP response to send: status, headers and body, or an event stream.
public struct HTTPResponse: Sendable {
  public var status: Int
  public var headers: [(String, String)]
  public var body: [UInt8]
  /// For an event stream (`text/event-stream`): where its events come from. The server sends
  /// the head, then asks the source for more each time what it sent has gone out.
  public var events: (any HTTPEventSource)?

  public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  static let reasons: [Int: String] = [
    200: "OK", 204: "No Content", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
    405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 413: "Content Too Large",
    415: "Unsupported Media Type", 421: "Misdirected Request", 431: "Request Header Fields Too Large",
    500: "Internal Server Error", 501: "Not Implemented", 503: "Service Unavailable", 505: "HTTP Version Not Supported",
  ]

  /// A JSON body.
  public static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Array((value.text + "\n").utf8))
  }

  /// An error as JSON: `{"error": "…"}`.
  public static func error(_ status: Int, _ message: String) -> HTTPResponse {
    json(.object([("error", .string(message))]), status: status)
  }

  /// A text body of the given type.
  public static func text(_ text: String, type: String = "text/plain; charset=utf-8") -> HTTPResponse {
    HTTPResponse(status: 200, headers: [("Content-Type", type)], body: Array(text.utf8))
  }

  /// A Server-Sent Events stream fed by `source`.
  public static func events(_ source: any HTTPEventSource) -> HTTPResponse {
    var response = HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")])
    response.events = source
    return response
  }

  /// A header's value (the name in any case).
  public func header(_ name: String) -> String? {
    headers.first { $0.0.lowercased() == name.lowercased() }?.1
  }

  /// The bytes on the wire; `closes` adds `Connection: close`.
  public func serialized(closes: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(HTTPResponse.reasons[status] ?? "Status")\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    // An event stream has no length: it ends when the connection does.
    if events == nil { head += "Content-Length: \(body.count)\r\n" }
    // The API is never cached (a response may say how it is, as the page's files do), and
    // nothing is framed by other sites or sniffed.
    if header("Cache-Control") == nil { head += "Cache-Control: no-store\r\n" }
    head += "X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n"
    head += "Referrer-Policy: no-referrer\r\n"
    if closes { head += "Connection: close\r\n" }
    head += "\r\n"
    return Array(head.utf8) + body
  }
}

/// Where an event stream's events come from.
public protocol HTTPEventSource: AnyObject, Sendable {
  /// The bytes to send next (whole events), or `nil` when there is nothing new. The server
  /// calls it on its own thread, only once what it sent before has gone out, so a reader
  /// that falls behind skips events instead of piling them up.
  func next(now: Int64) -> [UInt8]?
}

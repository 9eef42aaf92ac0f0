import SimpleJSON

/// An HTTP response to send: status, headers and body.
struct HTTPResponse: Sendable {
  var status: Int
  var headers: [(String, String)] = []
  var body: [UInt8] = []

  static let reasons: [Int: String] = [
    200: "OK", 204: "No Content", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
    405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 413: "Content Too Large",
    415: "Unsupported Media Type", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
    501: "Not Implemented", 503: "Service Unavailable", 505: "HTTP Version Not Supported",
  ]

  /// A JSON body.
  static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Array((value.text + "\n").utf8))
  }

  /// An error as JSON: `{"error": "…"}`.
  static func error(_ status: Int, _ message: String) -> HTTPResponse {
    json(.object([("error", .string(message))]), status: status)
  }

  /// A text body of the given type.
  static func text(_ text: String, type: String = "text/plain; charset=utf-8") -> HTTPResponse {
    HTTPResponse(status: 200, headers: [("Content-Type", type)], body: Array(text.utf8))
  }

  /// The bytes on the wire; `closes` adds `Connection: close`.
  func serialized(closes: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(HTTPResponse.reasons[status] ?? "Status")\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(body.count)\r\n"
    // The page and the API are never cached, never framed by other sites, never sniffed.
    head += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n"
    head += "Referrer-Policy: no-referrer\r\n"
    if closes { head += "Connection: close\r\n" }
    head += "\r\n"
    return Array(head.utf8) + body
  }
}

/// One HTTP/1.1 request: its method, target, headers and body.
public struct HTTPRequest: Sendable, Equatable {
  /// `GET`, `PATCH`, …
  public var method: String
  /// The path, percent-decoded, without the query.
  public var path: String
  /// The query's `name=value` pairs, percent-decoded.
  public var query: [String: String]
  /// Header names in lower case.
  public var headers: [String: String]
  public var body: [UInt8]
  /// HTTP/1.0 without keep-alive, or `Connection: close`.
  public var closes: Bool
  /// `HTTP/1.1` (or `HTTP/1.0`).
  public var version: String
  /// The host the client asked for: the authority of an absolute-form target
  /// (`GET http://sign.local/api/state`, which takes precedence, RFC 9112 3.2.2), else the
  /// `Host` header; `nil` when neither was given.
  public var authority: String?
  /// The values of the route's `{name}` segments (`/api/programs/{name}`), set by
  /// ``HTTPRouter`` before the handler sees the request.
  public var parameters: [String: String] = [:]

  /// Creates a request (the server makes them with ``HTTPRequestParser``; tests by hand).
  public init(
    method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
    body: [UInt8] = [], closes: Bool = false, version: String = "HTTP/1.1", authority: String? = nil
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) })
    self.body = body
    self.closes = closes
    self.version = version
    self.authority = authority ?? self.headers["host"]
  }

  /// A header's value (the name in any case).
  public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why a request cannot be served, as the status and message to answer with.
public struct HTTPRequestError: Error, Sendable, Equatable, CustomStringConvertible {
  public var status: Int
  public var message: String

  public init(status: Int, message: String) {
    self.status = status
    self.message = message
  }

  public var description: String { "\(status) \(message)" }
}

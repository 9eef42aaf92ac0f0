/// What answers requests: a request in, a reply out, no sockets. The server calls it on
/// its own thread, so it must not block; work that may (reading a file) answers
/// ``HTTPReply/later(_:)`` from another thread.
public protocol HTTPResponder: Sendable {
  func respond(to request: HTTPRequest) -> HTTPReply
}

/// A responder's answer: now, or later from another thread.
public enum HTTPReply: Sendable {
  /// The response, ready.
  case now(HTTPResponse)
  /// The response comes later: the closure is called at once with a completion to call
  /// exactly once, from any thread. The connection reads nothing more until then.
  case later(@Sendable (_ complete: @escaping @Sendable (HTTPResponse) -> Void) -> Void)

  /// The response, waiting for a later one (for tests and tools that call a responder
  /// directly; never on the server thread).
  public func wait() -> HTTPResponse {
    switch self {
    case .now(let response): return response
    case .later(let start):
      let box = ResponseBox()
      start { box.put($0) }
      return box.take()
    }
  }
}

/// Routes by path and method; answers 404 for an unknown path and 405 (with `Allow`) for a
/// method the path does not take.
public struct HTTPRouter: HTTPResponder {
  public typealias Handler = @Sendable (HTTPRequest) -> HTTPReply
  var routes: [String: [(method: String, handler: Handler)]] = [:]
  /// Paths with `{name}` segments, split into segments, in the order they were added.
  var patterns: [(segments: [Substring], method: String, handler: Handler)] = []

  public init() {}

  /// Adds `handler` for `method` on `path` (the query is not part of it). A segment
  /// written `{name}` takes any one non-empty segment, handed to the handler as
  /// `request.parameters["name"]` (`/api/programs/{name}` takes `/api/programs/offers`);
  /// exact paths come first.
  public mutating func add(_ method: String, _ path: String, _ handler: @escaping Handler) {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    if segments.contains(where: HTTPRouter.isParameter) {
      patterns.append((segments, method, handler))
    } else {
      routes[path, default: []].append((method, handler))
    }
  }

  /// Every route as it was added (`PUT /api/programs/{name}`), exact paths sorted first:
  /// for a test that must see a route added later.
  public var endpoints: [(method: String, path: String)] {
    routes.keys.sorted().flatMap { path in routes[path]!.map { ($0.method, path) } }
      + patterns.map { ($0.method, $0.segments.joined(separator: "/")) }
  }

  static func isParameter(_ segment: Substring) -> Bool { segment.count > 2 && segment.first == "{" && segment.last == "}" }

  /// The methods of the routes `path` matches, each with the parameters it binds.
  func matches(_ path: String) -> [(method: String, handler: Handler, parameters: [String: String])] {
    if let exact = routes[path] { return exact.map { ($0.method, $0.handler, [:]) } }
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    return patterns.compactMap { pattern in
      guard pattern.segments.count == segments.count else { return nil }
      var parameters: [String: String] = [:]
      for (expected, given) in zip(pattern.segments, segments) {
        if HTTPRouter.isParameter(expected) {
          guard !given.isEmpty else { return nil }
          parameters[String(expected.dropFirst().dropLast())] = String(given)
        } else if expected != given {
          return nil
        }
      }
      return (pattern.method, pattern.handler, parameters)
    }
  }

  public func respond(to request: HTTPRequest) -> HTTPReply {
    let methods = matches(request.path)
    guard !methods.isEmpty else { return .now(.error(404, "no such path: \(request.path)")) }
    guard let route = methods.first(where: { $0.method == request.method }) else {
      var allowed: [String] = []
      for method in methods.map(\.method) where !allowed.contains(method) { allowed.append(method) }
      var response = HTTPResponse.error(405, "\(request.path) takes \(allowed.joined(separator: ", "))")
      response.headers.append(("Allow", allowed.joined(separator: ", ")))
      return .now(response)
    }
    var routed = request
    routed.parameters = route.parameters
    return route.handler(routed)
  }
}

/// Refuses requests for a host the server does not answer to, before anything else sees
/// them: the defence against DNS rebinding (a page on `evil.example` whose name is made to
/// point at 127.0.0.1 sends `Host: evil.example`).
public struct HostCheck: HTTPResponder {
  public let hosts: HostNames
  public let next: any HTTPResponder

  public init(_ hosts: HostNames, _ next: any HTTPResponder) {
    self.hosts = hosts
    self.next = next
  }

  public func respond(to request: HTTPRequest) -> HTTPReply {
    // An HTTP/1.0 client may omit Host (the parser refuses HTTP/1.1 without one); browsers
    // always send it.
    if let authority = request.authority, !hosts.allows(authority) {
      return .now(.error(
        421, "this sign does not answer to the name '\(HostNames.host(of: authority))'; start it with '--allow-host NAME' to add a name"))
    }
    return next.respond(to: request)
  }
}

/// Asks for `Authorization: Bearer TOKEN` on the paths under `prefix`; compares in
/// constant time; the scheme's name in any case (RFC 9110 11.1).
public struct BearerTokenCheck: HTTPResponder {
  let token: [UInt8]
  let prefix: String
  public let next: any HTTPResponder

  public init(token: String, protecting prefix: String = "/api/", _ next: any HTTPResponder) {
    self.token = Array(token.utf8)
    self.prefix = prefix
    self.next = next
  }

  public func respond(to request: HTTPRequest) -> HTTPReply {
    guard !request.path.hasPrefix(prefix) || authorized(request.header("authorization")) else {
      var response = HTTPResponse.error(401, "this sign needs its token: send 'Authorization: Bearer <token>'")
      response.headers.append(("WWW-Authenticate", "Bearer"))
      return .now(response)
    }
    return next.respond(to: request)
  }

  /// Whether the header carries the token.
  public func authorized(_ header: String?) -> Bool {
    guard let header else { return false }
    let bytes = Array(header.utf8)
    guard bytes.count > 7, String(decoding: bytes.prefix(6), as: UTF8.self).lowercased() == "bearer", bytes[6] == 0x20 else {
      return false
    }
    let given = Array(bytes.dropFirst(7).drop { $0 == 0x20 })
    var difference = given.count ^ token.count
    for index in 0..<token.count { difference |= Int(token[index] ^ (index < given.count ? given[index] : 0)) }
    return difference == 0
  }
}

/// Takes writes (`POST`, `PUT`, `PATCH`, and any request with a body) only as JSON in
/// UTF-8: a form on another site cannot post to the server, and the handlers never see
/// bytes that are not text.
public struct JSONBodyCheck: HTTPResponder {
  public let next: any HTTPResponder
  /// Paths under a prefix that take other bodies, and the types they take (none of them one
  /// a page of another site may send without asking first: `image/png`, not `text/plain`).
  public let binary: [(prefix: String, types: Set<String>)]

  public init(_ next: any HTTPResponder, binary: [(prefix: String, types: Set<String>)] = []) {
    self.next = next
    self.binary = binary
  }

  public func respond(to request: HTTPRequest) -> HTTPReply {
    guard ["POST", "PUT", "PATCH"].contains(request.method) || !request.body.isEmpty else { return next.respond(to: request) }
    let type = request.header("content-type")?.split(separator: ";").first.map {
      HTTPRequestParser.trimmed($0).lowercased()
    }
    if let rule = binary.first(where: { request.path.hasPrefix($0.prefix) }) {
      guard let type, rule.types.contains(type) else {
        return .now(.error(415, "send the body as one of \(rule.types.sorted().joined(separator: ", "))"))
      }
      return next.respond(to: request)
    }
    guard type == "application/json" else {
      return .now(.error(415, "send the body as JSON, with 'Content-Type: application/json'"))
    }
    if let bad = JSONBodyCheck.firstInvalidUTF8(request.body) {
      return .now(.error(400, "the body is not UTF-8 (byte \(bad))"))
    }
    return next.respond(to: request)
  }

  /// The offset of the first byte that breaks UTF-8, if any.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    var offset = 0
    var consumed = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        consumed += UTF8.width(scalar)
        offset = consumed
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }
}

import Platform

/// A small HTTP/1.1 client for one request to a sign: `marquee notify`, a fleet's
/// controller, a test. Plain HTTP only; the whole exchange has one time limit.
public struct HTTPClient: Sendable, Equatable {
  /// Where the server is.
  public var address: HostPort
  /// The whole exchange's limit, connecting included, in seconds.
  public var limit: Double

  /// Why an exchange failed, in words for a person.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// What the server answered.
  public struct Answer: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    /// A header's value (the name in any case).
    public func header(_ name: String) -> String? {
      headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
  }

  public init(_ address: HostPort, limit: Double = 10) {
    self.address = address
    self.limit = limit
  }

  /// A client for `http://HOST[:PORT][/]` (port 80 when none is written).
  ///
  /// - Throws: ``Failure`` for another scheme (`https://` names the proxy to put in front)
  ///   or a bad host or port.
  public init(url text: String, limit: Double = 10) throws(Failure) {
    guard text.hasPrefix("http://") else {
      throw Failure(description: "'\(text)': marquee serve speaks plain HTTP (put a TLS proxy in front for remote signs); use http://")
    }
    var rest = Substring(text.dropFirst("http://".count))
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    do {
      address = try HostPort(rest, ports: .required(defaultPort: 80))
    } catch {
      throw Failure(description: error == .noHost ? "'\(text)' is not a sign's address: expected http://HOST[:PORT]" : "'\(text)': \(error)")
    }
    self.limit = limit
  }

  /// `http://HOST:PORT`, as messages name the server.
  public var url: String { "http://\(address)" }

  /// Sends one request (`Connection: close`) and reads the whole answer, at most 1 MiB.
  ///
  /// - Throws: ``Failure``: the host not found, nothing listening, no answer within
  ///   ``limit`` seconds (a server that sends a byte now and then cannot keep it waiting),
  ///   or an answer that is not HTTP.
  public func send(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []) throws(Failure) -> Answer {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: \(address)\r\nConnection: close\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
    let bytes = try exchange(Array((head + "\r\n").utf8) + body)
    guard let answer = HTTPClient.parse(bytes) else { throw Failure(description: "the server at \(url) answered with something that is not HTTP") }
    return answer
  }

  /// Reads a whole answer: status line, headers, and the body (up to `Content-Length`).
  static func parse(_ bytes: [UInt8], keepingWholeBody: Bool = false) -> Answer? {
    guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)),
      let head = String(validating: bytes[..<end.lowerBound], as: UTF8.self)
    else { return nil }
    var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
    guard let statusLine = lines.popFirst(), statusLine.hasPrefix("HTTP/1."),
      let status = Int(statusLine.split(separator: " ").dropFirst().first ?? ""), (100...599).contains(status)
    else { return nil }
    var headers: [(String, String)] = []
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { return nil }
      headers.append((String(line[..<colon]), HTTPRequestParser.trimmed(line[line.index(after: colon)...])))
    }
    var body = bytes[end.upperBound...]
    if !keepingWholeBody, let length = headers.first(where: { $0.0.lowercased() == "content-length" }).flatMap({ Int($0.1) }), length >= 0, length < body.count {
      body = body.prefix(length)
    }
    return Answer(status: status, headers: headers, body: Array(body))
  }

  func exchange(_ request: [UInt8], maximumBytes: Int = 1 << 20) throws(Failure) -> [UInt8] {
    let deadline = SystemClock.monotonicSeconds() + limit
    let descriptor: Int32
    do {
      descriptor = try TCPConnection.open(address.host, address.port, seconds: Int(saturating: limit.rounded(.up)))
    } catch {
      throw Failure(description: error.lookup ? "cannot find the host \(address.host): \(error.reason)" : "cannot reach \(url): \(error.reason)")
    }
    defer { Descriptor.close(descriptor) }
    guard TCPConnection.write(request, to: descriptor) else { throw Failure(description: "\(url) closed the connection") }
    var chunk = [UInt8](repeating: 0, count: 16_384)
    var answer: [UInt8] = []
    let late = Failure(description: "\(url) did not answer within \(limit == limit.rounded() ? String(Int(limit)) : String(limit)) s")
    while answer.count <= maximumBytes {
      let left = deadline - SystemClock.monotonicSeconds()
      guard left > 0 else { throw late }
      guard Descriptor.waitReadable(descriptor, milliseconds: Int32(saturating: (left * 1000).rounded(.up))) else { throw late }
      let count = chunk.withUnsafeMutableBytes { Descriptor.receive(descriptor, into: $0) }
      if count < 0 { throw late }
      if count == 0 { break }
      answer += chunk[0..<count]
    }
    return answer
  }
}

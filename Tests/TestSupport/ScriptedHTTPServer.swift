import Foundation
import Platform
import Synchronization

/// An HTTP server a test scripts on loopback: each request's path and headers go to the
/// handler, whose reply is written as given (any status, chunked, cut short, late), so a
/// client can be shown the answers real servers give.
public final class ScriptedHTTPServer: Sendable {
  /// What the server does with one request.
  public struct Reply: Sendable {
    /// The bytes written, head and body, exactly.
    public var bytes: [UInt8]
    /// Seconds to wait before writing them.
    public var delay: Double

    public init(bytes: [UInt8], delay: Double = 0) {
      self.bytes = bytes
      self.delay = delay
    }

    /// A whole answer: status, headers, a body with its Content-Length.
    public static func status(_ code: Int, _ body: String = "", headers: [(String, String)] = [], delay: Double = 0) -> Reply {
      let reason = [200: "OK", 301: "Moved Permanently", 302: "Found", 304: "Not Modified", 404: "Not Found", 500: "Internal Server Error"][code] ?? "Status"
      var head = "HTTP/1.1 \(code) \(reason)\r\nConnection: close\r\n"
      for (name, value) in headers { head += "\(name): \(value)\r\n" }
      let bytes = Array(body.utf8)
      if code != 304 { head += "Content-Length: \(bytes.count)\r\n" }
      return Reply(bytes: Array((head + "\r\n").utf8) + (code == 304 ? [] : bytes), delay: delay)
    }
  }

  /// One request as the server read it.
  public struct Request: Sendable {
    public var path: String
    /// Header names in lower case.
    public var headers: [String: String]
  }

  public let port: UInt16
  let listener: Int32
  let handler: @Sendable (Request) -> Reply
  let seen = Mutex<[Request]>([])
  let stopped = Atomic<Bool>(false)

  /// A server on a loopback port the kernel picks; nil if none could be had.
  public init?(_ handler: @escaping @Sendable (Request) -> Reply) {
    guard let (descriptor, port) = LoopbackListener.open(backlog: 32) else { return nil }
    (listener, self.port, self.handler) = (descriptor, port, handler)
    DetachedThread.start { [self] in acceptLoop() }
  }

  /// `http://127.0.0.1:PORT` and `path`.
  public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// The requests read so far.
  public var requests: [Request] { seen.withLock { $0 } }

  /// Stops accepting (connections being answered finish).
  public func stop() {
    stopped.store(true, ordering: .releasing)
    shutdown(listener, Int32(SHUT_RDWR))
  }

  deinit { Descriptor.close(listener) }

  func acceptLoop() {
    while !stopped.load(ordering: .acquiring) {
      let connection = accept(listener, nil, nil)
      if connection < 0 {
        if errno == EINTR { continue }
        return
      }
      DetachedThread.start { [self] in answer(connection) }
    }
  }

  func answer(_ connection: Int32) {
    defer { Descriptor.close(connection) }
    var head: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while head.firstRange(of: Array("\r\n\r\n".utf8)) == nil && head.count < 65_536 {
      guard Descriptor.waitReadable(connection, milliseconds: 5000) else { return }
      let count = buffer.withUnsafeMutableBytes { Descriptor.receive(connection, into: $0) }
      if count <= 0 { return }
      head += buffer[0..<count]
    }
    let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
    let parts = lines[0].split(separator: " ")
    guard parts.count >= 2 else { return }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let request = Request(path: String(parts[1]), headers: headers)
    seen.withLock { $0.append(request) }
    let reply = handler(request)
    if reply.delay > 0 { Thread.sleep(forTimeInterval: reply.delay) }
    Descriptor.writeAll(connection, reply.bytes)
  }
}

import Foundation
import Platform
import TestSupport

/// A bare HTTP client on a socket, so tests can send exactly the bytes they mean (malformed,
/// oversized, slow) and read exactly what the server answers.
struct HTTPTestClient {
  let port: UInt16

  struct Response {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// The `Host` a browser on this machine sends.
  var host: String { "127.0.0.1:\(port)" }

  /// A connected socket with a receive time-out, or -1; `receiveBuffer` shrinks its receive
  /// buffer (a client that reads little).
  func connect(timeout: Int = 10, receiveBuffer: Int32? = nil) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return -1 }
    var time = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    if var size = receiveBuffer {
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    let result = Socket.connect(fd, to: IPAddress("127.0.0.1")!, port: port)
    if result != 0 {
      close(fd)
      return -1
    }
    return fd
  }

  /// Sends all of `bytes` unless the connection fails or the send times out; how many went.
  @discardableResult
  static func send(_ fd: Int32, _ bytes: [UInt8]) -> Int {
    var offset = 0
    while offset < bytes.count {
      let count = bytes[offset...].withUnsafeBytes { Descriptor.send(fd, $0) }
      if count <= 0 { return offset }
      offset += count
    }
    return offset
  }

  /// Reads one response (headers, then Content-Length bytes, or to the end of the stream).
  static func read(_ fd: Int32) -> Response? {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      if let headEnd = data.range(of: Data("\r\n\r\n".utf8)) {
        let head = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
          guard let colon = line.firstIndex(of: ":") else { continue }
          headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let bodyStart = headEnd.upperBound
        if let length = headers["content-length"].flatMap(Int.init), data.count - bodyStart >= length {
          return Response(status: status, headers: headers, body: data[bodyStart..<(bodyStart + length)])
        }
      }
      let count = buffer.withUnsafeMutableBytes { Descriptor.receive(fd, into: $0) }
      if count <= 0 { return nil }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  /// One request on a connection of its own.
  func request(
    _ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:], json: Bool = true, timeout: Int = 10
  ) -> Response? {
    let fd = connect(timeout: timeout)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var head = "\(method) \(path) HTTP/1.1\r\nConnection: close\r\n"
    if headers.keys.allSatisfy({ $0.lowercased() != "host" }) { head += "Host: \(host)\r\n" }
    if body != nil && json { head += "Content-Type: application/json\r\n" }
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    let bodyBytes = Array((body ?? "").utf8)
    if body != nil { head += "Content-Length: \(bodyBytes.count)\r\n" }
    HTTPTestClient.send(fd, Array((head + "\r\n").utf8) + bodyBytes)
    return HTTPTestClient.read(fd)
  }

  /// Raw bytes on a connection of its own; the response.
  func raw(_ bytes: [UInt8]) -> Response? {
    let fd = connect()
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    HTTPTestClient.send(fd, bytes)
    return HTTPTestClient.read(fd)
  }
}

/// A `marquee serve` for a test: started on a free port, stopped with SIGTERM.
final class ServedSign {
  let child: ChildProcess
  let client: HTTPTestClient

  init(_ arguments: [String], environment: [String: String] = [:]) throws {
    child = try BinaryRunner.start(["serve", "--listen", "127.0.0.1:0"] + arguments, environment: environment)
    var port: UInt16?
    for _ in 0..<1000 where port == nil {
      if let range = child.errorSoFar.range(of: "http://127.0.0.1:") {
        port = UInt16(child.errorSoFar[range.upperBound...].prefix { $0.isNumber })
      }
      if port == nil {
        if child.ends(within: 0.01) { break }
      }
    }
    guard let port else { throw CLIError("marquee serve did not start: \(child.wait(timeout: 5).stderr)") }
    client = HTTPTestClient(port: port)
  }

  /// Stops the sign as systemd would, and returns how it ended.
  func stop() -> ChildResult {
    child.send(SIGTERM)
    return child.wait(timeout: 20)
  }

  deinit {
    child.send(SIGKILL)
    _ = child.wait(timeout: 5)
  }

  /// The server's resident memory, in KiB (`VmRSS` of /proc/PID/status).
  var residentKB: Int {
    let status = (try? String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }

  /// The most resident memory seen over `seconds`, in KiB, sampled every 50 ms.
  func peakResidentKB(seconds: Double) -> Int {
    var peak = residentKB
    for _ in 0..<max(1, Int(seconds / 0.05)) {
      usleep(50_000)
      peak = max(peak, residentKB)
    }
    return peak
  }

  /// Waits (at most 10 s) until `/api/frame` shows something other than `before`.
  func frame(changingFrom before: String) -> String {
    for _ in 0..<500 {
      let now = client.request("GET", "/api/frame")?.text ?? ""
      if now != before && !now.isEmpty { return now }
      usleep(20_000)
    }
    return before
  }
}

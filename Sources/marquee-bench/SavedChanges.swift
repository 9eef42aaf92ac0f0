import Foundation
import Platform

/// How long `marquee serve` takes to answer a change, with `--state` (each change written
/// to a new file, flushed to the disk, renamed over the old one and the folder flushed
/// before the answer) and without: `PATCH /api/content` 200 times over one keep-alive
/// connection, one at a time, each timed from the request's first byte to the answer's
/// last. The state file is written in the current folder (a disk, not a tmpfs /tmp).
struct SavedChanges {
  let marquee: String
  let changes = 200

  func run() {
    let folder = "marquee-bench-state-\(getpid())"
    mkdir(folder, 0o755)
    defer {
      unlink(folder + "/sign.state")
      rmdir(folder)
    }
    var p50s: [String: Double] = [:]
    for (name, extra) in [("save-none", [String]()), ("save-state", ["--state", folder + "/sign.state"])] {
      guard let times = measure(extra) else {
        print("marquee-bench scenario=\(name) error=marquee-did-not-run")
        continue
      }
      let sorted = times.sorted()
      func at(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
      p50s[name] = at(0.5)
      var line = ResultLine(scenario: name, width: 32, height: 8)
      line.add("changes", sorted.count)
      line.add("answer_p50_ms", at(0.5))
      line.add("answer_p99_ms", at(0.99))
      line.add("answer_max_ms", sorted.last ?? 0)
      if let none = p50s["save-none"], name == "save-state" { line.add("p50_ratio_to_none", at(0.5) / none, decimals: 1) }
      line.print()
    }
  }

  /// A free loopback port, found by binding to port 0.
  func freePort() -> UInt16? {
    let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { Descriptor.close(probe) }
    var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) == 0 && getsockname(probe, $0, &length) == 0 }
    }
    return bound ? UInt16(bigEndian: address.sin_port) : nil
  }

  func connectTo(_ port: UInt16) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    if connected { return descriptor }
    Descriptor.close(descriptor)
    return nil
  }

  /// The answer times in milliseconds of the changes, or nil if the server did not run.
  func measure(_ extra: [String]) -> [Double]? {
    guard let port = freePort() else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? OpenFlag.readOnly : OpenFlag.writeOnly, 0) }
    let arguments = [marquee, "serve", "--listen", "127.0.0.1:\(port)", "--output", "ascii", "--fps", "20"] + extra + ["Start"]
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, marquee, &actions, nil, argv, environ) == 0 else { return nil }
    defer {
      kill(pid, SIGTERM)
      var status: Int32 = 0
      _ = retryingOnInterrupt { waitpid(pid, &status, 0) }
    }
    var connection: Int32?
    for _ in 0..<500 where connection == nil {
      connection = connectTo(port)
      if connection == nil { SignClock.kernelSleep(0.01) }
    }
    guard let descriptor = connection else { return nil }
    defer { Descriptor.close(descriptor) }
    var times: [Double] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    for index in 0..<changes {
      let body = #"{"messages": ["Change \#(index)"]}"#
      let request = "PATCH /api/content HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
      let start = Measure.monotonic()
      guard Descriptor.writeAll(descriptor, Array(request.utf8)) else { return nil }
      // Read the head, then as many bytes as Content-Length says.
      var answer: [UInt8] = []
      var expected: Int?
      while expected.map({ answer.count < $0 }) ?? true {
        let count = buffer.withUnsafeMutableBytes { Descriptor.read(descriptor, into: $0) }
        guard count > 0 else { return nil }
        answer += buffer[0..<count]
        if expected == nil, let end = find(answer, [13, 10, 13, 10]) {
          let head = String(decoding: answer[0..<end], as: UTF8.self).lowercased()
          guard head.hasPrefix("http/1.1 200") else { return nil }
          let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }.flatMap { Int($0.dropFirst(15).filter(\.isNumber)) } ?? 0
          expected = end + 4 + length
        }
      }
      times.append(Double(Measure.monotonic() - start) / 1e6)
    }
    return times
  }

  func find(_ bytes: [UInt8], _ pattern: [UInt8]) -> Int? {
    guard bytes.count >= pattern.count else { return nil }
    for index in 0...(bytes.count - pattern.count) where bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
    return nil
  }
}

import Foundation
import Platform
import Synchronization

/// The memory of a sign with ten live sources refreshed every second: five over HTTP from a
/// server in this process whose documents change on every fetch (so every fetch rebuilds
/// the zone), five from files. The real `marquee` runs for `seconds`; its resident memory
/// after the first ten seconds and at the end are compared: a fetch that kept something
/// would grow it a little every second.
struct SourcesMemory {
  let marquee: String
  /// How long the sign runs (MARQUEE_BENCH_SOURCES_SECONDS, 60 by default).
  var seconds = Double(Environment.value("MARQUEE_BENCH_SOURCES_SECONDS") ?? "") ?? 60

  func run() {
    guard let listener = try? Socket.listen(on: IPAddress("127.0.0.1")!, port: 0), let port = Socket.boundPort(listener) else {
      print("marquee-bench scenario=sources error=no-loopback-port")
      return
    }
    let served = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    DetachedThread.start {
      while !stop.load(ordering: .acquiring) {
        guard Descriptor.waitReadable(listener, milliseconds: 100) else { continue }
        let connection = Socket.accept(listener)
        if connection < 0 { continue }
        SourcesMemory.answer(connection, count: served.add(1, ordering: .relaxed).newValue)
      }
    }
    let folder = "/tmp/marquee-bench-sources-\(getpid())"
    FileBytes.makeFolders(folder)
    defer {
      stop.store(true, ordering: .releasing)
      for index in 0..<5 { FileSystem.removeFile("\(folder)/\(index).json") }
      FileSystem.removeFile(folder + "/sign.json")
      rmdir(folder)
    }
    var sources: [String] = []
    for index in 0..<5 {
      sources.append(#"{"name": "web\#(index)", "url": "http://127.0.0.1:\#(port)/\#(index).json", "every": 1, "json": "/departures"}"#)
      try? FileBytes.write(Array(#"{"t": \#(Double(index) + 0.5)}"#.utf8), to: "\(folder)/\(index).json")
      sources.append(#"{"name": "file\#(index)", "url": "\#(folder)/\#(index).json", "every": 1, "json": "t", "format": "{0:.1f}°C"}"#)
    }
    let messages = (0..<5).map { #""{source:web\#($0)}""# } + [#""\#((0..<5).map { "{source:file\($0)}" }.joined(separator: " "))""#]
    let config = #"{"sources": [\#(sources.joined(separator: ", "))], "mode": "cycle", "dwell": 0.5, "messages": [\#(messages.joined(separator: ", "))]}"#
    try? FileBytes.write(Array(config.utf8), to: folder + "/sign.json")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", OpenFlag.readOnly, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", OpenFlag.writeOnly, 0)
    let arguments = [marquee, "--config", folder + "/sign.json", "--output", "ascii", "--width", "64", "--fps", "25"]
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, marquee, &actions, nil, argv, environ) == 0 else {
      print("marquee-bench scenario=sources error=marquee-did-not-run")
      return
    }
    SignClock.kernelSleep(min(10, seconds / 2))
    let early = SourcesMemory.resident(of: pid), fetchesEarly = served.load(ordering: .relaxed)
    // Samples every ten seconds after, to tell a warm-up from a leak.
    var samples: [Int] = []
    var slept = min(10, seconds / 2)
    while slept < seconds {
      let step = min(10, seconds - slept)
      SignClock.kernelSleep(step)
      slept += step
      samples.append(SourcesMemory.resident(of: pid) ?? -1)
    }
    let late = samples.last, fetches = served.load(ordering: .relaxed)
    kill(pid, SIGTERM)
    var status: Int32 = 0
    _ = waitpid(pid, &status, 0)
    var line = ResultLine(scenario: "sources", width: 64, height: 8)
    line.add("sources", 10)
    line.add("seconds", seconds, decimals: 0)
    line.add("http_fetches", fetches)
    line.add("rss_kib_at_10s", early ?? -1)
    line.add("rss_kib_at_end", late ?? -1)
    line.add("rss_kib_every_10s", samples.map(String.init).joined(separator: ","))
    // After the first twenty seconds (the allocator's warm-up), what the rest added.
    line.add("rss_growth_kib_after_20s", (late ?? 0) - (samples.first ?? 0))
    line.add("http_fetches_after_10s", fetches - fetchesEarly)
    line.print()
  }

  /// Answers one request with a departure list that changes with `count`.
  static func answer(_ connection: Int32, count: Int) {
    defer { Descriptor.close(connection) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    var request: [UInt8] = []
    while request.firstRange(of: Array("\r\n\r\n".utf8)) == nil && request.count < 65_536 {
      guard Descriptor.waitReadable(connection, milliseconds: 2000) else { return }
      let read = buffer.withUnsafeMutableBytes { Descriptor.receive(connection, into: $0) }
      if read <= 0 { return }
      request += buffer[0..<read]
    }
    let body = #"{"departures": ["7 Airport \#(count % 10) min", "12 Harbour \#(count % 17) min", "3 Old Town \#(count % 23) min"]}"#
    let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
    Descriptor.writeAll(connection, Array((head + body).utf8))
  }

  /// `VmRSS` of a running process, in KiB.
  static func resident(of pid: pid_t) -> Int? {
    guard let bytes = try? FileBytes.read("/proc/\(pid)/status", limit: 65_536) else { return nil }
    let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
    return line.flatMap { Int($0.dropFirst(6).filter(\.isNumber)) }
  }
}

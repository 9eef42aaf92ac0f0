#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Marquee
import MatrixCore

/// The HTTP/1.1 server of `marquee serve`: one thread, non-blocking POSIX sockets and
/// `poll`, so a slow or hostile client never holds anything but its own connection, and the
/// frame loop never waits on the network.
///
/// Limits: request head 8 KiB, body 64 KiB, ``maximumConnections`` at once (the next is
/// answered 503 and closed), a request head must arrive within ``headDeadline`` of its
/// first byte, a connection with nothing asked and nothing to send closes after
/// ``idleTimeout``, and an event stream whose reader stops reading for ``stallTimeout`` is
/// dropped. An event stream that falls behind skips frames: a new frame is queued only once
/// the last one has gone out.
final class SignServer: @unchecked Sendable {
  /// One client connection, owned by the server thread.
  final class Connection {
    let descriptor: Int32
    var input: [UInt8] = []
    var output: [UInt8] = []
    var written = 0
    /// When the current request's first byte came (or the connection opened).
    var headStarted: Int64
    var lastActivity: Int64
    /// Since when the output has been waiting to be written (0: nothing waits).
    var waitingSince: Int64 = 0
    var closeAfterWrite = false
    /// An event stream: what it was sent last.
    var events = false
    var sentGeneration: UInt64 = .max
    var sentStateVersion = -1

    init(descriptor: Int32, now: Int64) {
      self.descriptor = descriptor
      headStarted = now
      lastActivity = now
    }

    var hasOutput: Bool { written < output.count }

    func queue(_ bytes: [UInt8], now: Int64) {
      if !hasOutput {
        output.removeAll(keepingCapacity: true)
        written = 0
        waitingSince = now
      }
      output += bytes
    }
  }

  static let maximumConnections = 32
  static let headDeadline: Int64 = 10_000_000_000
  static let idleTimeout: Int64 = 10_000_000_000
  static let stallTimeout: Int64 = 30_000_000_000

  let listener: Int32
  /// Where it listens (with the port the system chose, for port 0).
  let address: ListenAddress
  let api: SignAPI
  let stop: StopFlag
  var connections: [Connection] = []
  var thread = pthread_t()

  /// Binds and listens on `address` (`HOST:PORT`, `[IPv6]:PORT`).
  init(address: ListenAddress, api: SignAPI, stop: StopFlag) throws {
    self.api = api
    self.stop = stop
    listener = try address.listen()
    self.address = ListenAddress.bound(listener, like: address)
  }

  /// Starts serving on a thread of its own.
  func start() {
    let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
      let server = Unmanaged<SignServer>.fromOpaque(context!).takeRetainedValue()
      server.serve()
      return nil
    }
    pthread_create(&thread, nil, body, Unmanaged.passRetained(self).toOpaque())
  }

  /// Waits for the server thread (after the stop flag was set) and closes everything.
  func join() {
    pthread_join(thread, nil)
  }

  static func monotonic() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
  }

  func serve() {
    var descriptors: [pollfd] = []
    while !stop.isSet {
      descriptors.removeAll(keepingCapacity: true)
      descriptors.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
      for connection in connections {
        var events = Int16(POLLIN)
        if connection.hasOutput { events |= Int16(POLLOUT) }
        descriptors.append(pollfd(fd: connection.descriptor, events: events, revents: 0))
      }
      let streaming = connections.contains { $0.events }
      _ = poll(&descriptors, nfds_t(descriptors.count), streaming ? 20 : 200)
      let now = SignServer.monotonic()
      if descriptors[0].revents & Int16(POLLIN) != 0 { acceptAll(now: now) }
      for (index, connection) in connections.enumerated() where index + 1 < descriptors.count {
        let revents = descriptors[index + 1].revents
        if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { receive(connection, now: now) }
      }
      api.tick(now: now)
      for connection in connections where connection.events { api.push(to: connection, now: now) }
      for connection in connections where connection.hasOutput { send(connection, now: now) }
      expire(now: now)
    }
    for connection in connections { close(connection.descriptor) }
    connections.removeAll()
    close(listener)
  }

  func acceptAll(now: Int64) {
    while true {
      let descriptor = accept(listener, nil, nil)
      if descriptor < 0 { return }
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      if connections.count >= SignServer.maximumConnections {
        // Full: say so and close, rather than leave the client hanging.
        let busy = HTTPResponse.error(503, "too many connections (\(SignServer.maximumConnections)); try again later")
          .serialized(closes: true)
        _ = busy.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(descriptor)
        continue
      }
      connections.append(Connection(descriptor: descriptor, now: now))
    }
  }

  func receive(_ connection: Connection, now: Int64) {
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
      if count < 0 {
        if errno == EINTR { continue }
        if errno != EAGAIN && errno != EWOULDBLOCK { connection.closeAfterWrite = true; connection.output.removeAll(); connection.written = 0 }
        break
      }
      if count == 0 {
        // The client closed its side: finish what is queued, then close.
        connection.closeAfterWrite = true
        break
      }
      if connection.input.isEmpty { connection.headStarted = now }
      connection.input += chunk[0..<count]
      connection.lastActivity = now
      if connection.input.count > HTTPRequestParser.maximumHead + HTTPRequestParser.maximumBody + 1024 { break }
    }
    handleInput(connection, now: now)
  }

  /// Serves every whole request the connection's input holds.
  func handleInput(_ connection: Connection, now: Int64) {
    while !connection.closeAfterWrite && !connection.events {
      switch HTTPRequestParser.parse(connection.input[...]) {
      case .incomplete:
        return
      case .failure(let error):
        connection.queue(HTTPResponse.error(error.status, error.message).serialized(closes: true), now: now)
        connection.closeAfterWrite = true
        connection.input.removeAll()
        return
      case .request(let request, let consumed):
        connection.input.removeFirst(consumed)
        connection.headStarted = now
        let response = api.respond(to: request, on: connection, now: now)
        if let response {
          connection.queue(response.serialized(closes: request.closes), now: now)
          if request.closes { connection.closeAfterWrite = true }
        }
      }
    }
  }

  func send(_ connection: Connection, now: Int64) {
    while connection.hasOutput {
      let count = connection.output[connection.written...].withUnsafeBytes {
        Glibc.send(connection.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if count < 0 {
        if errno == EINTR { continue }
        if errno != EAGAIN && errno != EWOULDBLOCK {
          connection.closeAfterWrite = true
          connection.output.removeAll()
          connection.written = 0
        }
        return
      }
      connection.written += count
      connection.lastActivity = now
    }
    connection.waitingSince = 0
  }

  /// Closes what is done, too slow, stalled or idle.
  func expire(now: Int64) {
    connections.removeAll { connection in
      let done = connection.closeAfterWrite && !connection.hasOutput
      // A request begun and not finished in time is answered 408 before the close.
      let slowHead = !connection.events && !connection.input.isEmpty && now - connection.headStarted > SignServer.headDeadline
      // Nothing asked and nothing to send (a client that connected and went quiet).
      let idle = !connection.events && connection.input.isEmpty && !connection.hasOutput
        && now - connection.lastActivity > SignServer.idleTimeout
      let stalled = connection.hasOutput && connection.waitingSince > 0 && now - connection.waitingSince > SignServer.stallTimeout
      if slowHead && !connection.hasOutput {
        let timeout = HTTPResponse.error(408, "the request did not arrive in time").serialized(closes: true)
        _ = timeout.withUnsafeBytes { Glibc.send(connection.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      }
      guard done || slowHead || idle || stalled else { return false }
      close(connection.descriptor)
      return true
    }
  }
}

import Platform
import Synchronization

/// An HTTP/1.1 server on one thread of its own: non-blocking sockets and `poll`, so a slow
/// or hostile client never holds more than its own connection and bounded memory, and
/// whatever else runs in the process never waits on the network.
///
/// What a client can hold (``Limits``): a connection reads at most one largest request ahead
/// (``HTTPInput/capacity``) and reads nothing more while ``Limits/pendingOutput`` bytes of
/// answers wait for the client to take them, so pipelining without reading the answers
/// fills the client's buffers, not the server's. Requests and event streams have separate
/// budgets; when the requests' budget is full, the connection that has been idle (or
/// sending half a head) longest makes room for the new one, so silent connections cannot
/// lock a normal request out (connections that have never had an answer go before a
/// client's kept-alive one); when the streams' budget is full, the oldest stream makes
/// room. A half-sent head is answered 408 after ``Limits/headDeadline``, an idle connection
/// is closed after ``Limits/idleTimeout``, an answer the client does not take within
/// ``Limits/stallTimeout`` closes the connection, and so does an event stream whose bytes
/// its peer has not acknowledged for ``Limits/streamStallTimeout``. Input on an event
/// stream is read and dropped, and past ``Limits/streamInput`` bytes the stream is closed.
/// A client that sends a request and closes its side (half-close) is answered, then closed.
public final class HTTPServer: @unchecked Sendable {
  /// What clients may hold.
  public struct Limits: Sendable {
    /// Connections for requests at once (event streams not counted).
    public var connections = 32
    /// Event streams at once.
    public var streams = 16
    /// Answers waiting to be taken before a connection is read no further.
    public var pendingOutput = 64 * 1024
    /// Nanoseconds from a request's first byte to its whole head.
    public var headDeadline: Int64 = 10_000_000_000
    /// Nanoseconds a connection with nothing asked and nothing to send stays open.
    public var idleTimeout: Int64 = 10_000_000_000
    /// Nanoseconds an answer may wait for the client to take it.
    public var stallTimeout: Int64 = 10_000_000_000
    /// Nanoseconds an event stream's bytes may stay unacknowledged by its peer.
    public var streamStallTimeout: Int64 = 30_000_000_000
    /// Bytes a client may send on an event stream before it is closed.
    public var streamInput = 4096
    /// Nanoseconds of silence on an event stream before a comment keeps proxies awake.
    public var keepAlive: Int64 = 15_000_000_000

    public init() {}
  }

  /// Where it listens (with the port the system chose, for port 0).
  public let address: ListenAddress
  let listener: Int32
  let responder: any HTTPResponder
  let limits: Limits
  let shouldStop: @Sendable () -> Bool
  let onTick: (@Sendable () -> Void)?
  /// The clock every deadline and timeout reads (its monotonic side).
  let clock: SignClock
  let wakeRead: Int32, wakeWrite: Int32
  /// Answers made on other threads, by connection.
  let completions = Mutex<[(UInt64, HTTPResponse)]>([])
  var connections: [HTTPConnection] = []
  var nextID: UInt64 = 0
  var thread: JoinableThread?
  var scratch = [UInt8](repeating: 0, count: 16 * 1024)

  /// Binds and listens on `address`; `shouldStop` is asked every turn of the loop (at
  /// least every 200 ms, at once after ``wake()``) and `onTick` called every turn. `clock`
  /// (its monotonic side) times the ``Limits``; a test gives a ``ManualSignClock``'s.
  public init(
    address: ListenAddress, responder: any HTTPResponder, limits: Limits = Limits(),
    clock: SignClock = .system,
    shouldStop: @escaping @Sendable () -> Bool, onTick: (@Sendable () -> Void)? = nil
  ) throws(ListenAddress.ListenError) {
    self.clock = clock
    self.responder = responder
    self.limits = limits
    self.shouldStop = shouldStop
    self.onTick = onTick
    listener = try address.listen()
    self.address = ListenAddress.bound(listener, like: address)
    guard let ends = Descriptor.pipe() else {
      Descriptor.close(listener)
      throw ListenAddress.ListenError(description: "\(address): cannot make the server's wake pipe: \(SystemError.last("pipe").reason)")
    }
    (wakeRead, wakeWrite) = ends
    Descriptor.makeNonBlocking(wakeRead)
    Descriptor.makeNonBlocking(wakeWrite)
  }

  /// Starts serving on a thread of its own.
  public func start() {
    thread = JoinableThread { [self] in serve() }
  }

  /// Waits for the server thread to end (after `shouldStop` said so); it closes every
  /// connection and the listener as it ends.
  public func join() {
    wake()
    thread?.join()
  }

  /// Makes the server thread look at once (a stop, an answer ready).
  public func wake() {
    let byte: UInt8 = 1
    _ = withUnsafeBytes(of: byte) { Descriptor.write(wakeWrite, $0) }
  }

  func serve() {
    var descriptors: [WaitEntry] = []
    while !shouldStop() {
      descriptors.removeAll(keepingCapacity: true)
      descriptors.append(WaitEntry(listener, read: true))
      descriptors.append(WaitEntry(wakeRead, read: true))
      for connection in connections {
        descriptors.append(WaitEntry(connection.descriptor, read: wantsInput(connection), write: connection.hasOutput))
      }
      let streaming = connections.contains { $0.events != nil }
      _ = Descriptor.wait(&descriptors, milliseconds: streaming ? 20 : 200)
      let now = clock.monotonicNanoseconds
      if descriptors[1].isReady { drainWakePipe() }
      for (index, connection) in connections.enumerated() {
        let entry = descriptors[index + 2]
        if entry.failed { connection.dead = true }
        if entry.canRead { receive(connection, now: now) }
      }
      deliverCompletions(now: now)
      onTick?()
      for connection in connections where !connection.dead { serveInput(connection, now: now) }
      // New connections after the requests already read are answered: a full budget makes
      // room among connections that are waiting, never one with its request in hand.
      if descriptors[0].canRead { acceptAll(now: now) }
      for connection in connections where connection.events != nil && !connection.dead && !connection.hasOutput {
        push(to: connection, now: now)
      }
      for connection in connections where connection.hasOutput && !connection.dead { self.send(connection, now: now) }
      expire(now: now)
    }
    for connection in connections { Descriptor.close(connection.descriptor) }
    connections.removeAll()
    Descriptor.close(listener)
    Descriptor.close(wakeRead)
    Descriptor.close(wakeWrite)
  }

  /// Whether to read a connection now: a stream always (its input is dropped, its end
  /// noticed); a request connection only while its answers are taken and its input has room.
  func wantsInput(_ connection: HTTPConnection) -> Bool {
    if connection.events != nil { return true }
    return !connection.awaiting && !connection.closeAfterWrite && connection.pending < limits.pendingOutput
      && connection.input.room > 0
  }

  func drainWakePipe() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while bytes.withUnsafeMutableBytes({ Descriptor.read(wakeRead, into: $0) }) > 0 {}
  }

  func acceptAll(now: Int64) {
    let before = nextID
    while true {
      let open = connections.filter { $0.events == nil && !$0.dead }
      var victim: HTTPConnection?
      if open.count >= limits.connections {
        // Full: the connection idle (or half-sent) longest makes room, if one is; one that
        // has never had an answer first, so a flood of new connections evicts its own kind
        // before a client's kept-alive connection between its requests.
        let waiting = open.filter { !$0.awaiting && !$0.hasOutput }
        let older = waiting.filter { $0.id <= before }
        if older.isEmpty && !waiting.isEmpty {
          // Only connections accepted in this turn, not read yet, could make room: the
          // rest wait in the listener's backlog until those have been read and answered.
          return
        }
        let unproven = older.filter { $0.answered == 0 }
        victim = (unproven.isEmpty ? older : unproven).min { $0.quietSince < $1.quietSince }
      }
      let descriptor = Socket.accept(listener)
      if descriptor < 0 { return }
      if open.count >= limits.connections {
        guard let victim else {
          Descriptor.sendOnce(descriptor, HTTPResponse.error(503, "the sign is answering \(limits.connections) requests; try again later")
            .serialized(closes: true))
          Descriptor.close(descriptor)
          continue
        }
        if !victim.input.isEmpty {
          Descriptor.sendOnce(victim.descriptor, HTTPResponse.error(408, "the request did not arrive in time").serialized(closes: true))
        }
        victim.dead = true
      }
      nextID += 1
      connections.append(HTTPConnection(descriptor: descriptor, id: nextID, now: now))
    }
  }


  func receive(_ connection: HTTPConnection, now: Int64) {
    if connection.events != nil {
      receiveOnStream(connection)
      return
    }
    while connection.input.room > 0 {
      let wanted = min(connection.input.room, scratch.count)
      let count = retryingOnInterrupt {
        scratch.withUnsafeMutableBytes { Descriptor.receive(connection.descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<wanted])) }
      }
      if count < 0 {
        if !Socket.lastCallWouldBlock { connection.dead = true }
        return
      }
      if count == 0 {
        // The client closed its side: what it sent is still answered.
        connection.input.end()
        return
      }
      if connection.input.isEmpty { connection.headStarted = now }
      scratch.withUnsafeBytes { connection.input.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
      connection.lastActivity = now
    }
  }

  /// Reads and drops what a client sends on an event stream, closing the stream past the limit
  /// or at the client's end.
  func receiveOnStream(_ connection: HTTPConnection) {
    while true {
      let count = scratch.withUnsafeMutableBytes { Descriptor.receive(connection.descriptor, into: $0) }
      if count < 0 {
        if !Socket.lastCallWouldBlock { connection.dead = true }
        return
      }
      if count == 0 {
        connection.dead = true
        return
      }
      connection.streamInput += count
      if connection.streamInput > limits.streamInput {
        connection.dead = true
        return
      }
    }
  }

  /// Serves the whole requests a connection's input holds, while its answers are taken.
  func serveInput(_ connection: HTTPConnection, now: Int64) {
    guard connection.events == nil else { return }
    while !connection.awaiting && !connection.closeAfterWrite && connection.events == nil
      && connection.pending < limits.pendingOutput
    {
      switch connection.input.next() {
      case .waiting:
        return
      case .finished:
        connection.closeAfterWrite = true
        return
      case .failure(let error):
        connection.queue(HTTPResponse.error(error.status, error.message).serialized(closes: true), now: now)
        connection.closeAfterWrite = true
        return
      case .request(let request):
        connection.headStarted = now
        connection.lastActivity = now
        switch responder.respond(to: request) {
        case .now(let response):
          answer(connection, with: response, closes: request.closes, now: now)
        case .later(let start):
          connection.awaiting = true
          connection.awaitingCloses = request.closes
          let id = connection.id
          start { [self] response in
            completions.withLock { $0.append((id, response)) }
            wake()
          }
        }
      }
    }
  }

  func deliverCompletions(now: Int64) {
    let done = completions.withLock { completions in
      defer { completions.removeAll() }
      return completions
    }
    for (id, response) in done {
      guard let connection = connections.first(where: { $0.id == id && !$0.dead }) else { continue }
      connection.awaiting = false
      connection.lastActivity = now
      answer(connection, with: response, closes: connection.awaitingCloses, now: now)
    }
  }

  func answer(_ connection: HTTPConnection, with response: HTTPResponse, closes: Bool, now: Int64) {
    connection.answered += 1
    guard let source = response.events else {
      connection.queue(response.serialized(closes: closes), now: now)
      if closes { connection.closeAfterWrite = true }
      return
    }
    let streams = connections.filter { $0.events != nil && !$0.dead }
    if streams.count >= limits.streams, let oldest = streams.min(by: { $0.id < $1.id }) {
      oldest.dead = true
    }
    connection.events = source
    connection.input.discard()
    connection.drainedAt = now
    connection.lastSent = now
    connection.queue(response.serialized(closes: false), now: now)
  }

  /// Queues what an event stream has not been sent yet, or a keep-alive comment now and then.
  func push(to connection: HTTPConnection, now: Int64) {
    if let bytes = connection.events?.next(now: now) {
      connection.queue(bytes, now: now)
      connection.lastSent = now
    } else if now - connection.lastSent > limits.keepAlive {
      connection.queue(Array(": keep-alive\n\n".utf8), now: now)
      connection.lastSent = now
    }
  }

  func send(_ connection: HTTPConnection, now: Int64) {
    while connection.hasOutput {
      let count = retryingOnInterrupt {
        connection.output.withUnsafeBytes { Descriptor.send(connection.descriptor, UnsafeRawBufferPointer(rebasing: $0[connection.written...])) }
      }
      if count < 0 {
        if !Socket.lastCallWouldBlock { connection.dead = true }
        return
      }
      connection.written += count
      // Progress: the stall clock starts again.
      connection.waitingSince = now
    }
    connection.sent()
  }

  /// Closes what is done, dead, too slow, stalled or idle.
  func expire(now: Int64) {
    connections.removeAll { connection in
      guard !connection.dead else {
        Descriptor.close(connection.descriptor)
        return true
      }
      var drop = connection.closeAfterWrite && !connection.hasOutput && !connection.awaiting
      if connection.events == nil {
        let quiet = !connection.awaiting && !connection.hasOutput
        // A request begun and not finished in time is answered 408 before the close.
        if quiet && !connection.input.isEmpty && now - connection.headStarted > limits.headDeadline {
          Descriptor.sendOnce(connection.descriptor, HTTPResponse.error(408, "the request did not arrive in time").serialized(closes: true))
          drop = true
        }
        if quiet && connection.input.isEmpty && now - connection.lastActivity > limits.idleTimeout { drop = true }
        if connection.hasOutput && now - connection.waitingSince > limits.stallTimeout { drop = true }
      } else {
        if !connection.hasOutput && Descriptor.unacknowledged(connection.descriptor) == 0 { connection.drainedAt = now }
        if now - connection.drainedAt > limits.streamStallTimeout { drop = true }
      }
      if drop { Descriptor.close(connection.descriptor) }
      return drop
    }
  }
}

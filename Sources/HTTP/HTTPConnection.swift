/// One client connection, owned by the server thread.
final class HTTPConnection {
  let descriptor: Int32
  /// Unique for the server's life (descriptor numbers are reused).
  let id: UInt64
  var input = HTTPInput()
  var output: [UInt8] = []
  var written = 0
  /// When the current request's first byte came (or the connection opened).
  var headStarted: Int64
  /// When the client last sent something or was last answered.
  var lastActivity: Int64
  /// Since when the output has been waiting to be taken.
  var waitingSince: Int64 = 0
  /// Answers given on this connection (0: a connection not yet proven a client's).
  var answered = 0
  /// A responder answers later: nothing more is read until it has.
  var awaiting = false
  var awaitingCloses = false
  var closeAfterWrite = false
  /// To be closed at the end of this turn (failed, evicted, or its client went away).
  var dead = false
  /// An event stream: where its events come from.
  var events: (any HTTPEventSource)?
  /// Bytes the client sent on its event stream (all dropped).
  var streamInput = 0
  /// When everything the stream sent was last acknowledged by its peer.
  var drainedAt: Int64 = 0
  /// When the stream last sent something.
  var lastSent: Int64 = 0

  init(descriptor: Int32, id: UInt64, now: Int64) {
    self.descriptor = descriptor
    self.id = id
    headStarted = now
    lastActivity = now
  }

  var hasOutput: Bool { written < output.count }
  /// Bytes queued and not yet sent.
  var pending: Int { output.count - written }
  /// Since when the connection has done nothing useful: its half-sent head's start, or its
  /// last activity.
  var quietSince: Int64 { input.isEmpty ? lastActivity : headStarted }

  func queue(_ bytes: [UInt8], now: Int64) {
    if !hasOutput {
      output.removeAll(keepingCapacity: output.capacity <= 256 * 1024)
      written = 0
      waitingSince = now
    }
    output += bytes
  }

  /// Everything queued went out.
  func sent() {
    waitingSince = 0
  }
}

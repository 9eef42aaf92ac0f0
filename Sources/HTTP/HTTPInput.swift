/// What one connection has received and not yet served: bytes in, whole requests out.
///
/// Holds at most ``capacity`` bytes (a largest head and body, and a little more), so a
/// client cannot make it grow: the server reads only into the ``room`` left, and a client
/// that pipelines faster than its answers are read is simply not read until they are.
/// A connection whose client closed its side (`end()`) still yields the whole requests it
/// sent before the close, then ``Next/finished``. A pure value: the server and the fuzzer
/// drive it the same way.
public struct HTTPInput: Sendable {
  /// What the input holds next.
  public enum Next: Equatable, Sendable {
    /// A whole request, taken out of the input.
    case request(HTTPRequest)
    /// No whole request yet; more bytes may come.
    case waiting
    /// Bytes that are not a request the server serves: answer with this and close.
    case failure(HTTPRequestError)
    /// The client closed its side and every request it sent has been taken.
    case finished
  }

  /// The most bytes held at once.
  public static let capacity = HTTPRequestParser.maximumHead + HTTPRequestParser.maximumBody + 1024

  var bytes: [UInt8] = []
  var start = 0
  /// Whether the client closed its side.
  public private(set) var ended = false

  public init() {}

  /// Bytes held and not yet taken as requests.
  public var count: Int { bytes.count - start }
  public var isEmpty: Bool { count == 0 }
  /// How many more bytes may be taken.
  public var room: Int { ended ? 0 : max(0, HTTPInput.capacity - count) }

  /// Adds received bytes (at most ``room`` of them are kept).
  public mutating func append(_ received: UnsafeRawBufferPointer) {
    compact()
    bytes.append(contentsOf: received.prefix(room))
  }

  /// Adds received bytes (at most ``room`` of them are kept).
  public mutating func append(_ received: [UInt8]) {
    received.withUnsafeBytes { append($0) }
  }

  /// The client closed its side: no more bytes will come.
  public mutating func end() { ended = true }

  /// Forgets everything held (a connection that became an event stream, or failed).
  public mutating func discard() {
    bytes.removeAll(keepingCapacity: true)
    start = 0
  }

  /// Takes the next whole request, if the bytes hold one.
  public mutating func next() -> Next {
    switch HTTPRequestParser.parse(bytes[start...]) {
    case .request(let request, let consumed):
      start += consumed
      if start == bytes.count { discard() }
      return .request(request)
    case .failure(let error):
      discard()
      return .failure(error)
    case .incomplete:
      guard ended else { return .waiting }
      if isEmpty { return .finished }
      discard()
      return .failure(HTTPRequestError(status: 400, message: "the connection was closed before the request was whole"))
    }
  }

  mutating func compact() {
    guard start > 0 else { return }
    bytes.removeFirst(start)
    start = 0
  }
}

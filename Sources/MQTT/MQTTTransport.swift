import Platform

/// What the client reaches a broker over: TCP (``tcp``), or a test's scripted broker, so
/// that the client's state machine (connect, keep-alive, pauses, resending) is tested on a
/// manual clock without a socket, as swift-nio's `EmbeddedChannel` tests a pipeline.
public protocol MQTTTransport: Sendable {
  /// A new connection to `host`:`port`.
  ///
  /// - Throws: ``MQTTConnectionError`` saying why none could be made.
  func open(_ host: String, _ port: UInt16) throws(MQTTConnectionError) -> any MQTTConnection
}

/// One connection to a broker, released when the client lets it go.
public protocol MQTTConnection: AnyObject, Sendable {
  /// Sends `bytes` whole; whether it could.
  func send(_ bytes: [UInt8]) -> Bool
  /// The bytes that came within `seconds` (`nil` when none came in time).
  ///
  /// - Throws: ``MQTTConnectionError`` when the connection is closed or failed.
  func receive(within seconds: Double) throws(MQTTConnectionError) -> ArraySlice<UInt8>?
  /// Ends the connection in both directions: a thread in ``receive(within:)`` returns.
  func shutdown()
}

extension MQTTTransport where Self == TCPTransport {
  /// A TCP connection, with 5 s to connect.
  public static var tcp: TCPTransport { TCPTransport() }
}

/// MQTT over plain TCP.
public struct TCPTransport: MQTTTransport {
  public init() {}

  public func open(_ host: String, _ port: UInt16) throws(MQTTConnectionError) -> any MQTTConnection {
    do {
      return TCPLink(descriptor: FileDescriptor(owning: try TCPConnection.open(host, port, seconds: 5)))
    } catch {
      throw MQTTConnectionError(error.lookup ? "cannot find the broker \(host): \(error.reason)" : "cannot connect to the broker at \(host):\(port): \(error.reason)")
    }
  }

  /// A connected socket, closed when the link goes away.
  final class TCPLink: MQTTConnection {
    let socket: FileDescriptor
    var descriptor: Int32 { socket.raw }

    init(descriptor: consuming FileDescriptor) { socket = descriptor }

    func send(_ bytes: [UInt8]) -> Bool { TCPConnection.write(bytes, to: descriptor) }

    func receive(within seconds: Double) throws(MQTTConnectionError) -> ArraySlice<UInt8>? {
      guard Descriptor.waitReadable(descriptor, milliseconds: Int32(saturating: max(1, seconds * 1000))) else { return nil }
      var chunk = [UInt8](repeating: 0, count: 16_384)
      let count = chunk.withUnsafeMutableBytes { Descriptor.receive(descriptor, into: $0) }
      guard count > 0 else {
        throw MQTTConnectionError(count == 0 ? "the broker closed the connection" : "the connection failed: \(SystemError.last("receive").reason)")
      }
      return chunk[0..<count]
    }

    func shutdown() { TCPConnection.shutDown(descriptor) }
  }
}

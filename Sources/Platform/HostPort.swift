#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
/// A host and a port as people write them after `//` or on their own: `HOST:PORT`,
/// `[IPv6]:PORT`, or the host alone where a default port applies.
///
/// `--listen`, `--mqtt` and `marquee notify`'s sign address all read their host and port
/// here, so `[::1]:8080` and `host:0` mean one thing in each.
public struct HostPort: Sendable, Equatable, CustomStringConvertible {
  /// The host: a name or an address, without brackets.
  public var host: String
  public var port: UInt16
  /// Whether the host was written in brackets (an IPv6 address).
  public var bracketed: Bool

  /// What is wrong with the text, in words to follow the text itself ("'x': …").
  public enum Invalid: Error, Sendable, Equatable, CustomStringConvertible {
    case unclosedBracket
    /// Text after `]` that is not `:PORT`.
    case afterBracket(String)
    /// Nothing before the port, or a host with `/` in it.
    case noHost
    case noPort
    /// The port as written, and the range it must be in.
    case portOutOfRange(String, range: String)

    public var description: String {
      switch self {
      case .unclosedBracket: "an IPv6 host needs its closing ']'"
      case .afterBracket(let text): "expected ':PORT' after ']', got '\(text)'"
      case .noHost: "names no host"
      case .noPort: "needs a port (HOST:PORT)"
      case .portOutOfRange(let text, let range): "the port '\(text)' is not \(range)"
      }
    }
  }

  /// Which ports are accepted.
  public enum Ports: Sendable {
    /// 1-65535; `defaultPort` when none is written (nil: a port must be written).
    case required(defaultPort: UInt16?)
    /// 0-65535, 0 meaning "any free port" (a server's own address); one must be written.
    case anyIncludingZero
  }

  public init(host: String, port: UInt16, bracketed: Bool = false) {
    self.host = host
    self.port = port
    self.bracketed = bracketed
  }

  /// Reads `text`.
  ///
  /// - Throws: ``Invalid``: an unclosed `[`, text after `]` that is not `:PORT`, no host, a
  ///   host with `/` in it, a missing port, or a port out of range.
  public init(_ text: Substring, ports: Ports) throws(Invalid) {
    var hostPart = text, portPart: Substring?
    bracketed = text.hasPrefix("[")
    if bracketed {
      guard let close = text.firstIndex(of: "]") else { throw .unclosedBracket }
      hostPart = text[text.index(after: text.startIndex)..<close]
      let after = text[text.index(after: close)...]
      if after.hasPrefix(":") {
        portPart = after.dropFirst()
      } else if !after.isEmpty {
        throw .afterBracket(String(after))
      }
    } else if let colon = text.lastIndex(of: ":") {
      hostPart = text[..<colon]
      portPart = text[text.index(after: colon)...]
    }
    guard !hostPart.isEmpty, !hostPart.contains("/") else { throw .noHost }
    host = String(hostPart)
    switch (ports, portPart) {
    case (.required(let fallback?), nil):
      port = fallback
    case (.required, nil), (.anyIncludingZero, nil):
      throw .noPort
    case (.required, let written?):
      guard let number = UInt16(written), number > 0 else { throw .portOutOfRange(String(written), range: "1-65535") }
      port = number
    case (.anyIncludingZero, let written?):
      guard let number = UInt16(written) else { throw .portOutOfRange(String(written), range: "0-65535") }
      port = number
    }
  }

  /// `HOST:PORT`, the host in brackets when it holds a ':' (an IPv6 address).
  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

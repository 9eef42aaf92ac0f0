import Platform

/// A broker's address as people write it: `mqtt://[user[:password]@]host[:port]`, the
/// user name and password percent-encoded where they hold `@`, `:` or `/`; an IPv6 host
/// in brackets (`mqtt://[::1]:1883`). Port 1883 by default.
public struct MQTTAddress: Sendable, Equatable {
  public var host: String
  public var port: UInt16
  public var username: String?
  public var password: String?

  /// Why text is not a broker address.
  public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  public init(_ text: String) throws(Invalid) {
    // What an error shows of the address: never the password.
    let shown = MQTTAddress.redacted(text)
    let form = "expected mqtt://[user:password@]host[:port]"
    if text.hasPrefix("mqtts://") || text.hasPrefix("ssl://") || text.hasPrefix("wss://") {
      throw Invalid(description: "'\(shown)': TLS is not supported (the toolchain has no TLS library); run a local mosquitto bridged to the broker and give mqtt://127.0.0.1 (Docs/mqtt.md)")
    }
    guard text.hasPrefix("mqtt://") || text.hasPrefix("tcp://") else { throw Invalid(description: "'\(shown)' is not an MQTT address: \(form)") }
    var rest = Substring(text.drop { $0 != "/" }.dropFirst(2))
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    if let at = rest.lastIndex(of: "@") {
      let credentials = rest[..<at]
      rest = rest[rest.index(after: at)...]
      let parts = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      guard let user = MQTTAddress.decode(parts[0]), !user.isEmpty else {
        throw Invalid(description: "'\(shown)': the user name is empty or badly percent-encoded: \(form)")
      }
      username = user
      if parts.count == 2 {
        guard let secret = MQTTAddress.decode(parts[1]) else { throw Invalid(description: "'\(shown)': the password is badly percent-encoded") }
        password = secret
      }
    }
    let written: HostPort
    do {
      written = try HostPort(rest, ports: .required(defaultPort: 1883))
    } catch {
      throw Invalid(description: error == .noHost ? "'\(shown)' names no broker host: \(form)" : "'\(shown)': \(error)")
    }
    host = written.host
    port = written.port
  }

  /// `text` with the password of its credentials (between the first ':' after `//` and the
  /// last '@') replaced by `***`: what messages, logs and errors may show.
  public static func redacted(_ text: String) -> String {
    guard let slash = text.firstIndex(of: "/"), text[slash...].hasPrefix("//"), let at = text.lastIndex(of: "@") else { return text }
    let start = text.index(slash, offsetBy: 2)
    guard at > start else { return text }
    let credentials = text[start..<at]
    guard let colon = credentials.firstIndex(of: ":") else { return text }
    return String(text[..<credentials.index(after: colon)]) + "***" + String(text[at...])
  }

  /// Percent-decoding, or nil for a bad escape.
  static func decode(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var index = text.utf8.startIndex
    let utf8 = text.utf8
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte == UInt8(ascii: "%") {
        let first = utf8.index(after: index)
        guard first < utf8.endIndex, utf8.index(after: first) < utf8.endIndex,
          let value = UInt8(String(decoding: [utf8[first], utf8[utf8.index(after: first)]], as: UTF8.self), radix: 16)
        else { return nil }
        bytes.append(value)
        index = utf8.index(first, offsetBy: 2)
      } else {
        bytes.append(byte)
        index = utf8.index(after: index)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }
}

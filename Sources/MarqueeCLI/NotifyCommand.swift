import Platform
import MQTT
import MatrixCore
import SimpleJSON
import SignService

/// `marquee notify`: a notification for a running `marquee serve`, sent to its API
/// (`POST /api/notify`, `DELETE /api/notify[/ID]`), with the address and token given the
/// way curl takes them: the URL, and `--oauth2-bearer TOKEN` or `-H 'Authorization: Bearer
/// TOKEN'` (or the server's own `--token-file`).
public struct NotifyCommand: Sendable, Equatable {
  var host = "127.0.0.1"
  var port: UInt16 = 8080
  var token: String?
  var tokenFile: String?
  /// The notification document, or nil when dismissing.
  var document: JSONValue?
  /// With `--dismiss`: the ID, or nil for every one.
  var dismiss: Int?

  static let usage = "marquee notify [URL] [--zone Z] [--duration S | --passes N] [--priority P] [--in EFFECT] [--out EFFECT] [--wake] MESSAGE... | --dismiss [ID]"

  static func parse(_ rest: [String]) throws(UsageError) -> NotifyCommand {
    var command = NotifyCommand()
    var members: [(key: String, value: JSONValue)] = []
    var messages: [String] = []
    var dismissing = false
    var index = 0
    func value(_ name: String) throws(UsageError) -> String {
      index += 1
      guard index < rest.count else { throw UsageError("'\(name)' needs a value: \(usage)") }
      return rest[index]
    }
    func number(_ name: String, _ text: String, in range: ClosedRange<Double>) throws(UsageError) -> Double {
      guard let number = Double(text), range.contains(number) else {
        throw UsageError("'\(name)' needs a number from \(range.lowerBound.formatted) to \(range.upperBound.formatted), got '\(text)'")
      }
      return number
    }
    while index < rest.count {
      let argument = rest[index]
      switch argument {
      case "--zone": members.append(("zone", .string(try value(argument))))
      case "--duration": members.append(("duration", .number(try number(argument, try value(argument), in: 0.1...86_400))))
      case "--passes": members.append(("passes", .number(try number(argument, try value(argument), in: 1...100).rounded())))
      case "--priority": members.append(("priority", .number(try number(argument, try value(argument), in: -100...100).rounded())))
      case "--in": members.append(("in", .string(try value(argument))))
      case "--out": members.append(("out", .string(try value(argument))))
      case "--wake": members.append(("wake", .bool(true)))
      case "--dismiss": dismissing = true
      case "--oauth2-bearer", "--token": command.token = try value(argument)
      case "--token-file": command.tokenFile = try value(argument)
      case "-H", "--header":
        let header = try value(argument)
        let parts = header.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "authorization" else {
          throw UsageError("'\(argument)' takes only 'Authorization: Bearer TOKEN' here, got '\(header)'")
        }
        let words = parts[1].split(separator: " ")
        guard words.count == 2, words[0].lowercased() == "bearer" else { throw UsageError("'\(argument)': expected 'Authorization: Bearer TOKEN'") }
        command.token = String(words[1])
      default:
        if argument.hasPrefix("http://") || argument.hasPrefix("https://") {
          try command.setURL(argument)
        } else if argument.hasPrefix("-") && argument.count > 1 {
          throw UsageError("'notify' does not take '\(argument)': \(usage)")
        } else if dismissing {
          guard let id = Int(argument), id > 0 else { throw UsageError("'--dismiss' takes a notification's number, got '\(argument)'") }
          command.dismiss = id
        } else {
          messages.append(argument)
        }
      }
      index += 1
    }
    if dismissing {
      guard messages.isEmpty, members.isEmpty else { throw UsageError("'--dismiss' takes only a notification's number (or none: all)") }
      return command
    }
    guard !messages.isEmpty else { throw UsageError("'notify' needs a message: \(usage)") }
    command.document = .object([("messages", .array(messages.map { .string($0) }))] + members)
    return command
  }

  /// `http://HOST[:PORT][/]`.
  mutating func setURL(_ text: String) throws(UsageError) {
    guard text.hasPrefix("http://") else {
      throw UsageError("'\(text)': marquee serve speaks plain HTTP (put a TLS proxy in front for remote signs); use http://")
    }
    var rest = Substring(text.dropFirst("http://".count))
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
      host = String(rest[rest.index(after: rest.startIndex)..<close])
      rest = rest[rest.index(after: close)...]
      if rest.hasPrefix(":") { rest = rest.dropFirst() } else { rest = "" }
    } else if let colon = rest.lastIndex(of: ":") {
      host = String(rest[..<colon])
      rest = rest[rest.index(after: colon)...]
    } else {
      host = String(rest)
      rest = ""
    }
    guard !host.isEmpty, !host.contains("/") else { throw UsageError("'\(text)' is not a sign's address: expected http://HOST[:PORT]") }
    if !rest.isEmpty {
      guard let number = UInt16(rest), number > 0 else { throw UsageError("'\(text)': the port '\(rest)' is not 1-65535") }
      port = number
    }
  }

  /// Sends it; prints what the sign answered. Throws ``RuntimeError`` (exit 1) when the sign
  /// cannot be reached or refuses.
  func run() throws -> String {
    var bearer = token
    if bearer == nil, let tokenFile {
      do {
        let bytes = try FileBytes.read(tokenFile, limit: 4096)
        bearer = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.map(String.init)
      } catch {
        throw RuntimeError("\(tokenFile): cannot read the token: \(error.reason)")
      }
    }
    let (method, path) = document != nil ? ("POST", "/api/notify") : ("DELETE", dismiss.map { "/api/notify/\($0)" } ?? "/api/notify")
    let body = document?.text ?? ""
    var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\nConnection: close\r\n"
    if !body.isEmpty { request += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
    if let bearer { request += "Authorization: Bearer \(bearer)\r\n" }
    request += "\r\n" + body
    let answer = try NotifyCommand.exchange(host, port, Array(request.utf8))
    guard let headEnd = answer.firstRange(of: "\r\n\r\n".utf8), let statusLine = String(validating: answer[..<headEnd.lowerBound], as: UTF8.self)?.split(separator: "\r\n").first
    else { throw RuntimeError("the sign at http://\(host):\(port) answered with something that is not HTTP") }
    let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
    let reply = (try? JSONParser.parse(String(decoding: answer[headEnd.upperBound...], as: UTF8.self))) ?? .null
    guard status == 200 else {
      var reason = "status \(status)"
      if case .string(let text)? = reply["error"] { reason = text }
      throw RuntimeError("the sign refused: \(reason)")
    }
    if case .number(let id)? = reply["id"] { return "Notification \(Int(id)) is on the sign's queue\n" }
    return dismiss.map { "Notification \($0) dismissed\n" } ?? "Every notification dismissed\n"
  }

  /// The whole exchange's limit, connecting included, in seconds.
  static let limit = 10.0

  /// Sends `request` and reads the whole answer (the server closes), within ``limit``
  /// seconds in all: a sign that sends a byte now and then cannot keep it waiting.
  static func exchange(_ host: String, _ port: UInt16, _ request: [UInt8]) throws -> [UInt8] {
    let deadline = SystemClock.monotonicSeconds() + limit
    let descriptor: Int32
    do {
      descriptor = try TCPConnection.open(host, port, seconds: 10)
    } catch {
      throw RuntimeError(error.lookup ? "cannot find the sign's host \(host): \(error.reason)"
        : "cannot reach the sign at http://\(host):\(port): \(error.reason) (is marquee serve running there?)")
    }
    defer { close(descriptor) }
    guard TCPConnection.write(request, to: descriptor) else { throw RuntimeError("the sign at http://\(host):\(port) closed the connection") }
    var chunk = [UInt8](repeating: 0, count: 16_384)
    var answer: [UInt8] = []
    let late = RuntimeError("the sign at http://\(host):\(port) did not answer within \(Int(limit)) s")
    while answer.count < 1 << 20 {
      let left = deadline - SystemClock.monotonicSeconds()
      guard left > 0 else { throw late }
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = retryingOnInterrupt { poll(&poller, 1, Int32(saturating: (left * 1000).rounded(.up))) }
      guard ready > 0 else { throw late }
      let count = retryingOnInterrupt { recv(descriptor, &chunk, chunk.count, 0) }
      if count < 0 { throw late }
      if count == 0 { break }
      answer += chunk[0..<count]
    }
    return answer
  }
}

extension Double {
  /// The number without a fraction when it has none (`0.1`, `100`).
  var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}

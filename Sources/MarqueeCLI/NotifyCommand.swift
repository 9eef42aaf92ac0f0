import Platform
import HTTP
import MQTT
import MatrixCore
import SimpleJSON
import SignService

/// `marquee notify`: a notification for a running `marquee serve`, sent to its API
/// (`POST /api/notify`, `DELETE /api/notify[/ID]`), with the address and token given the
/// way curl takes them: the URL, and `--oauth2-bearer TOKEN` or `-H 'Authorization: Bearer
/// TOKEN'` (or the server's own `--token-file`). Given an `mqtt://` URL and `--topic
/// PREFIX`, it publishes to `PREFIX/notify` (or `PREFIX/dismiss`) instead: one sign's
/// prefix, or a group's (`--mqtt-group`), which every sign in it takes.
public struct NotifyCommand: Sendable, Equatable {
  var sign = HTTPClient(HostPort(host: "127.0.0.1", port: 8080))
  var token: String?
  var tokenFile: String?
  /// The notification document, or nil when dismissing.
  var document: JSONValue?
  /// With `--dismiss`: the ID, or nil for every one.
  var dismiss: Int?
  /// An MQTT broker and the topic prefix to publish under, instead of the sign's API.
  var broker: MQTTAddress?
  var topic: String?

  static let usage = "marquee notify [URL | mqtt://BROKER --topic PREFIX] [--zone Z] [--duration S | --passes N] [--priority P] [--in EFFECT] [--out EFFECT] [--wake] MESSAGE... | --dismiss [ID]"

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
      case "--topic":
        let prefix = try value(argument)
        if let problem = MQTTTopic.prefixProblem(prefix) { throw UsageError("'--topic \(prefix)': \(problem)") }
        command.topic = prefix
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
        if argument.hasPrefix("mqtt://") || argument.hasPrefix("mqtts://") {
          do {
            command.broker = try MQTTAddress(argument)
          } catch {
            throw UsageError("\(argument): \(error)")
          }
        } else if argument.hasPrefix("http://") || argument.hasPrefix("https://") {
          do {
            command.sign = try HTTPClient(url: argument)
          } catch {
            throw UsageError(error.description)
          }
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
    if command.broker != nil && command.topic == nil {
      throw UsageError("an MQTT broker needs '--topic PREFIX': the sign's or the group's prefix (marquee notify mqtt://broker --topic signs/all Closing soon)")
    }
    if command.topic != nil && command.broker == nil { throw UsageError("'--topic' goes with an mqtt:// broker") }
    if dismissing {
      guard messages.isEmpty, members.isEmpty else { throw UsageError("'--dismiss' takes only a notification's number (or none: all)") }
      return command
    }
    guard !messages.isEmpty else { throw UsageError("'notify' needs a message: \(usage)") }
    command.document = .object([("messages", .array(messages.map { .string($0) }))] + members)
    return command
  }

  /// Sends it; prints what the sign answered. Throws ``SignFailure`` (exit 1) when the sign
  /// cannot be reached or refuses.
  func run() throws -> String {
    if let broker, let topic { return try publish(on: broker, under: topic) }
    var bearer = token
    if bearer == nil, let tokenFile {
      do {
        let bytes = try FileBytes.read(tokenFile, limit: 4096)
        bearer = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.map(String.init)
      } catch {
        throw SignFailure("\(tokenFile): cannot read the token: \(error.reason)")
      }
    }
    let (method, path) = document != nil ? ("POST", "/api/notify") : ("DELETE", dismiss.map { "/api/notify/\($0)" } ?? "/api/notify")
    var headers: [(String, String)] = []
    if document != nil { headers.append(("Content-Type", "application/json")) }
    if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
    let answer: HTTPClient.Answer
    do {
      answer = try sign.send(method, path, headers: headers, body: Array((document?.text ?? "").utf8))
    } catch {
      let advice = error.description.hasPrefix("cannot reach") ? " (is marquee serve running there?)" : ""
      throw SignFailure("\(error)\(advice)")
    }
    let reply = (try? JSONParser.parse(String(decoding: answer.body, as: UTF8.self))) ?? .null
    guard answer.status == 200 else {
      var reason = "status \(answer.status)"
      if case .string(let text)? = reply["error"] { reason = text }
      throw SignFailure("the sign refused: \(reason)")
    }
    if case .number(let id)? = reply["id"] { return "Notification \(Int(id)) is on the sign's queue\n" }
    return dismiss.map { "Notification \($0) dismissed\n" } ?? "Every notification dismissed\n"
  }
}

extension NotifyCommand {
  /// Publishes the notification (QoS 1, not retained: a notice is news once) or the
  /// dismissal, and waits for the broker's acknowledgement, 10 s at most.
  func publish(on broker: MQTTAddress, under prefix: String) throws -> String {
    guard let client = try BrokerConnection.open(broker, tool: "notify") else { throw SignFailure("stopped before the broker answered") }
    defer { client.stop() }
    let (topic, payload) = document.map { (prefix + "/notify", $0.text) } ?? (prefix + "/dismiss", dismiss.map(String.init) ?? "")
    let deadline = SystemClock.monotonicSeconds() + 10
    var sent = false
    while SystemClock.monotonicSeconds() < deadline {
      if !sent { sent = client.publish(.init(topic: topic, payload: Array(payload.utf8), qos: 1, retain: false)) }
      if sent && client.unacknowledgedCount == 0 {
        return document != nil ? "Notification published to \(topic)\n" : "Dismissal published to \(topic)\n"
      }
      SignClock.kernelSleep(0.02)
    }
    throw SignFailure("the broker at \(HostPort(host: broker.host, port: broker.port)) did not acknowledge within 10 s")
  }
}

extension Double {
  /// The number without a fraction when it has none (`0.1`, `100`).
  var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}

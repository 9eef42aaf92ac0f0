import Marquee
import MQTT
import SimpleJSON
import Synchronization

/// The latest value of each MQTT topic a message names with `{mqtt:TOPIC}`, and when it
/// came: what the placeholders of a zone's messages show.
///
/// `{mqtt:home/outside/temp}` shows the topic's latest payload as text (at most
/// ``maximumLength`` characters, control characters as spaces); `{mqtt:TOPIC|TEXT}` shows
/// `TEXT` until a first value comes (without it, nothing). A topic with `+` or `#` is not a
/// placeholder: the text stays as written. The engine never sees a placeholder: a zone's
/// messages are filled in before its content is made, and made again when a value changes.
public final class LiveValues: Sendable {
  /// One topic's latest value and when it came (monotonic seconds).
  package struct Value: Sendable, Equatable {
    package var text: String
    package var received: Double
  }

  /// The longest value shown, in characters; a longer payload is cut.
  public static let maximumLength = 256
  /// The most topics the sign's content may name at once (every zone, live content kept
  /// under a fallback included); content that would name more is refused where it names
  /// one too many.
  public static let maximumTopics = 256

  let values = Mutex<[String: Value]>([:])

  /// A live data source's latest items and when they came (monotonic seconds).
  package struct SourceItems: Sendable, Equatable {
    package var items: [String]
    package var received: Double
  }

  let sources = Mutex<(declared: [String], items: [String: SourceItems])>(([], [:]))

  public init() {}

  /// The sources the sign's config declares: the names `{source:NAME}` may use.
  package var declaredSources: [String] {
    get { sources.withLock { $0.declared } }
    set { sources.withLock { $0.declared = newValue } }
  }

  /// Keeps `items` as source `name`'s, received at monotonic time `received`; whether what
  /// shows changed.
  @discardableResult
  package func setSource(_ name: String, items: [String], received: Double) -> Bool {
    let shown = items.map(LiveValues.shown)
    return sources.withLock { sources in
      let changed = sources.items[name]?.items != shown
      sources.items[name] = SourceItems(items: shown, received: received)
      return changed
    }
  }

  /// Forgets what source `name` gave.
  package func removeSource(_ name: String) {
    sources.withLock { $0.items[name] = nil }
  }

  /// Source `name`'s latest items, if any came.
  package func source(_ name: String) -> SourceItems? {
    sources.withLock { $0.items[name] }
  }

  /// The sources `message` names in `{source:NAME}` placeholders, in order, each once.
  package static func sourceNames(in message: String) -> [String] {
    var found: [String] = []
    scan(message, kind: "source") { name, _ in
      if !found.contains(name) { found.append(name) }
      return nil
    }
    return found
  }

  /// The messages `message` shows: a message that is one list placeholder and nothing else
  /// (`{source:bus}`) is one message per item (its default, or nothing, until items come);
  /// any other has its placeholders filled in (a list's items joined by " · ").
  package func expand(_ message: String) -> [String] {
    guard message.contains("{source:") else { return [fill(message)] }
    let trimmed = message.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
    let whole = String(trimmed)
    if whole.hasPrefix("{source:"), whole.hasSuffix("}"), whole.dropFirst().firstIndex(of: "{") == nil,
      let close = whole.firstIndex(of: "}"), whole.index(after: close) == whole.endIndex
    {
      let body = whole.dropFirst("{source:".count).dropLast()
      let pieces = body.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
      let name = String(pieces[0])
      if let items = source(name)?.items, !items.isEmpty { return items.map(TextTemplate.escaped) }
      return [TextTemplate.escaped(pieces.count == 2 ? String(pieces[1]) : "")]
    }
    return [fill(message)]
  }

  /// Keeps `payload` as `topic`'s value, received at monotonic time `received`; returns
  /// whether the shown text changed. Payloads of topics past ``maximumTopics`` are dropped.
  @discardableResult
  package func set(_ topic: String, payload: String, received: Double) -> Bool {
    let text = LiveValues.shown(payload)
    return values.withLock { values in
      guard values[topic] != nil || values.count < LiveValues.maximumTopics else { return false }
      let changed = values[topic]?.text != text
      values[topic] = Value(text: text, received: received)
      return changed
    }
  }

  /// Forgets the values of every topic but `topics` (those content names now).
  package func keep(only topics: Set<String>) {
    values.withLock { values in
      guard values.keys.contains(where: { !topics.contains($0) }) else { return }
      values = values.filter { topics.contains($0.key) }
    }
  }

  /// Why the placeholders of `message` cannot be subscribed to (a topic MQTT does not
  /// allow), or nil.
  package static func topicProblem(in message: String) -> (topic: String, problem: String)? {
    for topic in topics(in: message) {
      if let problem = MQTTTopic.problem(topic, filter: false) { return (topic, problem) }
    }
    return nil
  }

  /// Refuses a document (from MQTT, or from the API without a token) any of whose strings
  /// names a placeholder topic that no filter in `allowed` matches: the sign would read, for
  /// whoever sent it, a topic they may not read themselves.
  ///
  /// - Throws: ``JSONFieldError`` at the string that names it (`zones[0].messages[1]`).
  package static func checkTopics(in document: JSONValue, allowed: [String], path: String = "") throws(JSONFieldError) {
    switch document {
    case .string(let text):
      guard text.contains("{mqtt:") else { return }
      for topic in topics(in: text) where !allowed.contains(where: { MQTTTopic.matches(topic, filter: $0) }) {
        throw JSONFieldError(
          field: path.isEmpty ? "(top level)" : path,
          reason: "{mqtt:\(topic)} names a topic this source may not read (it may read \(allowed.joined(separator: ", "))); the owner allows more with --mqtt-values")
      }
    case .array(let items):
      for (index, item) in items.enumerated() { try checkTopics(in: item, allowed: allowed, path: "\(path)[\(index)]") }
    case .object(let members):
      for member in members { try checkTopics(in: member.value, allowed: allowed, path: path.isEmpty ? member.key : "\(path).\(member.key)") }
    default:
      return
    }
  }

  /// `topic`'s latest value, if one came.
  package func value(_ topic: String) -> Value? {
    values.withLock { $0[topic] }
  }

  /// A payload as it shows in a message: one line, cut to ``maximumLength`` characters.
  static func shown(_ payload: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in payload.unicodeScalars.prefix(LiveValues.maximumLength) {
      scalars.append(scalar.properties.generalCategory == .control ? " " : scalar)
    }
    return String(scalars).trimmingSpaces()
  }

  /// The topics `message` names in placeholders, in order, each once.
  package static func topics(in message: String) -> [String] {
    var found: [String] = []
    scan(message) { topic, _ in
      if !found.contains(topic) { found.append(topic) }
      return nil
    }
    return found
  }

  /// `message` with each placeholder replaced by its topic's value (or its default), braces
  /// in values doubled so they show as written.
  package func fill(_ message: String) -> String {
    var message = message
    if message.contains("{mqtt:") {
      message = LiveValues.scan(message) { topic, fallback in TextTemplate.escaped(value(topic)?.text ?? fallback) }
    }
    if message.contains("{source:") {
      message = LiveValues.scan(message, kind: "source") { name, fallback in
        let items = source(name)?.items ?? []
        return TextTemplate.escaped(items.isEmpty ? fallback : items.joined(separator: " · "))
      }
    }
    return message
  }

  /// `message` as a template (``Marquee/TextTemplate/walk(_:_:)``: `{{` and `}}` kept as
  /// written), with each `{mqtt:TOPIC|DEFAULT}` replaced by what `replace` gives for its
  /// topic and default (nil keeps it as written).
  @discardableResult
  static func scan(_ message: String, kind: String = "mqtt", _ replace: (_ topic: String, _ fallback: String) -> String?) -> String {
    var result = ""
    TextTemplate.walk(message) { piece in
      switch piece {
      case .text(let character): result.append(character)
      case .brace(let character): result += String(repeating: character, count: 2)
      case .placeholder(let name, let body, let written):
        let pieces = body.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        let topic = String(pieces.first ?? "")
        guard name == kind, !topic.isEmpty, !topic.contains("{"), kind != "mqtt" || !topic.contains("+") && !topic.contains("#") else { return false }
        result += replace(topic, pieces.count == 2 ? String(pieces[1]) : "") ?? String(written)
      }
      return true
    }
    return result
  }
}

extension String {
  /// The text with spaces at both ends removed.
  fileprivate func trimmingSpaces() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}

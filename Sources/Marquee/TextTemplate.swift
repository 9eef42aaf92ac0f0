#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Message text with placeholders filled in from the time: `{time}` (`%H:%M`), `{date}`
/// (`%Y-%m-%d`), `{time:FORMAT}` and `{date:FORMAT}` with strftime formats, in the local
/// time zone (`TZ`). `{{` and `}}` are literal braces.
public struct TextTemplate: Sendable, Equatable {
  enum Part: Sendable, Equatable {
    case text(String)
    case time(format: String)
  }

  let parts: [Part]
  /// The template as written.
  public let source: String

  /// Parses a template; text without placeholders is a template that never changes.
  public init(_ source: String) {
    self.source = source
    var parts: [Part] = []
    var text = ""
    var index = source.startIndex
    while index < source.endIndex {
      let character = source[index]
      let next = source.index(after: index)
      if character == "{", next < source.endIndex, source[next] == "{" {
        text.append("{")
        index = source.index(after: next)
        continue
      }
      if character == "}", next < source.endIndex, source[next] == "}" {
        text.append("}")
        index = source.index(after: next)
        continue
      }
      if character == "{", let close = source[next...].firstIndex(of: "}") {
        let body = source[next..<close]
        let (name, format) = body.firstIndex(of: ":").map { (body[..<$0], String(body[body.index(after: $0)...])) } ?? (body, "")
        if name == "time" || name == "date" {
          if !text.isEmpty { parts.append(.text(text)) }
          text = ""
          parts.append(.time(format: format.isEmpty ? (name == "time" ? "%H:%M" : "%Y-%m-%d") : format))
          index = source.index(after: close)
          continue
        }
      }
      text.append(character)
      index = next
    }
    if !text.isEmpty { parts.append(.text(text)) }
    self.parts = parts
  }

  /// Whether the text depends on the time.
  public var isDynamic: Bool { parts.contains { if case .time = $0 { true } else { false } } }

  /// Whether the text changes every second (else at most every minute).
  var changesEverySecond: Bool {
    parts.contains { part in
      guard case .time(let format) = part else { return false }
      return ["%S", "%T", "%r", "%s", "%c", "%X"].contains { format.contains($0) }
    }
  }

  /// The text at Unix time `epochSeconds` (fractions are dropped).
  public func expand(at epochSeconds: Double) -> String {
    var result = ""
    for part in parts {
      switch part {
      case .text(let text): result += text
      case .time(let format): result += TextTemplate.format(format, epochSeconds)
      }
    }
    return result
  }

  /// The next Unix time after `epochSeconds` at which the text may change.
  public func nextChange(after epochSeconds: Double) -> Double? {
    guard isDynamic else { return nil }
    let step = changesEverySecond ? 1.0 : 60.0
    return ((epochSeconds / step).rounded(.down) + 1) * step
  }

  static func format(_ format: String, _ epochSeconds: Double) -> String {
    var seconds = time_t(epochSeconds.rounded(.down))
    var parts = tm()
    localtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 256)
    let count = strftime(&buffer, buffer.count, format, &parts)
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

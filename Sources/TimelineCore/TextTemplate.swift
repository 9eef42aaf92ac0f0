import FontCore
import TotalConversion

/// Message text with placeholders filled in from the time: `{time}` (`%H:%M`), `{date}`
/// (`%Y-%m-%d`), `{time:FORMAT}` and `{date:FORMAT}` with strftime formats, in the local
/// time zone (`TZ`); `{countdown:YYYY-MM-DD HH:MM}` and `{since:YYYY-MM-DD HH:MM}`, the
/// time left until a local moment or gone since it (`%d` days, `%h` hours and `%m` minutes
/// of the rest, `%H` and `%M` whole hours and minutes; the default `%dd %hh %mm`, after a
/// `|`: `{countdown:2027-02-17 00:00|还有 %d 天}`), never below zero; `{lunar}`, the day of
/// the Chinese lunar calendar (腊月初八), and `{lunar:FORMAT}` with `%M` the month, `%D` the
/// day, `%Y` the year's stem and branch (丙午), `%A` its animal (马) and `%T` the solar term
/// of the day (empty on other days), for 1901 to 2099 (``ChineseCalendar``); `{icon:NAME}`,
/// an icon of the renderer's set (``BitmapFonts/IconSet``) in the line. `{{` and `}}` are
/// literal braces.
public struct TextTemplate: Sendable, Equatable {
  enum Part: Sendable, Equatable {
    case text(String)
    #if !hasFeature(Embedded)
      case time(format: String)
      /// Time until (`down`) or since a moment, in Unix time.
      case span(moment: Double, down: Bool, format: String)
      case lunar(format: String)
    #endif
  }

  let parts: [Part]
  /// The template as written.
  public let source: String

  /// Parses a template; text without placeholders is a template that never changes.
  public init(_ source: String) {
    self.source = source
    var parts: [Part] = []
    var text = ""
    func add(_ part: Part) {
      if !text.isEmpty { parts.append(.text(text)) }
      text = ""
      parts.append(part)
    }
    TextTemplate.walk(source) { piece in
      switch piece {
      case .text(let character), .brace(let character):
        text.append(character)
        return true
      case .placeholder(let name, let format, _):
        if name == "icon" && Icon.isValidName(format) {
          // An icon is one character of the text (BitmapFonts' IconText).
          text += IconText.character(format)
          return true
        }
        #if !hasFeature(Embedded)
          // The placeholders of the time (TextTemplate+LocalTime.swift); without an
          // operating system they read as plain text.
          guard let part = TextTemplate.timePart(name: name, format: format) else { return false }
          add(part)
          return true
        #else
          return false
        #endif
      }
    }
    if !text.isEmpty { parts.append(.text(text)) }
    self.parts = parts
  }

  /// A piece of a template's text as ``walk(_:_:)`` reads it.
  public enum Piece {
    /// A character of plain text.
    case text(Character)
    /// A brace written twice (`{{` or `}}`), which shows once.
    case brace(Character)
    /// `{NAME:FORMAT}` (or `{NAME}`), and the text of it as written.
    case placeholder(name: Substring, format: Substring, written: Substring)
  }

  /// Reads `source` by the templates' grammar, handing each piece to `visit` in order. A
  /// placeholder `visit` refuses (returns false) is read on as plain text from its `{`, as
  /// an unknown name is. Other layers that fill placeholders of their own (the service's
  /// `{mqtt:…}`) read messages with it, so every reader agrees on braces.
  public static func walk(_ source: String, _ visit: (Piece) -> Bool) {
    var index = source.startIndex
    while index < source.endIndex {
      let character = source[index]
      let next = source.index(after: index)
      if character == "{" || character == "}", next < source.endIndex, source[next] == character {
        _ = visit(.brace(character))
        index = source.index(after: next)
        continue
      }
      if character == "{", let close = source[next...].firstIndex(of: "}") {
        let body = source[next..<close]
        let (name, format) = body.firstIndex(of: ":").map { (body[..<$0], body[body.index(after: $0)...]) } ?? (body, body[body.endIndex...])
        if visit(.placeholder(name: name, format: format, written: source[index...close])) {
          index = source.index(after: close)
          continue
        }
      }
      _ = visit(.text(character))
      index = next
    }
  }

  /// `text` with its braces doubled, so that a template shows it as written.
  public static func escaped(_ text: String) -> String {
    guard text.contains("{") || text.contains("}") else { return text }
    var result = ""
    for character in text {
      result.append(character)
      if character == "{" || character == "}" { result.append(character) }
    }
    return result
  }

  /// The names of the icons the text shows, in order.
  public var iconNames: [String] {
    parts.flatMap { part -> [String] in
      guard case .text(let text) = part else { return [] }
      return IconText.names(in: text)
    }
  }

  /// Whether the text depends on the time.
  public var isDynamic: Bool {
    parts.contains { part in
      if case .text = part { return false }
      return true
    }
  }

  /// `format` with each `%c` replaced by `value(c)`, `%%` by `%`; codes `value` does not
  /// know stay as written.
  static func substitute(_ format: String, _ value: (Character) -> String?) -> String {
    var result = ""
    var iterator = format.makeIterator()
    while let character = iterator.next() {
      guard character == "%", let code = iterator.next() else {
        result.append(character)
        continue
      }
      result += code == "%" ? "%" : value(code) ?? "%\(code)"
    }
    return result
  }

  /// The text at Unix time `epochSeconds` (fractions are dropped).
  public func expand(at epochSeconds: Double) -> String {
    var result = ""
    for part in parts {
      switch part {
      case .text(let text): result += text
      #if !hasFeature(Embedded)
        default: result += TextTemplate.expand(part, at: epochSeconds)
      #endif
      }
    }
    return result
  }

  /// The next Unix time after `epochSeconds` at which the text may change.
  public func nextChange(after epochSeconds: Double) -> Double? {
    guard isDynamic else { return nil }
    #if !hasFeature(Embedded)
      let step = changesEverySecond ? 1.0 : 60.0
    #else
      let step = 60.0
    #endif
    return ((epochSeconds / step).rounded(.down) + 1) * step
  }
}

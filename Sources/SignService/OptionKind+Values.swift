import Drivers
import MQTT
import Marquee
import SimpleJSON

/// The kinds of value options take, each read the same way from text and from JSON.
extension OptionKind {
  /// The words of a choice: `a, b, c`.
  static func list(_ words: [String]) -> String { words.joined(separator: ", ") }
}

extension OptionKind where Value == Int {
  /// A whole number in `range`.
  static func integer(_ placeholder: String, in range: ClosedRange<Int>) -> OptionKind {
    OptionKind(
      placeholder: placeholder, argument: .number,
      json: { fields, key throws(JSONFieldError) in try fields.integer(key, in: range) },
      show: { String($0) }, encode: { .number(Double($0)) })
  }
}

extension OptionKind where Value == Double {
  /// A finite number in `range`.
  static func number(_ placeholder: String, in range: ClosedRange<Double>) -> OptionKind {
    OptionKind(
      placeholder: placeholder, argument: .number,
      json: { fields, key throws(JSONFieldError) in try fields.number(key, in: range) },
      show: formatted, encode: { .number($0) })
  }

  /// A finite number above 0 and at most `largest`.
  static func positive(_ placeholder: String, upTo largest: Double) -> OptionKind {
    OptionKind(
      placeholder: placeholder, argument: .number,
      json: { fields, key throws(JSONFieldError) in
        guard let value = try fields.number(key, in: 0...largest) else { return nil }
        guard value > 0 else { throw JSONFieldError(field: fields.name(key), reason: "must be greater than 0") }
        return value
      },
      show: formatted, encode: { .number($0) })
  }

  /// `2` for 2.0, `0.5` for 0.5.
  static func formatted(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}

extension OptionKind where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
  /// One of the cases, by its raw value; the placeholder lists them (`<left|right>`), so
  /// help shows the choices from the type itself.
  static func choice() -> OptionKind {
    let names = Value.allCases.map(\.rawValue)
    return OptionKind(
      placeholder: "<" + names.joined(separator: "|") + ">", argument: .string,
      json: { fields, key throws(JSONFieldError) in try fields.choice(key, names).flatMap(Value.init(rawValue:)) },
      show: { $0.rawValue }, encode: { .string($0.rawValue) })
  }
}

extension OptionKind where Value == String {
  /// Any text (a path).
  static func text(_ placeholder: String) -> OptionKind {
    OptionKind(
      placeholder: placeholder, text: { text, _ in text },
      json: { fields, key throws(JSONFieldError) in try fields.string(key) }, show: { $0 }, encode: { .string($0) })
  }

  /// One of `names`.
  static func word(_ placeholder: String, from names: [String]) -> OptionKind {
    OptionKind(
      placeholder: placeholder, argument: .string,
      json: { fields, key throws(JSONFieldError) in try fields.choice(key, names) }, show: { $0 }, encode: { .string($0) })
  }

  /// An LED colour: one of ``LEDColor/names`` or `#rrggbb`.
  static let color = OptionKind(
    placeholder: "<color>", argument: .string,
    json: { fields, key throws(JSONFieldError) in
      guard let text = try fields.string(key) else { return nil }
      guard LEDColor.isColor(text) else {
        throw JSONFieldError(field: fields.name(key), reason: "'\(text)' is not one of \(list(LEDColor.names)), or #rrggbb")
      }
      return text.lowercased()
    },
    show: { $0 }, encode: { .string($0) })

  /// Transition effects, `name[+name...]`, checked against the catalog.
  static let effects = OptionKind(
    placeholder: "<effect[+effect...]>", argument: .string,
    json: { fields, key throws(JSONFieldError) in
      guard let text = try fields.string(key) else { return nil }
      do {
        _ = try EffectCatalog.parse(text)
      } catch {
        throw JSONFieldError(field: fields.name(key), reason: "\(error)")
      }
      return text
    },
    show: { $0 }, encode: { .string($0) })
}

extension OptionKind where Value == [String] {
  /// Font names, first choice first, separated by commas.
  static let fonts = names("<name[,name...]>", what: "font name")

  /// Names separated by commas (at least one).
  static func names(_ placeholder: String, what: String = "name") -> OptionKind {
    OptionKind(
      placeholder: placeholder, argument: .string,
      json: { fields, key throws(JSONFieldError) in
        guard let text = try fields.string(key) else { return nil }
        let names = text.split(separator: ",").map(String.init).filter { !$0.isEmpty }
        guard !names.isEmpty else { throw JSONFieldError(field: fields.name(key), reason: "needs at least one \(what)") }
        return names
      },
      show: { $0.joined(separator: ",") }, encode: { .string($0.joined(separator: ",")) })
  }
}

extension OptionKind where Value == [String] {
  /// MQTT topic filters (`station/#`), separated by commas on the command line, a list (or
  /// one string) in a config file; each checked as MQTT 3.1.1 allows a filter.
  static let topicFilters = OptionKind(
    placeholder: "<filter[,filter...]>", argument: .string,
    json: { fields, key throws(JSONFieldError) in
      guard let value = fields.optional(key) else { return nil }
      let filters: [String]
      if case .string = value { filters = (try fields.string(key) ?? "").split(separator: ",").map(String.init) } else { filters = try fields.strings(key) ?? [] }
      guard !filters.isEmpty else { throw JSONFieldError(field: fields.name(key), reason: "needs at least one topic filter") }
      for (index, filter) in filters.enumerated() {
        if let problem = MQTTTopic.problem(filter, filter: true) { throw JSONFieldError(field: fields.name(key) + "[\(index)]", reason: problem) }
      }
      return filters
    },
    show: { $0.joined(separator: ",") }, encode: { .array($0.map { .string($0) }) })
}

extension OptionKind where Value == UInt64 {
  /// A seed: a whole number JSON can hold exactly (up to 2^53 - 1), the same everywhere.
  static let seed = OptionKind(
    placeholder: "<number>", argument: .number,
    json: { fields, key throws(JSONFieldError) in try fields.integer(key, in: 0...largestSeed).map(UInt64.init) },
    show: { String($0) }, encode: { .number(Double($0)) })

  /// The largest seed: every whole number up to it is exact in JSON.
  static let largestSeed = (1 << 53) - 1
}

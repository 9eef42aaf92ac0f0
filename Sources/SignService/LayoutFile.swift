import Marquee
import SimpleJSON

/// A zone as the sign is built with it: where it is and its options (a layout file's zone,
/// a config file's, or the one zone, `main`).
public struct ZoneSpec: Sendable {
  public var place: ZonePlace
  public var options: ZoneOptions
  /// The zone's name.
  public var name: String { place.name }

  public init(place: ZonePlace, options: ZoneOptions) {
    self.place = place
    self.options = options
  }
}

/// Reads layout files: `{"zones": [{"name": …, "x": …, "y": …, "width": …, "height": …,
/// "messages": […], …}]}`, where each zone also takes the options the command line has.
package enum LayoutFile {
  /// A zone's content keys: its messages and the options zones take (feed lines take these
  /// too).
  package static let contentKeys = ["messages"] + Option.zoneOptions.map(\.key)
  /// The keys only a layout file takes: where a zone is and what it is called.
  static let placementKeys = ["name", "x", "y", "width", "height"]
  /// Every key of a layout zone.
  static let zoneKeys = placementKeys + contentKeys

  /// Parses a layout; every zone starts from `base` (the command line's options).
  ///
  /// - Throws: ``UsageError`` naming the file, the line and column and the field.
  static func parse(_ text: String, path: String, base: RunOptions) throws -> [ZoneSpec] {
    try OptionFile.read(text, path: path) { fields throws(JSONFieldError) in
      try fields.rejectUnknownKeys(["zones"])
      return try zones(fields.optional("zones"), base: base)
    }
  }

  /// The zones of a `zones` array (a layout file's or a config file's).
  static func zones(_ value: JSONValue?, base: RunOptions) throws(JSONFieldError) -> [ZoneSpec] {
    guard case .array(let zones)? = value, !zones.isEmpty else {
      throw JSONFieldError(field: "zones", reason: "expected a non-empty array of zones")
    }
    var specs: [ZoneSpec] = []
    for (index, value) in zones.enumerated() {
      let zone = try JSONFields(value, path: "zones[\(index)]")
      try zone.rejectUnknownKeys(zoneKeys)
      var options = base.zone
      options.messages = try zone.strings("messages") ?? []
      try apply(zone, to: &options)
      try checkCycleOnly(zone, options)
      let place = ZonePlace(
        name: try zone.string("name") ?? "zone\(index + 1)",
        x: try zone.requiredInteger("x", in: 0...RunOptions.maximumWidth),
        y: try zone.requiredInteger("y", in: 0...RunOptions.maximumHeight),
        width: try zone.requiredInteger("width", in: 1...RunOptions.maximumWidth),
        height: try zone.requiredInteger("height", in: 1...RunOptions.maximumHeight))
      specs.append(ZoneSpec(place: place, options: options))
    }
    return specs
  }

  /// Applies a zone's option fields (the options that zones take, by their JSON keys).
  static func apply(_ zone: JSONFields, to options: inout ZoneOptions) throws(JSONFieldError) {
    // The zone options' paths all lie under `zone`: the sign's own options stay as they are.
    var carrier = RunOptions()
    carrier.zone = options
    for option in Option.zoneOptions { try option.applyJSON(zone, option.key, &carrier) }
    options = carrier.zone
  }

  /// Refuses a cycle-mode option a document gives for a zone that does not cycle, as the
  /// command line refuses `--dwell` without `--mode cycle`: it would be ignored.
  static func checkCycleOnly(_ zone: JSONFields, _ options: ZoneOptions) throws(JSONFieldError) {
    guard !options.mode.takesTurns else { return }
    for option in Option.zoneOptions where option.needs == .cycleMode && zone.optional(option.key) != nil {
      throw JSONFieldError(field: zone.name(option.key), reason: "applies in cycle mode only: add \"mode\": \"cycle\"")
    }
  }
}

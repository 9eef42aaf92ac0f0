import Marquee
import SimpleJSON

/// A zone of a layout file: its rectangle and its options.
struct ZoneSpec {
  var name: String
  var x: Int, y: Int, width: Int, height: Int
  var options: RunOptions
}

/// Reads layout files: `{"zones": [{"name": …, "x": …, "y": …, "width": …, "height": …,
/// "messages": […], …}]}`, where each zone also takes the options the command line has.
enum LayoutFile {
  /// A zone's content keys: its messages and the command line's options (feed lines take
  /// these too).
  static let contentKeys = [
    "messages", "mode", "in", "out", "dwell", "duration", "speed", "align", "valign", "font",
    "invert", "flip", "gap", "direction", "ease", "letterSpacing", "seed",
  ]
  /// The keys only a layout file takes: where a zone is and what it is called.
  static let placementKeys = ["name", "x", "y", "width", "height"]
  /// Every key of a layout zone.
  static let zoneKeys = placementKeys + contentKeys

  /// Parses a layout; every zone starts from `base` (the command line's options).
  static func parse(_ text: String, path: String, base: RunOptions) throws -> [ZoneSpec] {
    let document: JSONValue
    do {
      document = try JSONParser.parse(text)
    } catch {
      throw RuntimeError("\(path): \(error)")
    }
    do {
      let fields = try JSONFields(document)
      try fields.rejectUnknownKeys(["zones"])
      guard case .array(let zones)? = fields.optional("zones"), !zones.isEmpty else {
        throw JSONFieldError(field: "zones", reason: "expected a non-empty array of zones")
      }
      var specs: [ZoneSpec] = []
      for (index, value) in zones.enumerated() {
        let zone = try JSONFields(value, path: "zones[\(index)]")
        try zone.rejectUnknownKeys(zoneKeys)
        var options = base
        options.messages = try zone.strings("messages") ?? []
        try apply(zone, to: &options)
        specs.append(ZoneSpec(
          name: try zone.string("name") ?? "zone\(index + 1)",
          x: try zone.requiredInteger("x", in: 0...RunOptions.maximumWidth),
          y: try zone.requiredInteger("y", in: 0...RunOptions.maximumHeight),
          width: try zone.requiredInteger("width", in: 1...RunOptions.maximumWidth),
          height: try zone.requiredInteger("height", in: 1...RunOptions.maximumHeight),
          options: options))
      }
      return specs
    } catch let error as JSONFieldError {
      throw RuntimeError("\(path): \(error)")
    }
  }

  /// Applies a zone's option fields (the command line's options, by their JSON names).
  static func apply(_ zone: JSONFields, to options: inout RunOptions) throws {
    if let mode = try zone.choice("mode", RunOptions.Mode.allCases.map(\.rawValue)) {
      options.mode = RunOptions.Mode(rawValue: mode)!
    }
    for key in ["in", "out"] {
      guard let list = try zone.string(key) else { continue }
      do {
        _ = try EffectCatalog.parse(list)
      } catch {
        throw JSONFieldError(field: zone.name(key), reason: "\(error)")
      }
      if key == "in" { options.entry = list } else { options.exit = list }
    }
    options.dwell = try zone.number("dwell", in: 0...RunOptions.maximumSeconds) ?? options.dwell
    options.duration = try zone.number("duration", in: 0...RunOptions.maximumSeconds) ?? options.duration
    options.marquee.speed = try zone.number("speed", in: 0...RunOptions.maximumSpeed) ?? options.marquee.speed
    options.marquee.gap = try zone.integer("gap", in: 0...RunOptions.maximumWidth) ?? options.marquee.gap
    options.letterSpacing = try zone.integer("letterSpacing", in: 0...64) ?? options.letterSpacing
    if let align = try zone.choice("align", HorizontalAlignment.allCases.map(\.rawValue)) {
      options.marquee.alignment = HorizontalAlignment(rawValue: align)!
    }
    if let valign = try zone.choice("valign", VerticalAlignment.allCases.map(\.rawValue)) {
      options.marquee.verticalAlignment = VerticalAlignment(rawValue: valign)!
    }
    if let direction = try zone.choice("direction", ScrollDirection.allCases.map(\.rawValue)) {
      options.marquee.direction = ScrollDirection(rawValue: direction)!
    }
    if let ease = try zone.choice("ease", Easing.allCases.map(\.rawValue)) { options.easing = Easing(rawValue: ease)! }
    if let font = try zone.string("font") { options.fonts = font.split(separator: ",").map(String.init) }
    if let invert = try zone.bool("invert") { options.marquee.presentation.inverted = invert }
    if let flip = try zone.choice("flip", ["", "h", "v", "hv", "vh"]) {
      options.marquee.presentation.flippedHorizontally = flip.contains("h")
      options.marquee.presentation.flippedVertically = flip.contains("v")
    }
    if let seed = try zone.integer("seed", in: 0...Int(Int32.max)) { options.seed = UInt64(seed) }
  }
}

/// Why a content document or a reload changes nothing, as cases an embedder can match.
///
/// Each names the field it is about (`zones[1].zone`), so the HTTP API answers
/// `400 zones[1].zone: …` and a feed line is logged as `field 'zone': …`.
public enum ContentError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A document names a zone the sign does not have; `zones` are the names it has.
  case noSuchZone(field: String, name: String, zones: [String])
  /// An update tries to rename, move or resize a zone (`key` is one of the layout's
  /// placement keys).
  case placementInUpdate(field: String, key: String)
  /// An update tries to change a zone's colour, which is set when the sign starts.
  case colorInUpdate(field: String)
  /// The content cannot be shown in its zone (a font taller than the zone, text too long
  /// to lay out).
  case doesNotFit(field: String, zone: String, width: Int, height: Int, reason: String)
  /// A reloaded config describes other zones than the sign has.
  case zonesChanged(from: [String], to: [String])

  /// The field the error is about, if it is about one.
  public var field: String? {
    switch self {
    case .noSuchZone(let field, _, _), .placementInUpdate(let field, _), .colorInUpdate(let field),
      .doesNotFit(let field, _, _, _, _):
      field
    case .zonesChanged: nil
    }
  }

  /// What is wrong, without the field.
  public var reason: String {
    switch self {
    case .noSuchZone(_, let name, let zones): "no zone named '\(name)' (zones: \(zones.joined(separator: ", ")))"
    case .placementInUpdate(_, let key): "an update cannot rename, move or resize a zone; '\(key)' belongs in the layout file"
    case .colorInUpdate:
      "a zone's colour is set when the sign starts (in the layout or config file); an update cannot change it"
    case .doesNotFit(_, let zone, let width, let height, let reason): "\(reason) (zone '\(zone)' is \(width)x\(height))"
    case .zonesChanged(let old, let new):
      "the zones changed (\(new.joined(separator: ", ")) for \(old.joined(separator: ", "))); restart marquee to use a new layout"
    }
  }

  public var description: String { field.map { "field '\($0)': \(reason)" } ?? reason }
}

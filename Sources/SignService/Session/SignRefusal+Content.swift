/// The refusals of content documents and reloads, each naming the field it is about
/// (`zones[1].zone`), so the HTTP API answers `400 zones[1].zone: …` and MQTT logs the same.
extension SignRefusal {
  /// A document names a zone the sign does not have; `zones` are the names it has.
  public static func noSuchZone(field: String, name: String, zones: [String]) -> SignRefusal {
    SignRefusal(.invalid, field: field, "no zone named '\(name)' (zones: \(zones.joined(separator: ", ")))")
  }

  /// An update tries to rename, move or resize a zone (`key` is one of the layout's
  /// placement keys).
  public static func placementInUpdate(field: String, key: String) -> SignRefusal {
    SignRefusal(.invalid, field: field, "an update cannot rename, move or resize a zone; '\(key)' belongs in the layout file")
  }

  /// An update tries to change a zone's colour, which is set when the sign starts.
  public static func colorInUpdate(field: String) -> SignRefusal {
    SignRefusal(.invalid, field: field, "a zone's colour is set when the sign starts (in the layout or config file); an update cannot change it")
  }

  /// The content cannot be shown in its zone (a font taller than the zone, text too long to
  /// lay out).
  public static func doesNotFit(field: String, zone: String, width: Int, height: Int, reason: String) -> SignRefusal {
    SignRefusal(.invalid, field: field, "\(reason) (zone '\(zone)' is \(width)x\(height))")
  }

  /// A reloaded config describes other zones than the sign has.
  public static func zonesChanged(from old: [String], to new: [String]) -> SignRefusal {
    SignRefusal(.invalid, field: nil,
                "the zones changed (\(new.joined(separator: ", ")) for \(old.joined(separator: ", "))); restart marquee to use a new layout")
  }
}

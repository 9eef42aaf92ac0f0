/// Which colour of LED each of a panel's colour inputs lights, under hzeller's
/// `--led-rgb-sequence` names: `BGR` is a panel whose R input lights the blue LEDs, G the
/// green and B the red. Most panels are `RGB`; some batches come with two swapped.
public enum HUB75ColorOrder: String, Sendable, CaseIterable {
  case rgb = "RGB", rbg = "RBG", grb = "GRB", gbr = "GBR", brg = "BRG", bgr = "BGR"

  /// For the R, G and B inputs in turn, the colour it lights: 0 red, 1 green, 2 blue.
  public var channels: [Int] { rawValue.map { "RGB".firstIndex(of: $0)!.utf16Offset(in: "RGB") } }

  /// The order whose R, G and B inputs light the colours `seen` names (`r`, `g`, `b`, or
  /// their words), or `nil` when they are not the three colours once each.
  public init?(seen: [String]) {
    let letters = seen.map { $0.lowercased() }.map { word -> Character? in
      switch word {
      case "r", "red", "红": "R"
      case "g", "green", "绿": "G"
      case "b", "blue", "蓝": "B"
      default: nil
      }
    }
    guard letters.count == 3, letters.allSatisfy({ $0 != nil }) else { return nil }
    self.init(rawValue: String(letters.map { $0! }))
  }
}

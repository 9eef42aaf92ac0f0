/// The colours a sign's LEDs are lit in, by name: one table for RGB boards, the terminal's
/// simulated sign and GIF recordings, so "red" is one colour everywhere. `--color` and
/// `"color"` take a name or `#rrggbb`.
public struct LEDColor: Sendable, Equatable {
  public var name: String
  /// A lit LED's colour.
  public var rgb: RGBColor
  /// The 256-colour terminal palette's steps of it, from dim to bright.
  public var terminal: [Int]

  public static let red = LEDColor(name: "red", rgb: RGBColor(red: 255, green: 40, blue: 20), terminal: [52, 88, 124, 160, 196])
  public static let green = LEDColor(name: "green", rgb: RGBColor(red: 40, green: 255, blue: 60), terminal: [22, 28, 34, 40, 46])
  public static let amber = LEDColor(name: "amber", rgb: RGBColor(red: 255, green: 170, blue: 0), terminal: [94, 130, 166, 208, 214])
  public static let blue = LEDColor(name: "blue", rgb: RGBColor(red: 60, green: 120, blue: 255), terminal: [17, 18, 19, 20, 21])
  public static let white = LEDColor(name: "white", rgb: RGBColor(red: 240, green: 240, blue: 240), terminal: [239, 243, 247, 251, 255])

  /// Every named colour, in the order help lists them.
  public static let all = [red, green, amber, blue, white]
  /// Their names.
  public static let names = all.map(\.name)

  /// The colour `text` names (a name, or `#rrggbb` with the cube's nearest terminal steps),
  /// or nil.
  public init?(_ text: String) {
    if let named = LEDColor.all.first(where: { $0.name == text }) {
      self = named
      return
    }
    guard text.hasPrefix("#"), let rgb = RGBColor(hex: text) else { return nil }
    self.init(name: text.lowercased(), rgb: rgb, terminal: LEDColor.cubeSteps(rgb))
  }

  init(name: String, rgb: RGBColor, terminal: [Int]) {
    self.name = name
    self.rgb = rgb
    self.terminal = terminal
  }

  /// Whether `text` is a colour: a name or `#rrggbb`.
  public static func isColor(_ text: String) -> Bool { LEDColor(text) != nil }

  /// The nearest steps of the 256-colour cube to `color` at five brightnesses.
  static func cubeSteps(_ color: RGBColor) -> [Int] {
    let cube = [0, 95, 135, 175, 215, 255]
    func step(_ value: Double) -> Int {
      (0..<6).min { abs(Double(cube[$0]) - value) < abs(Double(cube[$1]) - value) }!
    }
    return [0.35, 0.5, 0.65, 0.8, 1.0].map { level in
      16 + 36 * step(Double(color.red) * level) + 6 * step(Double(color.green) * level) + step(Double(color.blue) * level)
    }
  }
}

extension RGBColor {
  /// The colour as the GIF recorder takes it.
  public var tuple: (UInt8, UInt8, UInt8) { (red, green, blue) }
}

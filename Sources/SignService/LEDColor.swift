import Drivers

/// LED colours: the names `--color` takes, or `#rrggbb`; used by RGB boards, the simulator
/// and GIF recordings.
package enum LEDColor {
  /// RGB of a lit LED, and the 256-color terminal palette's reds (or other hues) from dim to bright.
  static let named: [String: (rgb: (UInt8, UInt8, UInt8), terminal: [Int])] = [
    "red": ((255, 40, 20), TerminalDisplay.reds),
    "green": ((40, 255, 60), [22, 28, 34, 40, 46]),
    "amber": ((255, 170, 0), [94, 130, 166, 208, 214]),
    "blue": ((60, 120, 255), [17, 18, 19, 20, 21]),
    "white": ((240, 240, 240), [239, 243, 247, 251, 255]),
  ]
  static let names = ["red", "green", "amber", "blue", "white"]

  /// Whether `text` is a colour: a name or `#rrggbb`.
  static func isColor(_ text: String) -> Bool {
    named[text] != nil || (text.hasPrefix("#") && RGBColor(hex: text) != nil)
  }

  /// The RGB of a colour `isColor` accepted.
  package static func rgb(_ text: String) -> RGBColor {
    if let (red, green, blue) = named[text]?.rgb { return RGBColor(red: red, green: green, blue: blue) }
    return RGBColor(hex: text) ?? RGBColor(red: 255, green: 40, blue: 20)
  }

  /// The terminal palette of a colour, from dim to bright: the named ones' own, or the
  /// nearest steps of the 256-colour cube.
  package static func terminalPalette(_ text: String) -> [Int] {
    if let palette = named[text]?.terminal { return palette }
    let color = rgb(text)
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
  package var tuple: (UInt8, UInt8, UInt8) { (red, green, blue) }
}

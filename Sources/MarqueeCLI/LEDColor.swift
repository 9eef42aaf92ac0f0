import Drivers

/// LED colors for the simulator and GIF recordings.
enum LEDColor {
  /// RGB of a lit LED, and the 256-color terminal palette's reds (or other hues) from dim to bright.
  static let named: [String: (rgb: (UInt8, UInt8, UInt8), terminal: [Int])] = [
    "red": ((255, 40, 20), TerminalDisplay.reds),
    "green": ((40, 255, 60), [22, 28, 34, 40, 46]),
    "amber": ((255, 170, 0), [94, 130, 166, 208, 214]),
    "blue": ((60, 120, 255), [17, 18, 19, 20, 21]),
    "white": ((240, 240, 240), [239, 243, 247, 251, 255]),
  ]
  static let names = ["red", "green", "amber", "blue", "white"]
}

/// Which GPIO (BCM numbering) carries each HUB75 signal: the named wirings of
/// hzeller's rpi-rgb-led-matrix (`regular`, `adafruit-hat`, `adafruit-hat-pwm`) or a map
/// given in the board file.
public struct HUB75PinMap: Sendable, Equatable {
  /// The colour lines of one chain: red, green, blue of the upper half (R1 G1 B1) and of the
  /// lower half (R2 G2 B2).
  public struct Chain: Sendable, Equatable {
    public var r1: Int, g1: Int, b1: Int, r2: Int, g2: Int, b2: Int

    public init(r1: Int, g1: Int, b1: Int, r2: Int, g2: Int, b2: Int) {
      (self.r1, self.g1, self.b1, self.r2, self.g2, self.b2) = (r1, g1, b1, r2, g2, b2)
    }

    /// The six lines, R1 G1 B1 R2 G2 B2.
    public var lines: [Int] { [r1, g1, b1, r2, g2, b2] }
  }

  /// The map's name (`regular`), or `custom` for a map from the board file.
  public var name: String
  /// Output enable (active low), clock, latch (STB).
  public var oe: Int, clk: Int, lat: Int
  /// The row address lines A, B, C, D, E (-1 for a line a board file's own map leaves out).
  public var address: [Int]
  /// The chains this wiring has colour lines for, the first on the connector the panels
  /// plug into; parallel chains use the next ones.
  public var chains: [Chain]
  /// Lines wired to the board that must stay inputs: the Adafruit HAT's GPIO 4 and 18, joined
  /// by the "PWM mod" wire, of which only one is driven.
  public var inputs: [Int]

  public init(name: String, oe: Int, clk: Int, lat: Int, address: [Int], chains: [Chain], inputs: [Int] = []) {
    self.name = name
    (self.oe, self.clk, self.lat, self.address, self.chains, self.inputs) = (oe, clk, lat, address, chains, inputs)
  }

  /// hzeller's regular wiring (the passive adapter boards made for it): three chains on a
  /// 40-pin header; the first chain's lines are SPI0's pins, the third's the UART's and I2C's.
  public static let regular = HUB75PinMap(
    name: "regular", oe: 18, clk: 17, lat: 4, address: [22, 23, 24, 25, 15],
    chains: [
      Chain(r1: 11, g1: 27, b1: 7, r2: 8, g2: 9, b2: 10),
      Chain(r1: 12, g1: 5, b1: 6, r2: 19, g2: 13, b2: 20),
      Chain(r1: 14, g1: 2, b1: 3, r2: 26, g2: 16, b2: 21),
    ])

  /// The Adafruit RGB Matrix HAT and Bonnet, OE on GPIO 4 (GPIO 18 stays an input, in case
  /// the PWM mod wire joins them).
  public static let adafruitHat = HUB75PinMap(
    name: "adafruit-hat", oe: 4, clk: 17, lat: 21, address: [22, 26, 27, 20, 24],
    chains: [Chain(r1: 5, g1: 13, b1: 6, r2: 12, g2: 16, b2: 23)], inputs: [18])

  /// The Adafruit HAT with the PWM mod (a wire from GPIO 4 to GPIO 18): OE on GPIO 18, and
  /// GPIO 4 stays an input.
  public static let adafruitHatPWM = HUB75PinMap(
    name: "adafruit-hat-pwm", oe: 18, clk: 17, lat: 21, address: [22, 26, 27, 20, 24],
    chains: [Chain(r1: 5, g1: 13, b1: 6, r2: 12, g2: 16, b2: 23)], inputs: [4])

  /// The address lines as GPIO masks, 0 for a line left out.
  var addressMasks: [UInt32] { address.map { $0 >= 0 ? 1 << UInt32($0) : 0 } }

  /// The named maps.
  public static let named = [regular, adafruitHat, adafruitHatPWM]

  /// The GPIO numbers a map may use: the 40-pin header's 0 to 27 (the Pi 5's RIO block has
  /// these too).
  public static let gpioRange = 0...27

  /// The name of each line in the trace's `pins` line and in a board file's own map, with its
  /// GPIO: R1 … B2 of the first chain, A … E, CLK, LAT, OE, then each further chain's lines
  /// with `_1`, `_2`.
  public func namedLines(parallel: Int) -> [(name: String, gpio: Int)] {
    let colours = ["r1", "g1", "b1", "r2", "g2", "b2"]
    var lines = zip(colours, chains[0].lines).map { ($0, $1) }
    lines += zip(["a", "b", "c", "d", "e"], address).filter { $0.1 >= 0 }.map { ($0, $1) }
    lines += [("clk", clk), ("lat", lat), ("oe", oe)]
    for chain in 1..<max(1, parallel) {
      lines += zip(colours.map { "\($0)_\(chain)" }, chains[chain].lines).map { ($0, $1) }
    }
    return lines
  }
}

import Platform

/// The Raspberry Pi a program runs on, as the kernel's device tree reports it: the model,
/// the system chip, and where its peripherals are. Never guessed: a machine whose tree names
/// no Pi chip is not one.
public struct RaspberryPi: Sendable, Equatable {
  /// The system chips, by the device tree's `compatible` names.
  public enum Chip: String, Sendable, CaseIterable {
    /// Pi 1, Zero.
    case bcm2835
    /// Pi 2.
    case bcm2836
    /// Pi 3, Zero 2.
    case bcm2837
    /// Pi 4, 400, CM4.
    case bcm2711
    /// Pi 5, 500, CM5: the GPIO lines are on the RP1 south bridge.
    case bcm2712
  }

  /// The model, as `/proc/device-tree/model` says (`Raspberry Pi 4 Model B Rev 1.4`).
  public var model: String
  /// The system chip.
  public var chip: Chip
  /// The peripherals' physical base address (`soc/ranges`), when the tree gives it.
  public var peripheralBase: UInt64?

  public init(model: String, chip: Chip, peripheralBase: UInt64?) {
    (self.model, self.chip, self.peripheralBase) = (model, chip, peripheralBase)
  }

  /// Whether the GPIO lines are RP1's (Pi 5) rather than the BCM chip's.
  public var hasRP1: Bool { chip == .bcm2712 }

  /// The device node that maps the GPIO registers without root: `/dev/gpiomem`, or on a
  /// Pi 5 `/dev/gpiomem0` (RP1's bank 0, with its RIO and pad registers).
  public var gpioDevice: String { hasRP1 ? "/dev/gpiomem0" : "/dev/gpiomem" }

  /// Where the kernel shows its device tree, in the order they are tried:
  /// `/sys/firmware/devicetree/base` first, which a service sees under systemd's
  /// `ProcSubset=pid` (that hides `/proc/device-tree`, a link to it), then `/proc/device-tree`.
  public static let deviceTreeRoots = ["/sys/firmware/devicetree/base", "/proc/device-tree"]

  /// Reads the machine from its device tree (`root`, or the first of ``deviceTreeRoots``
  /// that has a `compatible` entry).
  ///
  /// - Throws: ``NotARaspberryPi`` when the tree is missing or names no Pi chip.
  public static func detect(deviceTree root: String? = nil) throws(NotARaspberryPi) -> RaspberryPi {
    let readable = { (root: String) in (try? FileBytes.read(root + "/compatible", limit: 4096)) != nil }
    let root = root ?? deviceTreeRoots.first(where: readable) ?? deviceTreeRoots[deviceTreeRoots.count - 1]
    let text = { (name: String) -> [UInt8]? in try? FileBytes.read(root + "/" + name, limit: 4096) }
    let model = text("model").map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    guard let compatible = text("compatible") else {
      throw NotARaspberryPi(model: model, reason: "\(root)/compatible cannot be read (no device tree)")
    }
    let names = compatible.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    guard let chip = Chip.allCases.first(where: { names.contains("brcm,\($0.rawValue)") }) else {
      throw NotARaspberryPi(model: model, reason: "its device tree names \(names.joined(separator: ", "))")
    }
    return RaspberryPi(model: model ?? "Raspberry Pi (\(chip.rawValue))", chip: chip, peripheralBase: text("soc/ranges").flatMap(peripheralBase))
  }

  /// The parent address of the first range in `soc/ranges` (big-endian cells: the child
  /// address, the parent's in one or two cells, the size): the second cell, or the third
  /// when the second is 0 (a two-cell parent address, as on the Pi 4).
  static func peripheralBase(_ ranges: [UInt8]) -> UInt64? {
    func cell(_ index: Int) -> UInt64? {
      guard ranges.count >= 4 * (index + 1) else { return nil }
      return ranges[(4 * index)..<(4 * index + 4)].reduce(0) { $0 << 8 | UInt64($1) }
    }
    guard let second = cell(1) else { return nil }
    return second != 0 ? second : cell(2)
  }
}

/// The machine is not a Raspberry Pi whose GPIO registers marquee knows.
public struct NotARaspberryPi: Error, Sendable, Equatable, CustomStringConvertible {
  /// The device tree's model, if it has one.
  public var model: String?
  /// What was found instead.
  public var reason: String

  public var description: String {
    "this machine is not a Raspberry Pi 1 to 5" + (model.map { " ('\($0)')" } ?? "") + ": \(reason). "
      + "HUB75 panels are driven through a Pi's GPIO registers; on other boards use a family with a kernel driver (MAX7219, HT16K33, WS2812 over SPI)."
  }
}

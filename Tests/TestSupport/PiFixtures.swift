import Foundation

/// A Raspberry Pi's kernel interfaces as files, for the HUB75 tests: a device tree folder and
/// a file that stands for the GPIO register block (the fake kernel opens it for
/// `/dev/gpiomem`, or the tests map it themselves).
public enum PiFixtures {
  /// A device tree of `compatible` names, a model and `soc/ranges` cells, in a new folder.
  public static func deviceTree(_ compatible: [String], model: String, ranges: [UInt32]) throws -> String {
    let folder = NSTemporaryDirectory() + "marquee-dt-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder + "/soc", withIntermediateDirectories: true)
    try Data(compatible.flatMap { Array($0.utf8) + [0] }).write(to: URL(fileURLWithPath: folder + "/compatible"))
    try Data(Array(model.utf8) + [0]).write(to: URL(fileURLWithPath: folder + "/model"))
    try Data(ranges.flatMap { [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] })
      .write(to: URL(fileURLWithPath: folder + "/soc/ranges"))
    return folder
  }

  /// A file that stands for the register block: zeros, or the BCM function selects given.
  public static func registerFile(length: Int, functions: [Int: UInt32] = [:]) throws -> String {
    let path = NSTemporaryDirectory() + "marquee-gpiomem-\(UInt32.random(in: 0...UInt32.max))"
    var words = [UInt32](repeating: 0, count: length / 4)
    for (pin, function) in functions { words[pin / 10] |= function << UInt32(3 * (pin % 10)) }
    try words.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
    return path
  }

  public static func words(_ path: String) throws -> [UInt32] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
  }

  /// The Pi 4's device tree.
  public static func pi4Tree() throws -> String {
    try deviceTree(["raspberrypi,4-model-b", "brcm,bcm2711"], model: "Raspberry Pi 4 Model B Rev 1.4", ranges: [0x7e00_0000, 0, 0xfe00_0000, 0x0180_0000])
  }

  /// A file that stands for RP1's register block as it comes up: every pin's function NULL
  /// (0x1F).
  public static func rp1RegisterFile() throws -> String {
    let path = try registerFile(length: 0x30000)
    let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    for pin in 0..<28 {
      try file.seek(toOffset: UInt64(8 * pin + 4))
      file.write(Data([0x1F, 0, 0, 0]))
    }
    try file.close()
    return path
  }

  /// The Pi 5's device tree.
  public static func pi5Tree() throws -> String {
    try deviceTree(["raspberrypi,5-model-b", "brcm,bcm2712"], model: "Raspberry Pi 5 Model B Rev 1.0", ranges: [])
  }

  /// A device tree and a register file the fake kernel serves for them.
  public struct FakePi {
    public let tree: String, registers: String

    public init(tree: String, registers: String) {
      (self.tree, self.registers) = (tree, registers)
    }

    /// Removes both (a test's `defer`).
    public func remove() {
      try? FileManager.default.removeItem(atPath: tree)
      try? FileManager.default.removeItem(atPath: registers)
    }
  }
}

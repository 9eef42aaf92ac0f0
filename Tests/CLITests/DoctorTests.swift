import Foundation
import Platform
import SimpleJSON
import TestSupport
import Testing

@testable import Drivers

/// `marquee doctor` on fake machines: the kernel's files of a Pi 4 and a Pi 5 written under a
/// folder (`MARQUEE_SYSTEM_ROOT`), one finding at a time, as the binary reports them: the
/// words, the fix, the exit code and the JSON.
@Suite(.offThePool) struct DoctorTests {
  /// A machine's files under a new folder: a Pi tuned for a panel, each setting changeable.
  final class Machine {
    let root = NSTemporaryDirectory() + "marquee-doctor-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    init(pi5: Bool = false) throws {
      let tree = pi5
        ? try PiFixtures.deviceTree(["raspberrypi,5-model-b", "brcm,bcm2712"], model: "Raspberry Pi 5 Model B Rev 1.0", ranges: [])
        : try PiFixtures.pi4Tree()
      try FileManager.default.createDirectory(atPath: root + "/proc", withIntermediateDirectories: true)
      try FileManager.default.moveItem(atPath: tree, toPath: root + "/proc/device-tree")
      // The GPIO block as it comes up, which the refresh maps from under the root.
      let registers = pi5 ? try PiFixtures.rp1RegisterFile() : try PiFixtures.registerFile(length: 4096)
      try FileManager.default.createDirectory(atPath: root + "/dev", withIntermediateDirectories: true)
      try FileManager.default.moveItem(atPath: registers, toPath: root + "/dev/" + (pi5 ? "gpiomem0" : "gpiomem"))
      try write("/proc/cmdline", "console=tty1 root=/dev/mmcblk0p2 isolcpus=3 nohz_full=3 rcu_nocbs=3\n")
      try write("/proc/modules", "snd_soc_core 1 0 - Live 0x0\n")
      try write("/proc/sys/kernel/sched_rt_runtime_us", "-1\n")
      try write("/proc/1/comm", "systemd\n")
      try write("/proc/412/comm", "marquee\n")
      try write("/sys/devices/system/cpu/present", "0-3\n")
      try write("/sys/devices/system/cpu/isolated", "3\n")
      try write("/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "performance\n")
      try write("/sys/devices/platform/soc/soc:firmware/get_throttled", "0x0\n")
      try write("/boot/firmware/config.txt", "dtparam=audio=off\n# dtparam=spi=on\n")
    }

    func write(_ path: String, _ text: String) throws {
      try FileManager.default.createDirectory(atPath: (root + path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try text.write(toFile: root + path, atomically: true, encoding: .utf8)
    }

    func doctor(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> BinaryResult {
      try BinaryRunner.run(["doctor"] + arguments, environment: ["MARQUEE_SYSTEM_ROOT": root].merging(environment) { $1 })
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
  }

  @Test(arguments: [false, true])
  func aTunedPiHasNothingInTheWay(pi5: Bool) throws {
    let machine = try Machine(pi5: pi5)
    // One bitplane: lit 2 ms a refresh, so even a busy machine stays well above the floor.
    try machine.write("/panel.json", #"{"driver": "hub75", "panel": {"rows": 32, "columns": 64}, "colorDepth": 1}"#)
    let result = try machine.doctor(["--board", machine.root + "/panel.json", "--seconds", "1"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    // The refresh ran, dark, on the GPIO block under the root, and gave the pins back.
    #expect(result.stdout.contains(" refresh: ") && result.stdout.contains("Hz over 1 s (floor 100 Hz)"), "\(result.stdout)")
    #expect(result.stdout.contains(pi5 ? "ok      machine: Raspberry Pi 5 Model B Rev 1.0 (bcm2712), GPIO through /dev/gpiomem0"
                                       : "ok      machine: Raspberry Pi 4 Model B Rev 1.4 (bcm2711), GPIO through /dev/gpiomem"), "\(result.stdout)")
    #expect(result.stdout.hasSuffix("Nothing stands in the way.\n"))
    let json = try JSONParser.parse(try machine.doctor(["--json"]).stdout)
    #expect(json["ok"] == .bool(true))
  }

  /// Each finding alone: the file that makes it, the words it starts with, and its fix.
  @Test(arguments: [
    ("/proc/cmdline", "console=tty1\n", "PROBLEM isolated core: core 3 is isolated, without nohz_full and rcu_nocbs",
     "add isolcpus=3 nohz_full=3 rcu_nocbs=3 to the one line of /boot/firmware/cmdline.txt"),
    ("/sys/devices/system/cpu/isolated", "\n", "PROBLEM isolated core: no core is isolated", "isolcpus=3 nohz_full=3 rcu_nocbs=3"),
    ("/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "ondemand\n", "PROBLEM cpufreq governor: core 3 runs 'ondemand'",
     "cpufreq.default_governor=performance"),
    ("/sys/devices/platform/soc/soc:firmware/get_throttled", "0x50005\n", "PROBLEM power: under-voltage now, throttled now (get_throttled 0x50005)",
     "a 5.1-5.2 V supply"),
    ("/sys/devices/platform/soc/soc:firmware/get_throttled", "0x50000\n", "PROBLEM power: under-voltage since boot, throttled since boot",
     "a 5.1-5.2 V supply"),
    ("/proc/sys/kernel/sched_rt_runtime_us", "950000\n", "PROBLEM real-time throttling: sched_rt_runtime_us is 950000 (of 1000000)",
     "kernel.sched_rt_runtime_us = -1"),
    ("/proc/modules", "w1_gpio 16384 0 - Live 0x0\n", "PROBLEM 1-Wire: w1-gpio is loaded and holds GPIO 4", "remove dtoverlay=w1-gpio"),
    ("/boot/firmware/config.txt", "dtparam=spi=on\n", "PROBLEM buses on the panel's pins: SPI0 (dtparam=spi=on) on GPIO 7, 8, 9, 10, 11",
     "remove dtparam=spi=on from /boot/firmware/config.txt"),
    ("/proc/733/comm", "lightdm\n", "PROBLEM desktop: running: lightdm", "sudo systemctl set-default multi-user.target"),
  ])
  func eachFindingIsSaidWithItsFix(path: String, text: String, said: String, fix: String) throws {
    for pi5 in [false, true] {
      let machine = try Machine(pi5: pi5)
      try machine.write(path, text)
      let result = try machine.doctor(["--board", "hub75-p4-64x32", "--seconds", "0"])
      #expect(result.status == 1, "\(result.stdout)")
      #expect(result.stdout.contains(said), "\(result.stdout)")
      #expect(result.stdout.contains("fix: ") && result.stdout.contains(fix), "\(result.stdout)")
      #expect(result.stdout.hasSuffix("1 problem to fix.\n"), "\(result.stdout)")
    }
  }

  @Test func theGPIONodeMissingOrNotOursIsSaid() throws {
    let machine = try Machine(pi5: true)
    try FileManager.default.removeItem(atPath: machine.root + "/dev/gpiomem0")
    #expect(try machine.doctor().stdout.contains("PROBLEM GPIO access: /dev/gpiomem0 does not exist"))
  }

  @Test func soundIsANoteAndAMachineThatIsNoPiIsAProblem() throws {
    let machine = try Machine()
    try machine.write("/proc/modules", "snd_bcm2835 24576 0 - Live 0x0\n")
    let sound = try machine.doctor()
    #expect(sound.status == 0 && sound.stdout.contains("note    sound: the on-board sound is on"), "\(sound.stdout)")
    try FileManager.default.removeItem(atPath: machine.root + "/proc/device-tree")
    let other = try machine.doctor(["--json"])
    #expect(other.status == 1)
    let json = try JSONParser.parse(other.stdout)
    #expect(json["ok"] == .bool(false) && json["findings"]?.arrayValue?.first?["check"] == .string("machine"))
    #expect(json["findings"]?.arrayValue?.first?["verdict"] == .string("problem"))
    // The checks that still apply ran.
    #expect(json["findings"]?.arrayValue?.contains { $0["check"] == .string("isolated core") } == true)
  }

  /// A refresh too slow for the floor: four chained 64x64 panels at 11 bitplanes of 3 µs
  /// are lit about 200 ms a refresh, so no machine reaches 100 Hz. Its figures, why and fix;
  /// the panel stayed dark all along (the last OE write high, never low) and the pins are
  /// inputs again.
  @Test(arguments: [false, true])
  func aRefreshBelowTheFloorIsAProblem(pi5: Bool) throws {
    let machine = try Machine(pi5: pi5)
    try machine.write("/slow.json", #"{"driver": "hub75", "panel": {"rows": 64, "columns": 64}, "grid": {"columns": 4}, "colorDepth": 11, "lsbNanoseconds": 3000}"#)
    let result = try machine.doctor(["--board", machine.root + "/slow.json", "--seconds", "1", "--json"])
    #expect(result.status == 1, "\(result.stdout)")
    let json = try JSONParser.parse(result.stdout)
    let refresh = try #require(json["findings"]?.arrayValue?.last)
    #expect(refresh["check"] == .string("refresh") && refresh["verdict"] == .string("problem"), "\(result.stdout)")
    let found = { if case .string(let text)? = refresh["found"] { text } else { "" } }()
    #expect(found.contains("Hz over 1 s (floor 100 Hz) at 11 bitplanes") && found.contains("register writes a refresh") && found.contains("(the shortest is 3.0 µs)"), "\(found)")
    if case .string(let fix)? = refresh["fix"] { #expect(fix.hasPrefix("lower 'colorDepth' or 'lsbNanoseconds'")) } else { Issue.record("no fix") }
    let words = try PiFixtures.words(machine.root + (pi5 ? "/dev/gpiomem0" : "/dev/gpiomem"))
    if pi5 {
      #expect(words[PiGPIORegisters.rp1RIO + PiGPIORegisters.rp1SetAlias] == 1 << 18, "OE high through the set alias")
      #expect(words[PiGPIORegisters.rp1RIO + PiGPIORegisters.rp1ClearAlias] & (1 << 18) == 0, "OE never cleared (lit)")
      #expect(words[PiGPIORegisters.rp1Control(17)] == 0x1F, "the clock's function as it was")
    } else {
      #expect(words[PiGPIORegisters.bcmSet] == 1 << 18, "the last write to the set register: OE high, dark")
      #expect(words[PiGPIORegisters.bcmClear] & (1 << 18) == 0, "OE never written to the clear register")
      #expect(HUB75BinaryTests.function(words, 17) == 0, "the clock is an input again")
    }
  }

  /// A HUB12 board's scan, dark, through the fake kernel's spidev and GPIO lines: its rate
  /// against the board's, and OE never on.
  @Test func aHUB12BoardsScanIsMeasured() throws {
    let machine = try Machine()
    try machine.write("/dev/spidev0.0", "")
    try machine.write("/dev/gpiochip0", "")
    let log = NSTemporaryDirectory() + "marquee-doctor-hub12-\(UInt32.random(in: 0...UInt32.max)).log"
    defer { try? FileManager.default.removeItem(atPath: log) }
    let result = try machine.doctor(
      ["--board", "hub12-p10-32x16", "--seconds", "1"], environment: HUB12KernelTests.environment.merging(["MARQUEE_FAKE_LOG": log]) { $1 })
    #expect(result.stdout.contains(" refresh: ") && result.stdout.contains("(the board's "), "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("row slots late by"), "\(result.stdout)")
    // The scan ran (the data went out) and nothing was lit.
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.hasPrefix("xfer ") }.count > 16, "the scan shifted rows")
    let panels = HUB12KernelTests.replay(lines, on: try HUB12KernelTests.board("hub12-p10-32x16"))
    #expect(panels.litTime.allSatisfy { $0 == 0 }, "an LED lit")
  }

  /// A HUB12 board: its SPI device and GPIO chip, and its control lines against the buses
  /// (SPI is its own, so only a control line on an SPI pin clashes).
  @Test func aHUB12BoardsDevicesAndLinesAreChecked() throws {
    let machine = try Machine()
    var result = try machine.doctor(["--board", "hub12-p10-32x16", "--seconds", "0"])
    #expect(result.status == 1 && result.stdout.contains("PROBLEM SPI for the panels: /dev/spidev0.0 does not exist"), "\(result.stdout)")
    #expect(result.stdout.contains("fix: add dtparam=spi=on to /boot/firmware/config.txt and reboot"))
    #expect(!result.stdout.contains("GPIO access"), "a HUB12 board does not map /dev/gpiomem")
    try machine.write("/dev/spidev0.0", "")
    try machine.write("/dev/gpiochip0", "")
    try machine.write("/boot/firmware/config.txt", "dtparam=spi=on\n")
    result = try machine.doctor(["--board", "hub12-p10-32x16", "--seconds", "0"])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.contains("ok      SPI for the panels: /dev/spidev0.0 and /dev/gpiochip0 are there and this user's"))
    #expect(result.stdout.contains("ok      buses on the panel's pins"))
    try machine.write("/cs.json", #"{"driver": "hub12", "gpio": {"chip": "/dev/gpiochip0", "oe": 8, "a": 23, "b": 24, "lat": 25}}"#)
    result = try machine.doctor(["--board", machine.root + "/cs.json", "--seconds", "0"])
    #expect(result.stdout.contains("PROBLEM buses on the panel's pins: SPI0 (dtparam=spi=on) on GPIO 8"), "\(result.stdout)")
  }

  /// A process that kept a core busy over its life: a problem without an isolated core, a
  /// note with one; the sign itself and short-lived processes are not counted.
  @Test func aBusyProcessIsNamed() throws {
    let machine = try Machine()
    try machine.write("/proc/uptime", "1000.00 3000.00\n")
    // pid (comm) state ... utime (14) stime (15) ... starttime (22): 40 000 + 10 000 ticks
    // since tick 50 000 (500 s): 500 s of CPU in 500 s.
    let fields = (3...21).map { $0 == 14 ? "40000" : $0 == 15 ? "10000" : "0" }.joined(separator: " ")
    try machine.write("/proc/733/stat", "733 (camera app) R " + fields.dropFirst(2) + " 50000 0\n")
    try machine.write("/proc/734/stat", "734 (marquee) R " + fields.dropFirst(2) + " 50000 0\n")
    var result = try machine.doctor()
    #expect(result.stdout.contains("note    busy processes: camera app (100 % of a core); they run on the cores other than 3"), "\(result.stdout)")
    #expect(!result.stdout.contains("marquee ("))
    try machine.write("/sys/devices/system/cpu/isolated", "\n")
    result = try machine.doctor()
    #expect(result.stdout.contains("PROBLEM busy processes: camera app (100 % of a core)"), "\(result.stdout)")
  }

  /// The shipped unit as installed: for a HUB75 board it lacks the register node (the docs
  /// say to add it); with it, nothing is missing; for a HUB12 board it has all it needs.
  @Test func theInstalledUnitIsHeldAgainstTheBoard() throws {
    let machine = try Machine()
    let shipped = try String(contentsOfFile: "Docs/examples/marquee.service", encoding: .utf8)
    try machine.write("/etc/systemd/system/marquee.service", shipped)
    var result = try machine.doctor(["--board", "hub75-p4-64x32", "--seconds", "0"])
    #expect(result.stdout.contains("PROBLEM unit: marquee.service lacks DeviceAllow=/dev/gpiomem rw"), "\(result.stdout)")
    #expect(result.stdout.contains("fix: add DeviceAllow=/dev/gpiomem rw to /etc/systemd/system/marquee.service"))
    try machine.write("/etc/systemd/system/marquee.service", shipped.replacingOccurrences(of: "DeviceAllow=char-spi rw", with: "DeviceAllow=/dev/gpiomem rw"))
    result = try machine.doctor(["--board", "hub75-p4-64x32", "--seconds", "0"])
    #expect(result.stdout.contains("ok      unit: marquee.service lets the panel's device nodes through"), "\(result.stdout)")
    try machine.write("/etc/systemd/system/marquee.service", shipped.replacingOccurrences(of: "LimitRTPRIO=10\n", with: ""))
    result = try machine.doctor(["--board", "hub12-p10-32x16", "--seconds", "0"])
    #expect(result.stdout.contains("PROBLEM unit: marquee.service lacks LimitRTPRIO=10"), "\(result.stdout)")
    #expect(!result.stdout.contains("DeviceAllow="), "char-spi and char-gpiochip let a HUB12 board's nodes through")
    try machine.write("/etc/systemd/system/marquee.service", shipped.replacingOccurrences(of: "LimitRTPRIO=10\n", with: "LimitRTPRIO=infinity\n"))
    result = try machine.doctor(["--board", "hub12-p10-32x16", "--seconds", "0"])
    #expect(!result.stdout.contains("LimitRTPRIO"), "no limit is no less than 10: \(result.stdout)")
  }

  @Test func badArgumentsAreUsageErrors() throws {
    #expect(try BinaryRunner.run(["doctor", "--seconds", "61"]).status == 64)
    #expect(try BinaryRunner.run(["doctor", "--seconds"]).status == 64)
    #expect(try BinaryRunner.run(["doctor", "--bogus"]).status == 64)
    #expect(try BinaryRunner.run(["doctor", "--board"]).status == 64)
    #expect(try BinaryRunner.run(["doctor", "--board", "no-such-board"]).status == 64)
  }
}

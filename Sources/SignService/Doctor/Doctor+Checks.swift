import Drivers
import Platform

/// The checks, each reading the kernel's own files; Docs/hardware.md "Flicker" gives each
/// one's source (hzeller's rpi-rgb-led-matrix README and issues, the Raspberry Pi
/// documentation).
extension Doctor {
  /// The Pi model and its GPIO block, from the device tree.
  func machine() -> Finding {
    switch pi {
    case .success(let pi):
      return Finding(check: "machine", verdict: .ok, found: "\(pi.model) (\(pi.chip.rawValue)), GPIO through \(pi.gpioDevice)")
    case .failure(let error):
      return Finding(
        check: "machine", verdict: .problem, found: "\(error.description.prefix { $0 != "." })",
        why: "HUB75 and HUB12 panels are driven through a Raspberry Pi's GPIO; the other checks below still apply",
        fix: "run the sign on a Raspberry Pi 1 to 5, or use a family with a kernel driver (MAX7219, HT16K33, WS2812 over SPI)")
    }
  }

  /// The GPIO device node, readable and writable by this user.
  func gpioAccess() -> Finding? {
    // A board of another family (HUB12: the GPIO chip) does not map the registers.
    guard case .success(let pi) = pi, board == nil || board?.family is HUB75Board else { return nil }
    let path = root + pi.gpioDevice
    guard FileBytes.exists(path) else {
      return Finding(check: "GPIO access", verdict: .problem, found: "\(pi.gpioDevice) does not exist",
                     why: "the refresh writes the GPIO registers through it", fix: "use Raspberry Pi OS's kernel, which makes \(pi.gpioDevice)")
    }
    guard FileSystem.mayAccess(path, write: true) else {
      return Finding(
        check: "GPIO access", verdict: .problem, found: "this user cannot read and write \(pi.gpioDevice)",
        why: "without it the sign cannot drive the panel",
        fix: "sudo usermod -aG gpio $USER (then log in again); in the unit: SupplementaryGroups=gpio and DeviceAllow=\(pi.gpioDevice) rw")
    }
    return Finding(check: "GPIO access", verdict: .ok, found: "\(pi.gpioDevice) is readable and writable")
  }

  /// A core of its own for the refresh: `isolcpus` with `nohz_full` and `rcu_nocbs` for it.
  func isolatedCore() -> Finding {
    let last = coreCount - 1
    let line = "isolcpus=\(last) nohz_full=\(last) rcu_nocbs=\(last)"
    let fix = "add \(line) to the one line of /boot/firmware/cmdline.txt and reboot"
    guard coreCount > 1 else {
      return Finding(check: "isolated core", verdict: .note, found: "one core: the refresh shares it with everything else",
                     why: "with more cores, one can be kept for the refresh alone")
    }
    guard !isolated.isEmpty else {
      return Finding(check: "isolated core", verdict: .problem, found: "no core is isolated",
                     why: "the kernel schedules other work on the refresh's core; each pause shows as a flicker", fix: fix)
    }
    let missing = ["nohz_full", "rcu_nocbs"].filter { key in !commandLine.contains { $0.hasPrefix(key + "=") } }
    guard missing.isEmpty else {
      return Finding(check: "isolated core", verdict: .problem, found: "core \(isolated) is isolated, without \(missing.joined(separator: " and "))",
                     why: "the timer tick and RCU callbacks still interrupt the isolated core", fix: fix)
    }
    return Finding(check: "isolated core", verdict: .ok, found: "core \(isolated) is isolated, with nohz_full and rcu_nocbs")
  }

  /// The refresh core's cpufreq governor: `performance`, so the clock does not drop under it.
  func governor() -> Finding? {
    let core = Int(isolated.split(separator: ",").last?.split(separator: "-").last ?? "") ?? (coreCount - 1)
    guard let governor = text("/sys/devices/system/cpu/cpu\(core)/cpufreq/scaling_governor")?.trimmingWhitespace else { return nil }
    guard governor == "performance" else {
      return Finding(
        check: "cpufreq governor", verdict: .problem, found: "core \(core) runs '\(governor)'",
        why: "a governor that lowers the clock between loads makes the refresh's timing vary",
        fix: "add cpufreq.default_governor=performance to /boot/firmware/cmdline.txt (now: echo performance | sudo tee /sys/devices/system/cpu/cpu\(core)/cpufreq/scaling_governor)")
    }
    return Finding(check: "cpufreq governor", verdict: .ok, found: "core \(core) runs 'performance'")
  }

  /// Under-voltage and throttling, now and since boot (the firmware's `get_throttled` bits).
  func power() -> Finding? {
    let paths = ["/sys/devices/platform/soc/soc:firmware/get_throttled", "/sys/devices/platform/soc/soc:firmware/raspberrypi-hwmon/get_throttled"]
    guard let raw = paths.lazy.compactMap({ self.text($0) }).first?.trimmingWhitespace,
      let bits = UInt32(raw.hasPrefix("0x") ? String(raw.dropFirst(2)) : raw, radix: 16)
    else { return nil }
    var seen: [String] = []
    if bits & 1 != 0 { seen.append("under-voltage now") }
    if bits & 4 != 0 { seen.append("throttled now") }
    if bits & (1 << 16) != 0 && bits & 1 == 0 { seen.append("under-voltage since boot") }
    if bits & (1 << 18) != 0 && bits & 4 == 0 { seen.append("throttled since boot") }
    guard seen.isEmpty else {
      return Finding(
        check: "power", verdict: .problem, found: seen.joined(separator: ", ") + " (get_throttled \(raw))",
        why: "under 4.63 V the firmware slows the CPU: the refresh slows and flickers",
        fix: "a 5.1-5.2 V supply for the Pi (3 A for a Pi 4, 5 A for a Pi 5), not the panels' supply; short, thick cables")
    }
    return Finding(check: "power", verdict: .ok, found: "no under-voltage or throttling since boot")
  }

  /// The kernel's real-time throttling, which pauses a real-time thread 50 ms a second.
  func realTimeThrottling() -> Finding? {
    guard let value = text("/proc/sys/kernel/sched_rt_runtime_us")?.trimmingWhitespace, let runtime = Int(value) else { return nil }
    guard runtime == -1 || runtime >= 990_000 else {
      return Finding(
        check: "real-time throttling", verdict: .problem, found: "sched_rt_runtime_us is \(runtime) (of 1000000)",
        why: "the refresh thread runs at real-time priority; the kernel stops it for the rest of every second: a dark blink",
        fix: "echo 'kernel.sched_rt_runtime_us = -1' | sudo tee /etc/sysctl.d/90-marquee.conf && sudo sysctl --system")
    }
    return Finding(check: "real-time throttling", verdict: .ok, found: "sched_rt_runtime_us is \(runtime)")
  }

  /// The GPIO lines the board drives (HUB75 and HUB12 panels), if one was given: a HUB12
  /// board's control lines on the Pi's own chip (`gpiochip0`, whose offsets are the GPIO
  /// numbers).
  var boardLines: [Int]? {
    guard let board else { return nil }
    if let hub75 = board.family as? HUB75Board {
      return hub75.pins.namedLines(parallel: hub75.parallel).map(\.gpio) + hub75.pins.inputs
    }
    if let hub12 = board.family as? HUB12Board {
      return hub12.lines.values.filter { $0.chip == "/dev/gpiochip0" }.map(\.offset).sorted()
    }
    return nil
  }

  /// A HUB12 board's SPI device and GPIO chip: there, and this user's to read and write.
  func hub12Devices() -> Finding? {
    guard let hub12 = board?.family as? HUB12Board else { return nil }
    let chips = Set(hub12.lines.values.map(\.chip)).sorted()
    guard FileBytes.exists(root + hub12.device) else {
      return Finding(
        check: "SPI for the panels", verdict: .problem, found: "\(hub12.device) does not exist",
        why: "a HUB12 sign shifts its rows out over SPI", fix: "add dtparam=spi=on to /boot/firmware/config.txt and reboot")
    }
    for path in [hub12.device] + chips {
      guard FileBytes.exists(root + path) else {
        return Finding(check: "SPI for the panels", verdict: .problem, found: "\(path) does not exist",
                       why: "the panels' control lines are requested from it", fix: "name the Pi's GPIO chip in the board file's gpio.chip (gpiodetect lists them)")
      }
      guard FileSystem.mayAccess(root + path, write: true) else {
        return Finding(
          check: "SPI for the panels", verdict: .problem, found: "this user cannot read and write \(path)",
          why: "without it the sign cannot drive the panels",
          fix: "sudo usermod -aG spi,gpio $USER (then log in again); in the unit: SupplementaryGroups=spi gpio and DeviceAllow=\(path) rw")
      }
    }
    return Finding(check: "SPI for the panels", verdict: .ok, found: "\(([hub12.device] + chips).joined(separator: " and ")) are there and this user's")
  }

  /// 1-Wire (`w1-gpio`) holds GPIO 4, which HUB75 wirings use.
  func oneWire() -> Finding? {
    let loaded = modules.contains("w1_gpio")
    let configured = configLines.contains { $0.hasPrefix("dtoverlay=w1-gpio") }
    guard loaded || configured else { return Finding(check: "1-Wire", verdict: .ok, found: "w1-gpio is not loaded") }
    let pin = 4
    if let lines = boardLines, !lines.contains(pin) {
      return Finding(check: "1-Wire", verdict: .note, found: "w1-gpio is loaded; this board does not use GPIO \(pin)")
    }
    return Finding(check: "1-Wire", verdict: .problem, found: "w1-gpio is loaded and holds GPIO \(pin)",
                   why: "the panel's wiring drives a line on GPIO 4; the 1-Wire driver fights it",
                   fix: "remove dtoverlay=w1-gpio from /boot/firmware/config.txt and reboot")
  }

  /// SPI, I2C or a UART switched on over pins the board drives.
  func busesOnPanelPins() -> Finding? {
    guard let lines = boardLines else { return nil }
    let buses: [(setting: String, name: String, pins: [Int])] = [
      ("dtparam=spi=on", "SPI0", [7, 8, 9, 10, 11]), ("dtparam=i2c_arm=on", "I2C1", [2, 3]), ("enable_uart=1", "the UART", [14, 15]),
    ]
    let clashes = buses.filter { bus in configLines.contains(bus.setting) && bus.pins.contains(where: lines.contains) }
    guard clashes.isEmpty else {
      let named = clashes.map { bus in "\(bus.name) (\(bus.setting)) on GPIO \(bus.pins.filter(lines.contains).map(String.init).joined(separator: ", "))" }
      return Finding(check: "buses on the panel's pins", verdict: .problem, found: named.joined(separator: "; "),
                     why: "a bus's driver takes its pins from the panel", fix: "remove " + clashes.map(\.setting).joined(separator: " and ") + " from /boot/firmware/config.txt and reboot")
    }
    return Finding(check: "buses on the panel's pins", verdict: .ok, found: "no SPI, I2C or UART on the board's GPIO lines")
  }

  /// The on-board sound (snd_bcm2835): marquee times the panel with the CPU, not the PWM
  /// block hzeller's pulser shares with it, so it is a note, not a problem.
  func sound() -> Finding? {
    let loaded = modules.contains("snd_bcm2835")
    guard loaded || configLines.contains("dtparam=audio=on") else { return nil }
    return Finding(check: "sound", verdict: .note, found: "the on-board sound is on",
                   why: "marquee does not use the PWM block the sound takes (hzeller's pulser does); its interrupts still land on the cores",
                   fix: "dtparam=audio=off in /boot/firmware/config.txt if the sign plays no sound")
  }

  /// A desktop session (a display manager or a compositor) busy on the same machine.
  /// Processes that keep a core busy (half a core or more over their life, from `/proc/PID/stat`'s
  /// CPU ticks and start against `/proc/uptime`): without an isolated core they take turns
  /// with the refresh; with one, they run on the others.
  func busyProcesses() -> Finding? {
    guard let uptime = text("/proc/uptime")?.split(separator: " ").first.flatMap({ Double($0) }), uptime > 0 else { return nil }
    let ticks = 100.0  // USER_HZ on Linux's every architecture Raspberry Pi OS ships
    var busy: [(name: String, share: Double)] = []
    for entry in processes ?? [] {
      guard let stat = text("/proc/\(entry)/stat"), let close = stat.lastIndex(of: ")"), let open = stat.firstIndex(of: "(") else { continue }
      // The name is between the brackets (it may hold spaces); fields 3 on follow.
      let name = String(stat[stat.index(after: open)..<close])
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 19, let user = Double(fields[11]), let system = Double(fields[12]), let start = Double(fields[19]) else { continue }
      let alive = uptime - start / ticks
      guard alive >= 10, name != "marquee" else { continue }
      let share = (user + system) / ticks / alive
      if share >= 0.5 { busy.append((name, share)) }
    }
    guard !busy.isEmpty else { return Finding(check: "busy processes", verdict: .ok, found: "none keeps a core busy") }
    let named = busy.sorted { $0.share > $1.share }.map { "\($0.name) (\(Int(($0.share * 100).rounded())) % of a core)" }.joined(separator: ", ")
    if !isolated.isEmpty {
      return Finding(check: "busy processes", verdict: .note, found: named + "; they run on the cores other than \(isolated)")
    }
    return Finding(
      check: "busy processes", verdict: .problem, found: named, why: "they take turns with the refresh on its core; each turn shows as a flicker",
      fix: "stop them, or give the refresh a core of its own (the isolated core above)")
  }

  func desktop() -> Finding? {
    let names = ["lightdm", "gdm3", "sddm", "Xorg", "Xwayland", "wayfire", "labwc", "lxsession"]
    guard let processes else { return nil }
    let running = Set(processes.compactMap { text("/proc/\($0)/comm")?.trimmingWhitespace }.filter(names.contains))
    guard running.isEmpty else {
      return Finding(check: "desktop", verdict: .problem, found: "running: " + running.sorted().joined(separator: ", "),
                     why: "a desktop wakes the cores all the time; every pause of the refresh shows",
                     fix: "sudo systemctl set-default multi-user.target && sudo reboot (Raspberry Pi OS Lite needs nothing)")
    }
    return Finding(check: "desktop", verdict: .ok, found: "no desktop session")
  }
}

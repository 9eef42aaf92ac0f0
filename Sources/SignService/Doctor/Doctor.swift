import Drivers
import Platform
import SimpleJSON

/// What on this machine makes a panel flicker or stay dark, each with what was found, why it
/// matters and the exact fix (`marquee doctor [--board NAME|FILE] [--json]`, which exits 0
/// when nothing stands in the way and 1 with the list otherwise).
///
/// It reads the kernel's files (`/proc`, `/sys`, the device tree, `config.txt` and
/// `cmdline.txt`) under ``root`` (`/`, or `$MARQUEE_SYSTEM_ROOT` for tests) and changes
/// nothing.
public struct Doctor: Sendable {
  /// One thing looked at.
  public struct Finding: Equatable, Sendable {
    public enum Verdict: String, Sendable { case ok, problem, note }
    /// A short name (`isolated core`).
    public var check: String
    public var verdict: Verdict
    /// What was found.
    public var found: String
    /// Why it matters (empty when it is fine).
    public var why = ""
    /// The exact fix (empty when nothing is to be done).
    public var fix = ""
  }

  /// Where the kernel's files are read from.
  let root: String
  /// The board the sign drives, if given: its pins and family decide some checks.
  let board: SignBoard?
  /// What several checks read, read once: the machine, the cores, the kernel's command
  /// line, the isolated cores, the loaded modules, config.txt's lines and the processes.
  let pi: Result<RaspberryPi, NotARaspberryPi>
  let coreCount: Int
  let commandLine: [Substring]
  let isolated: String
  let modules: [Substring]
  let configLines: [String]
  /// The processes' ids (`/proc`'s numbered entries), listed once for the checks that look
  /// at them; `nil` when `/proc` cannot be listed.
  let processes: [String]?

  /// The command line's doctor: the system's files, or `$MARQUEE_SYSTEM_ROOT`'s.
  public init(board: SignBoard?, root: String? = Environment.value("MARQUEE_SYSTEM_ROOT")) {
    let root = root ?? ""
    let text = { (path: String) in Doctor.text(root + path) }
    self.root = root
    self.board = board
    pi = Result { () throws(NotARaspberryPi) in try RaspberryPi.detect(deviceTree: root + "/proc/device-tree") }
    // `0-3`: the last core's number, plus one.
    coreCount = text("/sys/devices/system/cpu/present")?.split(separator: "\n").first?.split(separator: "-").last.flatMap { Int($0) }.map { $0 + 1 } ?? 1
    commandLine = (text("/proc/cmdline") ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" })
    isolated = (text("/sys/devices/system/cpu/isolated") ?? "").trimmingWhitespace
    // Each line of /proc/modules starts with the module's name.
    modules = (text("/proc/modules") ?? "").split(separator: "\n").compactMap { $0.split(separator: " ").first }
    let entries = FileBytes.entries(of: root + "/proc")
    processes = entries.isEmpty ? nil : entries.filter { $0.allSatisfy(\.isNumber) }
    configLines = (text("/boot/firmware/config.txt") ?? text("/boot/config.txt") ?? "").split(separator: "\n")
      .map { String($0.prefix { $0 != "#" }).trimmingWhitespace }.filter { !$0.isEmpty }
  }

  /// A file's text under the root, or nil.
  func text(_ path: String) -> String? { Doctor.text(root + path) }

  /// The text of the file at `path` (up to its first NUL), or nil.
  static func text(_ path: String) -> String? {
    guard let bytes = try? FileBytes.read(path, limit: 1 << 20) else { return nil }
    return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
  }

  /// Every check, in the order a person works through them; with a HUB75 or HUB12 board,
  /// last, its refresh run for `refreshSeconds` with the panel dark (0: not run).
  public func findings(refreshSeconds: Double = 3) -> [Finding] {
    var all = [machine()]
    all += [gpioAccess(), hub12Devices(), isolatedCore(), governor(), power(), realTimeThrottling(), oneWire(), busesOnPanelPins(), sound(), desktop(), busyProcesses(), unit()]
      .compactMap { $0 }
    if let refresh = refresh(seconds: refreshSeconds) { all.append(refresh) }
    return all
  }

  /// The findings as the terminal shows them.
  public static func text(_ findings: [Finding]) -> String {
    var lines: [String] = []
    for finding in findings {
      let mark = finding.verdict == .ok ? "ok     " : finding.verdict == .problem ? "PROBLEM" : "note   "
      lines.append("\(mark) \(finding.check): \(finding.found)")
      if !finding.why.isEmpty { lines.append("        why: \(finding.why)") }
      if !finding.fix.isEmpty { lines.append("        fix: \(finding.fix)") }
    }
    let problems = findings.filter { $0.verdict == .problem }.count
    lines.append(problems == 0 ? "Nothing stands in the way." : "\(problems) problem\(problems == 1 ? "" : "s") to fix.")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The findings as JSON, for scripts.
  public static func json(_ findings: [Finding]) -> String {
    JSONValue.object([
      ("ok", .bool(!findings.contains { $0.verdict == .problem })),
      ("findings", .array(findings.map { finding in
        .object([("check", .string(finding.check)), ("verdict", .string(finding.verdict.rawValue)), ("found", .string(finding.found)),
                 ("why", .string(finding.why)), ("fix", .string(finding.fix))])
      })),
    ]).text + "\n"
  }
}

import Foundation
import Testing
import TestSupport

/// The unit Docs/deploy.md ships (Docs/examples/marquee.service) passes systemd's own checks:
/// `systemd-analyze verify` says nothing, and `security --offline=yes` rates it 2.0 or below.
@Suite(.offThePool) struct SystemdUnitTests {
  static let analyze = ChildProcess.commandExists("systemd-analyze")
  static let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Docs/examples/marquee.service")

  /// The unit with its `ExecStart` program one that exists here (verify checks that).
  func installable() throws -> (path: String, cleanup: () -> Void) {
    let folder = NSTemporaryDirectory() + "marquee-unit-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let text = try String(contentsOf: SystemdUnitTests.unit, encoding: .utf8).replacingOccurrences(of: "/usr/local/bin/marquee", with: "/bin/sh")
    try text.write(toFile: folder + "/marquee.service", atomically: true, encoding: .utf8)
    return (folder + "/marquee.service", { try? FileManager.default.removeItem(atPath: folder) })
  }

  @Test(.enabled(if: analyze, "needs systemd-analyze (Debian package systemd)"))
  func systemdVerifiesTheShippedUnit() throws {
    let (path, cleanup) = try installable()
    defer { cleanup() }
    let verify = try ChildProcess.run("/usr/bin/env", ["systemd-analyze", "verify", path], timeout: 60)
    #expect(verify.status == 0 && verify.stderr.isEmpty && verify.stdout.isEmpty, "\(verify.stdout)\(verify.stderr)")
    let security = try ChildProcess.run("/usr/bin/env", ["systemd-analyze", "security", "--offline=yes", path], timeout: 60)
    let line = security.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? ""
    let score = line.split(separator: " ").compactMap { Double($0) }.first ?? 10
    #expect(score <= 2.0, "\(line)")
  }

  @Test func theUnitWaitsForReadinessAndHasAWatchdog() throws {
    let text = try String(contentsOf: SystemdUnitTests.unit, encoding: .utf8)
    let deploy = try String(contentsOf: SystemdUnitTests.unit.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("deploy.md"), encoding: .utf8)
    #expect(deploy.contains("```ini\n" + text + "```"), "Docs/deploy.md shows another unit than Docs/examples/marquee.service")
    for line in ["Type=notify", "NotifyAccess=main", "WatchdogSec=", "ExecReload=/bin/kill -HUP $MAINPID", "DevicePolicy=closed", "UMask=0077"] {
      #expect(text.contains(line), "\(line)")
    }
  }
}

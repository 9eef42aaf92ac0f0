import Foundation
import Testing

/// Runs a shell command and returns its standard output.
@discardableResult
func shell(_ command: String) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", command]
  let out = Pipe()
  process.standardOutput = out
  process.standardError = FileHandle.nullDevice
  try process.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self)
}

let tmuxAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")

/// The sign in a real terminal: tmux gives the binary a pseudo-terminal, and we read the
/// screen as a person would.
@Suite(.enabled(if: tmuxAvailable, "needs the Debian package tmux (apt-get install tmux)"))
struct TerminalSessionTests {
  @Test func signAnimatesInPlaceAndCtrlCRestoresTheTerminal() throws {
    let session = "marquee-test-\(getpid())"
    let status = NSTemporaryDirectory() + "\(session).status"
    defer { _ = try? shell("tmux kill-session -t \(session)") }
    try shell(
      "tmux new-session -d -s \(session) -x 120 -y 20 "
        + "\"'\(BinaryRunner.path)' --width 40 --fps 30 --speed 30 'Scrolling in a real terminal'; echo \\$? > \(status); sleep 30\"")
    Thread.sleep(forTimeInterval: 1.0)
    // -e keeps the colours: lit dots are red, dark ones grey, and both are "●".
    let first = try shell("tmux capture-pane -e -p -t \(session)")
    Thread.sleep(forTimeInterval: 0.5)
    let second = try shell("tmux capture-pane -e -p -t \(session)")
    let rows = first.split(separator: "\n").filter { $0.contains("●") }
    // Eight rows of 40 dots, drawn in place: the screen holds one sign, not a scrolling log.
    #expect(rows.count == 8)
    #expect(rows.allSatisfy { $0.filter { $0 == "●" }.count == 40 })
    #expect(first.contains("\u{1B}[38;5;196m"), "lit dots are red")
    #expect(first != second, "the sign should move")
    #expect(try shell("tmux display -p -t \(session) '#{cursor_flag}'").hasPrefix("0"))
    try shell("tmux send-keys -t \(session) C-c")
    Thread.sleep(forTimeInterval: 0.5)
    #expect(try shell("tmux display -p -t \(session) '#{cursor_flag}'").hasPrefix("1"))
    #expect((try? String(contentsOfFile: status, encoding: .utf8))?.hasPrefix("130") == true)
    let after = try shell("tmux capture-pane -p -t \(session)")
    #expect(!after.contains("^C"), "echo should be off while the sign runs")
  }
}

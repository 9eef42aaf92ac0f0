import Foundation
import TestSupport
import Testing

/// Runs a shell command (bounded) and returns its standard output.
@discardableResult
func shell(_ command: String) throws -> String {
  let result = try ChildProcess.shell(command, timeout: 60)
  #expect(!result.timedOut, "`\(command)` did not end in time")
  return result.stdout
}

let tmuxAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")

/// The sign in a real terminal: tmux gives the binary a pseudo-terminal, and we read the
/// screen as a person would.
@Suite(.enabled(if: tmuxAvailable, "needs the Debian package tmux (apt-get install tmux)"))
struct TerminalSessionTests {
  @Test func signAnimatesInPlaceAndCtrlCRestoresTheTerminal() throws {
    let session = "marquee-test-\(getpid())"
    let status = NSTemporaryDirectory() + "\(session).status"
    // A server of the test's own (its socket named after the session), ended afterwards: no
    // interference with the user's tmux, nothing left running.
    // -u: UTF-8 whatever the locale; the sign gets a known environment (a test runner may
    // set NO_COLOR, which would turn the dots into plain characters).
    let tmux = "tmux -u -L \(session)"
    defer {
      _ = try? shell("\(tmux) kill-server")
      try? FileManager.default.removeItem(atPath: status)
    }
    try shell(
      "\(tmux) new-session -d -s \(session) -x 120 -y 20 "
        + "\"env -u NO_COLOR LANG=C.UTF-8 '\(BinaryRunner.path)' --width 40 --fps 30 --speed 30 'Scrolling in a real terminal'; echo \\$? > \(status); sleep 30\"")
    // -e keeps the colours: lit dots are red, dark ones grey, and both are "●". Wait
    // (bounded) for the sign to be drawn: a loaded CI machine may take a while to start it.
    func screen() throws -> String { try shell("\(tmux) capture-pane -e -p -t \(session)") }
    var first = try screen()
    for _ in 0..<100 where first.split(separator: "\n").filter({ $0.contains("●") }).count < 8 {
      Thread.sleep(forTimeInterval: 0.1)
      first = try screen()
    }
    Thread.sleep(forTimeInterval: 0.5)
    let second = try screen()
    let rows = first.split(separator: "\n").filter { $0.contains("●") }
    // Eight rows of 40 dots, drawn in place: the screen holds one sign, not a scrolling log.
    #expect(rows.count == 8)
    #expect(rows.allSatisfy { $0.filter { $0 == "●" }.count == 40 })
    #expect(first.contains("\u{1B}[38;5;196m"), "lit dots are red")
    #expect(first != second, "the sign should move")
    #expect(try shell("\(tmux) display -p -t \(session) '#{cursor_flag}'").hasPrefix("0"))
    try shell("\(tmux) send-keys -t \(session) C-c")
    // Wait (bounded) for the exit status the shell writes once marquee has ended.
    for _ in 0..<100 where (try? String(contentsOfFile: status, encoding: .utf8))?.isEmpty ?? true {
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(try shell("\(tmux) display -p -t \(session) '#{cursor_flag}'").hasPrefix("1"))
    #expect((try? String(contentsOfFile: status, encoding: .utf8))?.hasPrefix("130") == true)
    let after = try shell("\(tmux) capture-pane -p -t \(session)")
    #expect(!after.contains("^C"), "echo should be off while the sign runs")
  }
}

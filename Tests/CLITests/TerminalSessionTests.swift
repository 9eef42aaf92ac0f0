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
@Suite(.offThePool, .enabled(if: tmuxAvailable, "needs the Debian package tmux (apt-get install tmux)"))
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
    // The sign moves: wait (bounded) for the screen to change.
    var second = try screen()
    for _ in 0..<100 where second == first {
      Thread.sleep(forTimeInterval: 0.05)
      second = try screen()
    }
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

  @Test func afterResizesTheScreenShowsExactlyOneSignAndALargeSignIsScaled() throws {
    let session = "marquee-resize-\(getpid())"
    let tmux = "tmux -u -L \(session)"
    defer { _ = try? shell("\(tmux) kill-server") }
    // A 64x16 sign: two columns a dot need 128, so at 100x24 it takes one column a dot.
    try shell(
      "\(tmux) new-session -d -s \(session) -x 100 -y 24 "
        + "\"env -u NO_COLOR LANG=C.UTF-8 '\(BinaryRunner.path)' --width 64 --height 16 --fps 30 --speed 30 'Resizing a real terminal'; sleep 30\"")
    func screen() throws -> [Substring] { try shell("\(tmux) capture-pane -p -t \(session)").split(separator: "\n") }
    /// Waits (bounded) until the screen shows `rows` rows of dots, `dots` each, and nothing
    /// else but an optional note; returns whether it did.
    func settles(rows: Int, dots: Int, braille: Bool = false) throws -> Bool {
      for _ in 0..<100 {
        let lines = try screen()
        let signRows = lines.filter { line in
          braille ? line.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) } : line.contains("●")
        }
        let others = lines.filter { !$0.isEmpty && !signRows.contains($0) && !$0.hasPrefix("(scaled") }
        if signRows.count == rows && others.isEmpty
          && signRows.allSatisfy({ braille || $0.filter { $0 == "●" }.count == dots }) { return true }
        Thread.sleep(forTimeInterval: 0.1)
      }
      return false
    }
    #expect(try settles(rows: 16, dots: 64), "one column a dot at 100x24")
    // Quick resizes, then a pause: whatever the terminal did meanwhile, one sign.
    for size in ["60x30", "140x40", "90x20", "140x40"] {
      let parts = size.split(separator: "x")
      try shell("\(tmux) resize-window -t \(session) -x \(parts[0]) -y \(parts[1])")
    }
    #expect(try settles(rows: 16, dots: 64), "after resizes: one sign, 2 columns a dot at 140x40")
    // Too narrow for a dot a column: Braille cells, 32 columns by 4 rows, with a note.
    try shell("\(tmux) resize-window -t \(session) -x 50 -y 20")
    let scaled = try settles(rows: 4, dots: 0, braille: true)
    let lines = try screen()
    #expect(scaled, "scaled to Braille: \(lines)")
    #expect(lines.contains { $0.hasPrefix("(scaled: 2x4 LEDs per character)") })
  }
}

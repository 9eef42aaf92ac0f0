import Glibc
import MatrixCore
import Testing

@testable import Drivers

/// Runs `body` with a pipe's write end and returns everything written to it.
func capture(_ body: (Int32) throws -> Void) rethrows -> String {
  var fds: [Int32] = [0, 0]
  precondition(pipe(&fds) == 0)
  try body(fds[1])
  close(fds[1])
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = read(fds[0], &chunk, chunk.count)
    if count <= 0 { break }
    bytes += chunk[0..<count]
  }
  close(fds[0])
  return String(decoding: bytes, as: UTF8.self)
}

@Suite struct DisplayOutputTests {
  func sample() throws -> Frame {
    Frame(pixels: try Framebuffer(text: "#..\n.#.\n"))
  }

  @Test func asciiPrintsEachFrameThenAnEmptyLine() throws {
    let frame = try sample()
    let output = try capture { fd in
      var display = AsciiDisplay(width: 3, height: 2, descriptor: fd)
      try display.show(frame, changed: true)
      try display.show(frame, changed: false)
      try display.shutdown()
    }
    #expect(output == "#..\n.#.\n\n#..\n.#.\n\n")
  }

  @Test func terminalDrawsInPlaceAndRestoresTheCursor() throws {
    let frame = try sample()
    let output = try capture { fd in
      var display = TerminalDisplay(
        width: 3, height: 2, descriptor: fd, style: .init(color: false, cellWidth: 1))
      try display.show(frame, changed: true)
      try display.show(frame, changed: false)  // nothing new: nothing written
      var moved = frame
      moved.pixels[2, 1] = true
      try display.show(moved, changed: true)
      try display.shutdown()
    }
    let escape = "\u{1B}"
    #expect(output.hasPrefix("\(escape)[?25l#··\(escape)[K\n·#·\(escape)[K\n"))
    // The second drawing starts by moving back up over the sign.
    #expect(output.contains("\(escape)[2A\r#··\(escape)[K\n·##\(escape)[K\n"))
    // Shutdown blanks the sign and shows the cursor again.
    #expect(output.hasSuffix("\(escape)[2A\r···\(escape)[K\n···\(escape)[K\n\(escape)[0m\(escape)[?25h"))
  }

  @Test func colourDotsAreRedWhenLitAndGreyWhenDark() throws {
    let frame = try sample()
    let output = try capture { fd in
      var display = TerminalDisplay(width: 3, height: 2, descriptor: fd, style: .init())
      try display.show(frame, changed: true)
    }
    #expect(output.contains("\u{1B}[38;5;196m● \u{1B}[38;5;236m● ● "))
  }

  @Test func dimmerFramesGetDimmerDots() {
    #expect(TerminalDisplay.litColor(brightness: 1) == 196)
    #expect(TerminalDisplay.litColor(brightness: 0.5) == 124)
    #expect(TerminalDisplay.litColor(brightness: 0) == 52)
  }

  @Test func writingToAClosedPipeIsReportedAsABrokenPipe() throws {
    signal(SIGPIPE, SIG_IGN)
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0)
    close(fds[0])
    defer { close(fds[1]) }
    var display = AsciiDisplay(width: 3, height: 2, descriptor: fds[1])
    do {
      try display.show(try sample(), changed: true)
      Issue.record("expected a broken pipe")
    } catch let error as OutputError {
      #expect(error.isBrokenPipe)
    }
  }
}

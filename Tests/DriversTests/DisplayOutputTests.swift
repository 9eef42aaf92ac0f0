import Foundation
import Platform
import MatrixCore
import TestSupport
import Testing

@testable import Drivers
@testable import MAX7219Core

/// Runs `body` with a pipe's write end and returns everything written to it.
func capture(_ body: (Int32) throws -> Void) rethrows -> String {
  let (readEnd, writeEnd) = closeOnExecPipe()!
  try body(writeEnd)
  close(writeEnd)
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = read(readEnd, &chunk, chunk.count)
    if count <= 0 { break }
    bytes += chunk[0..<count]
  }
  close(readEnd)
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
    let (readEnd, writeEnd) = closeOnExecPipe()!
    close(readEnd)
    defer { close(writeEnd) }
    var display = AsciiDisplay(width: 3, height: 2, descriptor: writeEnd)
    do {
      try display.show(try sample(), changed: true)
      Issue.record("expected a broken pipe")
    } catch let error as OutputError {
      #expect(error.isBrokenPipe)
    }
  }
}

@Suite struct GIFWriterTests {
  static let pillowInstalled = PythonTools.pillow != nil

  @Test(.enabled(if: pillowInstalled, "needs the Debian package python3-pil"))
  func lzwOfALargeNoisyImageRoundTripsThroughPillow() throws {
    var random = SplitMix64(seed: 1)
    let width = 320, height = 200
    let indices = (0..<(width * height)).map { _ in UInt8(random.next() % 32) }
    var writer = try GIFWriter(width: width, height: height, palette: (0..<32).map { (UInt8($0 * 8), UInt8($0), 0) })
    writer.addFrame(indices, delay: 10)
    let path = "/tmp/marquee-lzw-\(getpid()).gif"
    try Data(writer.finished()).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let script = "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1])\nsys.stdout.write(','.join(str(v) for v in im.getdata()))"
    let result = try ChildProcess.run("/usr/bin/python3", ["-c", script, path])
    #expect(!result.timedOut && result.status == 0, "\(result.stderr)")
    let decoded = result.stdout.split(separator: ",").compactMap { UInt8($0) }
    #expect(decoded == indices)
  }


}

import Foundation
import TestSupport
import Testing

@Suite(.offThePool) struct BinaryTests {
  @Test func scrollingTextShiftsLeftOneColumnPerFrame() throws {
    let result = try BinaryRunner.run([
      "--width", "32", "--height", "8", "--fps", "10", "--speed", "10", "--frames", "6",
      "--output", "ascii", "HELLO WORLD, HELLO SWIFT",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let frames = asciiFrames(result.stdout)
    #expect(frames.count == 6)
    for frame in frames {
      #expect(frame.count == 8)
      #expect(frame.allSatisfy { $0.count == 32 && $0.allSatisfy { "#.".contains($0) } })
    }
    for (previous, next) in zip(frames, frames.dropFirst()) {
      for (a, b) in zip(previous, next) {
        #expect(b.prefix(31) == a.dropFirst())
      }
    }
    // The output is exactly the frames: H lines of W characters, an empty line after each.
    #expect(result.stdout.count == 6 * (8 * 33 + 1))
  }

  @Test func textThatFitsIsStillAndCentred() throws {
    let result = try BinaryRunner.run([
      "--width", "32", "--height", "8", "--frames", "6", "--no-wait", "--align", "center",
      "--output", "ascii", "HI",
    ])
    #expect(result.status == 0)
    let frames = asciiFrames(result.stdout)
    #expect(frames.count == 6)
    #expect(Set(frames).count == 1)
    let columns = (0..<32).filter { x in
      frames[0].contains { $0[$0.index($0.startIndex, offsetBy: x)] == "#" }
    }
    // "HI" is 9 columns wide: 11 dark columns on the left, 12 on the right.
    #expect(columns.first == 11 && columns.last == 19)
  }

  @Test func realTimePacingTakesAboutFramesOverFPS() throws {
    let start = Date()
    let result = try BinaryRunner.run([
      "--fps", "20", "--frames", "10", "--output", "ascii", "--width", "16", "PACE",
    ])
    #expect(result.status == 0)
    #expect(asciiFrames(result.stdout).count == 10)
    // Ten frames at 20 fps take half a second; generous bounds, this is not a timing test.
    #expect(Date().timeIntervalSince(start) >= 0.45)
  }

  @Test func helpGoesToStdoutAndExitsZero() throws {
    let result = try BinaryRunner.run(["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("OVERVIEW:"))
    #expect(result.stdout.contains("USAGE: marquee"))
    #expect(result.stderr.isEmpty)
  }

  @Test func unknownOptionIsAUsageError() throws {
    let result = try BinaryRunner.run(["--bogus", "x"])
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("Error: Unknown option '--bogus'."))
    #expect(result.stderr.contains("See 'marquee --help'"))
  }

  @Test func missingMessageIsAUsageError() throws {
    let result = try BinaryRunner.run(["--width", "10"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: Missing expected argument"))
  }

  @Test func signalsStopTheSignWithTheConventionalStatus() throws {
    for (signal, name) in [(SIGINT, "INT"), (SIGTERM, "TERM"), (SIGHUP, "HUP")] {
      let child = try BinaryRunner.start(["--output", "ascii", "--fps", "20", "a long message that scrolls for ever"])
      // Wait for the first frame, so the trap is surely installed.
      #expect(child.waitForOutput { !$0.isEmpty }, "SIG\(name): no frame came")
      child.send(signal)
      let result = child.wait(timeout: 30)
      #expect(!result.timedOut, "SIG\(name) did not stop the sign")
      #expect(!result.signalled, "SIG\(name) killed the process uncleanly")
      #expect(result.status == 128 + signal, "SIG\(name)")
    }
  }

  @Test func aReaderThatGoesAwayEndsTheRunCleanly() throws {
    // pipefail: the status is marquee's (head exits 0), so a crash or an error shows.
    let result = try ChildProcess.run(
      "/bin/bash", ["-c", "set -o pipefail; '\(BinaryRunner.path)' --output ascii --fps 100 'scrolling text here' | head -3 >/dev/null"],
      timeout: 60)
    #expect(!result.timedOut && !result.signalled && result.status == 0)
    #expect(result.stderr.isEmpty)
  }

}

import Foundation
import Platform
import TestSupport
import Testing

/// Stop signals at the edges (the first milliseconds, blocking system calls), closed
/// standard descriptors and a file size limit, on the real binary.
@Suite(.offThePool) struct SignalEdgeTests {
  /// Waits (bounded) until the process sleeps in the kernel in one of `places`
  /// (`/proc/PID/wchan`; kernels name the same wait differently).
  func waitUntilBlocked(_ pid: pid_t, in places: String...) -> Bool {
    for _ in 0..<1000 {
      if let wchan = try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8), places.contains(wchan) { return true }
      usleep(10_000)
    }
    return false
  }

  func temporary(_ name: String) -> String { NSTemporaryDirectory() + "marquee-edge-\(getpid())-\(name)" }

  @Test func aStopSignalInTheFirstMillisecondsIsNeverLost() throws {
    // Before the handler is armed a signal still ends the program (its default action);
    // after, it stops the sign. Either way the program ends: it is never ignored.
    for attempt in 0..<40 {
      let child = try BinaryRunner.start(["--output", "ascii", "--fps", "10", "STARTING"])
      usleep(useconds_t(attempt % 8) * 1000)
      child.send(SIGTERM)
      let result = child.wait(timeout: 10)
      #expect(!result.timedOut, "SIGTERM \(attempt % 8) ms after start was lost")
      #expect((result.status == 128 + SIGTERM && !result.signalled) || (result.signalled && result.status == SIGTERM))
    }
  }

  @Test func aStopSignalEndsAProgramBlockedOpeningAFIFO() throws {
    let fifo = temporary("layout.fifo")
    try #require(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    // No writer ever opens the FIFO: open() blocks until the signal interrupts it.
    let child = try BinaryRunner.start(["--layout", fifo, "--output", "ascii"])
    #expect(waitUntilBlocked(child.pid, in: "wait_for_partner"), "marquee blocked in open()")
    child.send(SIGTERM)
    let result = child.wait(timeout: 10)
    #expect(!result.timedOut && !result.signalled && result.status == 128 + SIGTERM, "\(result)")
    #expect(result.stderr.isEmpty, "a stop asked for is not an error: \(result.stderr)")
  }

  @Test(arguments: ["stdout", "spi-dump"])
  func aStopSignalEndsAProgramBlockedWritingToAStalledReader(_ output: String) throws {
    let fifo = temporary("\(output).fifo")
    try #require(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    // A reader that opens the pipe and never reads: the pipe fills and write() blocks.
    let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    try #require(reader >= 0)
    defer { close(reader) }
    let moving = ["--fps", "1000", "--speed", "1000", "A message that moves every frame"]
    let command = output == "stdout"
      ? "exec '\(BinaryRunner.path)' --output ascii \(moving.map { "'\($0)'" }.joined(separator: " ")) > '\(fifo)'"
      : "exec '\(BinaryRunner.path)' --board Boards/max7219-fc16-32x8.json --spi-dump '\(fifo)' \(moving.map { "'\($0)'" }.joined(separator: " "))"
    let child = try ChildProcess("/bin/sh", ["-c", command])
    #expect(waitUntilBlocked(child.pid, in: "pipe_write", "anon_pipe_write", "pipe_wait_writable"), "marquee blocked in write()")
    child.send(SIGTERM)
    let result = child.wait(timeout: 10)
    #expect(!result.timedOut, "SIGTERM did not end a program blocked on a stalled \(output)")
    #expect(!result.signalled && result.status == 128 + SIGTERM, "\(result)")
  }

  @Test func closedStandardDescriptorsAreSaidSoNotWrittenToOrReadAsEmpty() throws {
    let noOutput = try ChildProcess.shell("exec '\(BinaryRunner.path)' --output ascii --frames 1 X >&-")
    #expect(noOutput.status == 1)
    #expect(noOutput.stderr.contains("standard output is closed"))
    let noInput = try ChildProcess.shell("exec '\(BinaryRunner.path)' --stdin --output ascii --frames 1 <&-")
    #expect(noInput.status == 1)
    #expect(noInput.stderr.contains("standard input is closed"))
    // A dump file opened with standard output closed gets a descriptor of its own, not 1.
    let dump = temporary("closed-stdout.bin")
    defer { unlink(dump) }
    let board = try ChildProcess.shell(
      "exec '\(BinaryRunner.path)' --board Boards/max7219-fc16-32x8.json --spi-dump '\(dump)' --frames 3 X >&-")
    #expect(board.status == 0, "\(board.stderr)")
    #expect(((try? FileManager.default.attributesOfItem(atPath: dump)[.size] as? Int) ?? 0) > 0)
  }

  @Test func aFileSizeLimitIsAnErrorWithAMessage() throws {
    let dump = temporary("limited.bin")
    defer { unlink(dump) }
    let result = try ChildProcess.shell(
      "ulimit -f 1; exec '\(BinaryRunner.path)' --board Boards/max7219-fc16-32x8.json --spi-dump '\(dump)' --fps 1000 --speed 1000 'A message that moves every frame'")
    #expect(!result.timedOut && !result.signalled, "SIGXFSZ killed it")
    #expect(result.status == 1 && result.stderr.contains("File too large"), "\(result.stderr)")
    #expect(!result.stderr.contains("device removed"))
  }
}

/// Terminals that cannot draw the simulator get the plain frames.
@Suite(.offThePool) struct PlainTerminalTests {
  @Test(arguments: [["TERM": "dumb", "LANG": "C.UTF-8"], ["TERM": "xterm", "LANG": "C", "LC_ALL": "", "LC_CTYPE": ""]])
  func aDumbTerminalOrANonUTF8LocaleGetsPlainASCII(environment: [String: String]) throws {
    let leds = try BinaryRunner.run(["--output", "leds", "--frames", "3", "--no-wait", "--width", "16", "HI"], environment: environment)
    let ascii = try BinaryRunner.run(["--output", "ascii", "--frames", "3", "--no-wait", "--width", "16", "HI"])
    #expect(leds.status == 0)
    #expect(!leds.stdoutData.contains(0x1B), "no escape sequence")
    #expect(leds.stdout == ascii.stdout)
  }

  @Test func aUTF8TerminalGetsTheSimulator() throws {
    let leds = try BinaryRunner.run(["--output", "leds", "--frames", "1", "--width", "16", "HI"],
                                    environment: ["TERM": "xterm", "LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": ""])
    #expect(leds.stdoutData.contains(0x1B))
  }
}

import Foundation
import Drivers
import Platform

/// Heap allocations per steady-state frame of the real `marquee` program, in every display
/// mode: the binary runs twice under the allocation counter library
/// (`libMarqueeAllocationCounter.so`, preloaded), for `short` and `long` frames, and the
/// difference is divided by the extra frames, so start-up and shutdown cancel out. Every
/// frame changes (the scroll moves one column a frame), so every frame is encoded and sent.
struct ProgramAllocations {
  let marquee: String
  let counter: String
  let short = 200, long = 1200

  /// A display mode: its name, the arguments that select it and the sign's size.
  struct Mode {
    var name: String
    var arguments: [String]
    var openInput = false
    /// A file for standard input (feed lines read at the start).
    var inputFile: String?
    var width = 64, height = 8
    /// Extra environment (the fake kernel for the spidev mode).
    var environment: [String: String] = [:]
    /// Frames before the steady state is sure to have come, added to both runs: half a
    /// second by default, for the threads a mode starts (schedule, server, reader) to have
    /// run their first look even on a loaded machine, so the short run does not miss what
    /// the long one counts.
    var settling = 500
  }

  static func modes(
    board: String, fakeKernel: String, schedule: String, notification: String, broker: UInt16?, icons: String, pi: String, sources: String
  ) -> [Mode] {
    let moving = ["--fps", "1000", "--speed", "1000"]
    let message = "Allocation-free frames in every display"
    // With a broker: the sign connected to it, a message showing a topic's retained value.
    let mqtt = broker.map { port in
      [Mode(name: "serve-mqtt", arguments: ["serve", "--listen", "127.0.0.1:0", "--output", "ascii", "--mqtt", "mqtt://127.0.0.1:\(port)",
                                            "--mqtt-topic", "bench/allocs"] + moving + ["Outside {mqtt:bench/outside/temp|--}°C, allocation-free"],
            // Three seconds for the connection, the subscription and the retained value to
            // come, even on a loaded machine.
            settling: 3000)]
    } ?? []
    return mqtt + [
      Mode(name: "terminal", arguments: ["--output", "leds"] + moving + [message]),
      Mode(name: "ascii", arguments: ["--output", "ascii"] + moving + [message]),
      Mode(name: "board-simulate", arguments: ["--board", board, "--simulate", "--output", "leds"] + moving + [message], width: 32),
      // The spidev transport, its ioctls answered by the fake kernel the tests use.
      Mode(name: "board-spidev", arguments: ["--board", board] + moving + [message], width: 32,
           environment: ["LD_PRELOAD": fakeKernel, "MARQUEE_FAKE_SPIDEV": "/dev/spidev0.0"]),
      Mode(name: "board-spi-dump", arguments: ["--board", board, "--spi-dump", "/dev/null"] + moving + [message], width: 32),
      // The other chip families, each through the fake kernel as the tests run them.
      Mode(name: "ht16k33-i2c", arguments: ["--board", "ht16k33-adafruit-32x8"] + moving + [message], width: 32,
           environment: ["LD_PRELOAD": fakeKernel, "MARQUEE_FAKE_I2C": "/dev/i2c-1=70,71,72,73"]),
      Mode(name: "ht16k33-i2c-dump", arguments: ["--board", "ht16k33-adafruit-32x8", "--i2c-dump", "/dev/null"] + moving + [message],
           width: 32),
      Mode(name: "ht16k33-simulate", arguments: ["--board", "ht16k33-adafruit-32x8", "--simulate", "--output", "leds"] + moving + [message],
           width: 32),
      Mode(name: "ws2812-spidev", arguments: ["--board", "ws2812-8x32"] + moving + [message], width: 32,
           environment: ["LD_PRELOAD": fakeKernel, "MARQUEE_FAKE_SPIDEV": "/dev/spidev0.0"]),
      Mode(name: "ws2812-simulate", arguments: ["--board", "ws2812-8x32", "--simulate", "--output", "leds"] + moving + [message],
           width: 32),
      Mode(name: "hub12-scan", arguments: ["--board", "hub12-p10-128x16"] + moving + [message], width: 128, height: 16,
           environment: ["LD_PRELOAD": fakeKernel, "MARQUEE_FAKE_SPIDEV": "/dev/spidev0.0", "MARQUEE_FAKE_GPIOCHIP": "/dev/gpiochip0=54"]),
      Mode(name: "hub12-simulate", arguments: ["--board", "hub12-p10-128x16", "--simulate", "--output", "leds"] + moving + [message],
           width: 128, height: 16),
      // HUB75: the refresh thread on registers the fake kernel serves from a file, as on a
      // Pi 4; its trace; its emulated panels.
      Mode(name: "hub75-scan", arguments: ["--board", "hub75-p4-64x32"] + moving + [message], width: 64, height: 32,
           environment: ["LD_PRELOAD": fakeKernel, "MARQUEE_FAKE_GPIOMEM": pi + "/gpiomem", "MARQUEE_FAKE_DEVICE_TREE": pi]),
      Mode(name: "hub75-dump", arguments: ["--board", "hub75-p4-64x32", "--hub75-dump", "/dev/null"] + moving + [message], width: 64, height: 32),
      Mode(name: "hub75-simulate", arguments: ["--board", "hub75-p10-outdoor-32x16", "--simulate", "--output", "leds"] + moving + [message],
           width: 32, height: 16),
      Mode(name: "apa102-spidev", arguments: ["--board", "apa102-16x16"] + moving + [message], width: 16, height: 16,
           environment: ["LD_PRELOAD": fakeKernel, "MARQUEE_FAKE_SPIDEV": "/dev/spidev0.0"]),
      // The sign with its HTTP server beside it (no client: the frame loop and the idle server).
      Mode(name: "serve", arguments: ["serve", "--listen", "127.0.0.1:0", "--output", "ascii"] + moving + [message]),
      Mode(name: "layout-zones", arguments: ["--layout", "Docs/examples/two-zones.json", "--output", "ascii"] + moving),
      // Icons in the scrolling line.
      Mode(name: "icons", arguments: ["--output", "ascii"] + moving + ["{icon:train} Berlin {icon:arrow-right} 3 {icon:clock} 12:05"]),
      // An animated GIF icon (four frames of 20 ms) in the scrolling line.
      Mode(name: "icons-animated", arguments: ["--icons", icons, "--output", "ascii"] + moving + ["{icon:spin} Please wait {icon:spin}"]),
      // Pages of wrapped text on a 32x16 sign, turning every 50 ms.
      Mode(name: "pages", arguments: ["--mode", "pages", "--height", "16", "--width", "32", "--dwell", "0.05", "--duration", "0.1",
                                     "--output", "ascii", "--fps", "1000", "Platform 3: the 12:05 to Berlin is delayed by ten minutes"],
           width: 32, height: 16),
      // Right-to-left Arabic with Latin and numbers (joined, reordered once per message):
      // the ribbon scrolling right, and pages on a 64x32 sign.
      Mode(name: "rtl", arguments: ["--font", "5x7,unifont", "--height", "16", "--output", "ascii"] + moving + [TextLayout.mixedMessage(length: 120)],
           height: 16),
      Mode(name: "rtl-pages", arguments: ["--mode", "pages", "--font", "unifont", "--width", "64", "--height", "32", "--dwell", "0.05",
                                         "--duration", "0.1", "--output", "ascii", "--fps", "1000", TextLayout.mixedMessage(length: 200)],
           width: 64, height: 32),
      Mode(name: "cycle", arguments: ["--mode", "cycle", "--in", "scroll-up+fade", "--dwell", "0.05", "--duration", "0.1",
                                     "--output", "ascii", "--fps", "1000", "One", "Two", "Three"]),
      Mode(name: "stdin-idle", arguments: ["--stdin", "--output", "ascii"] + moving + [message], openInput: true),
      // A notification over the ticker for the whole run, from a feed line at the start.
      Mode(name: "notification", arguments: ["--stdin", "--output", "ascii"] + moving + [message], inputFile: notification),
      // A program, a brightness level and an off period that never ends the run: the
      // schedule's thread and the dimming and darkening display in the frame loop.
      Mode(name: "schedule", arguments: ["--config", schedule, "--output", "ascii"] + moving),
      Mode(name: "schedule-off", arguments: ["--config", schedule + ".off", "--output", "ascii"] + moving),
      // The off period on a chip board: the chips asleep and the frame loop resting.
      // Live data sources: a departure list (one message per item) and a value in a line,
      // fetched by the sources' thread once at the start (both runs), the frames after it.
      Mode(name: "sources", arguments: ["--config", sources, "--output", "ascii"] + moving, settling: 500),
      Mode(name: "schedule-off-board", arguments: ["--config", schedule + ".off", "--board", board, "--spi-dump", "/dev/null"] + moving,
           width: 32),
    ]
  }

  /// Sleeps into the next minute when fewer than `seconds` are left in this one.
  static func waitForRoomInTheMinute(seconds: Double) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let intoMinute = Double(now.tv_sec % 60) + Double(now.tv_nsec) / 1e9
    if 60 - intoMinute < seconds { SignClock.kernelSleep(60 - intoMinute + 0.2) }
  }

  /// A 5x5 bar turning in four frames of 20 ms, as a GIF.
  func writeSpinner(to path: String) {
    guard var gif = try? GIFWriter(width: 5, height: 5, palette: [(0, 0, 0), (255, 255, 255)]) else { return }
    let bars: [[Int]] = [[2, 7, 12, 17, 22], [4, 8, 12, 16, 20], [10, 11, 12, 13, 14], [0, 6, 12, 18, 24]]
    for bar in bars {
      var indices = [UInt8](repeating: 0, count: 25)
      for index in bar { indices[index] = 1 }
      gif.addFrame(indices, delay: 2)
    }
    let bytes = gif.finished()
    guard let file = fopen(path, "w") else { return }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
  }

  /// Debian's mosquitto on a free loopback port, with a retained value on the topic the
  /// serve-mqtt mode's message shows; nil without mosquitto and mosquitto_pub.
  func startBroker() -> (pid: pid_t, port: UInt16)? {
    guard let mosquitto = ChildProcess.find("mosquitto"), let publish = ChildProcess.find("mosquitto_pub"), let port = ChildProcess.freePort(),
      let pid = ChildProcess.start([mosquitto, "-p", "\(port)"])
    else { return nil }
    // The broker answers within a few hundred milliseconds; the value is retained once it does.
    for _ in 0..<50 {
      if let run = ChildProcess.run([publish, "-h", "127.0.0.1", "-p", "\(port)", "-r", "-t", "bench/outside/temp", "-m", "7.5"]), run.status == 0 {
        return (pid, port)
      }
      SignClock.kernelSleep(0.1)
    }
    ChildProcess.stop(pid)
    return nil
  }

  /// The counter's total and the CPU time of one run, or `nil` if the run failed.
  func count(_ mode: Mode, frames: Int) -> (allocations: Int, cpuNs: Int64)? {
    let report = "/tmp/marquee-bench-allocations-\(getpid())"
    defer { unlink(report) }
    var environment = mode.environment
    environment["LD_PRELOAD"] = ([counter] + (mode.environment["LD_PRELOAD"].map { [$0] } ?? [])).joined(separator: " ")
    environment["MARQUEE_ALLOCATION_REPORT"] = report
    guard let run = ChildProcess.run([marquee] + mode.arguments + ["--frames", "\(frames)"], environment: environment,
                                     openInput: mode.openInput, inputFile: mode.inputFile),
      run.status == 0, let file = fopen(report, "r")
    else { return nil }
    defer { fclose(file) }
    var text = [CChar](repeating: 0, count: 32)
    guard fgets(&text, 32, file) != nil, let value = Int(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).filter(\.isNumber)) else { return nil }
    return (value, run.cpuNs)
  }

  func run() {
    let board = "/tmp/marquee-bench-allocations-board-\(getpid()).json"
    guard let file = fopen(board, "w") else { return }
    fputs(#"{"driver": "max7219", "module": "fc16", "grid": {"columns": 4, "rows": 1}}"#, file)
    fclose(file)
    defer { unlink(board) }
    // Programs due all day (the only change at midnight), so no switch falls in a run.
    let schedule = "/tmp/marquee-bench-allocations-schedule-\(getpid()).json"
    for (path, off) in [(schedule, ""), (schedule + ".off", #", "off": [{"times": ["00:00-24:00"]}]"#)] {
      guard let file = fopen(path, "w") else { return }
      fputs(#"{"programs": [{"name": "day", "times": ["00:00-24:00"], "messages": ["Allocation-free frames on a schedule"]}], "# +
        #""brightness": [{"at": "00:00", "level": 9}]"# + off + "}", file)
      fclose(file)
    }
    defer {
      unlink(schedule)
      unlink(schedule + ".off")
    }
    let notification = "/tmp/marquee-bench-allocations-notification-\(getpid())"
    guard let lines = fopen(notification, "w") else { return }
    fputs(#"{"notify": {"messages": ["A notification that scrolls over the ticker"], "duration": 3600, "in": "fade"}}"# + "\n", lines)
    fclose(lines)
    defer { unlink(notification) }
    let fakeKernel = ChildProcess.ownFolder + "/libMarqueeFakeKernel.so"
    let broker = startBroker()
    defer { if let broker { ChildProcess.stop(broker.pid) } }
    if broker == nil { print("marquee-bench scenario=allocs-serve-mqtt skipped: needs the Debian packages mosquitto and mosquitto-clients") }
    let icons = "/tmp/marquee-bench-allocations-icons-\(getpid())"
    mkdir(icons, 0o755)
    defer {
      unlink(icons + "/spin.gif")
      rmdir(icons)
    }
    writeSpinner(to: icons + "/spin.gif")
    // A Pi 4 as the fake kernel shows it: its device tree and a file for /dev/gpiomem.
    let pi = "/tmp/marquee-bench-allocations-pi-\(getpid())"
    mkdir(pi, 0o755)
    let piFiles: [(String, [UInt8])] = [
      ("compatible", Array("raspberrypi,4-model-b\0brcm,bcm2711\0".utf8)), ("model", Array("Raspberry Pi 4 Model B\0".utf8)),
      ("gpiomem", [UInt8](repeating: 0, count: 4096)),
    ]
    for (name, bytes) in piFiles {
      guard let file = fopen(pi + "/" + name, "w") else { return }
      fwrite(bytes, 1, bytes.count, file)
      fclose(file)
    }
    defer {
      for (name, _) in piFiles { unlink(pi + "/" + name) }
      rmdir(pi)
    }
    // A config with two live sources read from files.
    let sources = "/tmp/marquee-bench-allocations-sources-\(getpid())"
    let sourceFiles: [(String, String)] = [
      (sources + ".json", #"{"sources": [{"name": "bus", "url": "\#(sources)-bus.json", "every": 600, "json": "/departures"}, "#
        + #"{"name": "weather", "url": "\#(sources)-weather.json", "every": 600, "json": "current.t", "format": "{0:.1f}°C"}], "#
        + #""mode": "cycle", "dwell": 0.05, "duration": 0.1, "messages": ["{source:bus}", "Outside {source:weather}"]}"#),
      (sources + "-bus.json", #"{"departures": ["7 Airport 2 min", "12 Harbour 9 min"]}"#),
      (sources + "-weather.json", #"{"current": {"t": 3.25}}"#),
    ]
    for (path, text) in sourceFiles { try? FileBytes.write(Array(text.utf8), to: path) }
    defer { for (path, _) in sourceFiles { unlink(path) } }
    let modes = ProgramAllocations.modes(
      board: board, fakeKernel: fakeKernel, schedule: schedule, notification: notification, broker: broker?.port, icons: icons, pi: pi,
      sources: sources + ".json")
    for mode in modes {
      // A clock's text changes at the minute (a new strip is laid out): both runs fall
      // within one minute, so no mode counts that once-a-minute change as per-frame.
      // A one-off event that lands in one run and not the other (a broker's answer late on a
      // loaded machine) reads as allocations per frame, up or down; one that recurs each
      // frame shows in every attempt. So a mode over the bar is measured again, at most
      // three times in all, and the attempt nearest zero is its figure.
      var best: (before: (allocations: Int, cpuNs: Int64), after: (allocations: Int, cpuNs: Int64))?
      var attempts = 0
      while attempts < 3 {
        attempts += 1
        ProgramAllocations.waitForRoomInTheMinute(seconds: 8)
        guard let before = count(mode, frames: short + mode.settling), let after = count(mode, frames: long + mode.settling) else { break }
        if best == nil || abs(after.allocations - before.allocations) < abs(best!.after.allocations - best!.before.allocations) { best = (before, after) }
        if abs(Double(best!.after.allocations - best!.before.allocations)) / Double(long - short) <= 0.01 { break }
      }
      guard let (before, after) = best else {
        print("marquee-bench scenario=allocs-\(mode.name) error=marquee-did-not-run")
        continue
      }
      let frames = Double(long - short)
      var line = ResultLine(scenario: "allocs-\(mode.name)", width: mode.width, height: mode.height)
      // CPU per frame of the whole program (render, display, pacing), start-up cancelled out.
      line.add("us_per_frame", Double(after.cpuNs - before.cpuNs) / 1000 / frames)
      line.add("allocs_per_frame", Double(after.allocations - before.allocations) / frames, decimals: 3)
      line.add("allocs_at_start", before.allocations)
      line.add("attempts", attempts)
      line.print()
    }
  }
}

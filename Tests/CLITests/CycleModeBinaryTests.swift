import BitmapFonts
import Foundation
import Marquee
import Testing

@Suite(.offThePool) struct CycleModeBinaryTests {
  static let effectNames: [String] = {
    guard let result = try? BinaryRunner.run(["effects"]), result.status == 0 else { return [] }
    return result.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
  }()

  @Test func effectsListsOneEffectPerLineWithADescription() throws {
    let result = try BinaryRunner.run(["effects"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count >= 34)
    for line in lines {
      let words = line.split(separator: " ")
      #expect(words.count >= 3, "\(line)")
    }
    #expect(CycleModeBinaryTests.effectNames.contains("scroll-up"))
    #expect(CycleModeBinaryTests.effectNames.contains("sprite"))
  }

  @Test(arguments: effectNames)
  func everyEffectShowsAThenNeitherThenB(name: String) throws {
    let arguments = [
      "--width", "32", "--height", "8", "--align", "center", "--mode", "cycle", "--in", name,
      "--dwell", "1", "--duration", "0.5", "--fps", "20", "--frames", "80", "--no-wait",
      "--output", "ascii", "A", "B",
    ]
    let result = try BinaryRunner.run(arguments)
    #expect(result.status == 0, "\(result.stderr)")
    let frames = asciiFrames(result.stdout)
    try #require(frames.count == 80)
    let a = frames[0], b = frames[35]
    #expect(a != b)
    #expect(frames[0..<20].allSatisfy { $0 == a }, "A stands for the dwell")
    #expect(frames[31..<50].allSatisfy { $0 == b }, "B stands for the dwell")
    if name != "print" {
      #expect(frames[21..<30].contains { $0 != a && $0 != b }, "frames in between are neither")
    }
    #expect(frames[61..<80].allSatisfy { $0 == a }, "and A again")
  }

  @Test func frameIAt10FPSEqualsFrame2IAt20FPS() throws {
    let common = [
      "--width", "32", "--mode", "cycle", "--in", "random", "--out", "fade+scroll-up", "--dwell", "0.4",
      "--duration", "0.8", "--no-wait", "--output", "ascii", "ONE", "TWO", "THREE",
    ]
    let slow = asciiFrames(try BinaryRunner.run(common + ["--fps", "10", "--frames", "40"]).stdout)
    let fast = asciiFrames(try BinaryRunner.run(common + ["--fps", "20", "--frames", "80"]).stdout)
    try #require(slow.count == 40 && fast.count == 80)
    for i in 0..<40 { #expect(slow[i] == fast[2 * i], "frame \(i)") }
  }

  @Test func badEffectNamesAreUsageErrors() throws {
    let result = try BinaryRunner.run(["--mode", "cycle", "--in", "fade+wipee", "A"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix(
      "Error: Invalid value for '--in <effect[+effect...]>': unknown effect 'wipee'; 'marquee effects' lists them"))
    let near = try BinaryRunner.run(["--mode", "cycle", "--in", "scrol-up", "A"])
    #expect(near.status == 64)
    #expect(near.stderr.contains("unknown effect 'scrol-up' (did you mean 'scroll-up'?)"))
  }

  @Test func aMissingSpriteFileIsARuntimeErrorNamingIt() throws {
    let result = try BinaryRunner.run(["--mode", "cycle", "--in", "sprite", "--sprite", "/nonexistent/sprite.txt", "A"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("Error: /nonexistent/sprite.txt: No such file or directory"))
  }

  @Test func invertLightsTheBackground() throws {
    let result = try BinaryRunner.run(["--width", "8", "--frames", "1", "--output", "ascii", "--invert", "."])
    let frame = try #require(asciiFrames(result.stdout).first)
    #expect(frame.joined().filter { $0 == "#" }.count == 64 - 4)
  }

  /// The same sign in another process, at another frame rate or with another seed: the
  /// frames are a function of time and seed only.
  @Test func framesDependOnTimeAndSeedOnlyAcrossProcessesAndFrameRates() throws {
    func frames(fps: Int, count: Int, seed: Int) throws -> [[String]] {
      let result = try BinaryRunner.run(
        ["--mode", "cycle", "--in", "random", "--dwell", "0.2", "--duration", "0.5", "--seed", "\(seed)",
         "--width", "32", "--height", "8", "--no-wait", "--output", "ascii", "--fps", "\(fps)", "--frames", "\(count)",
         "AAAA", "BBBB"])
      #expect(result.status == 0)
      return asciiFrames(result.stdout)
    }
    let at20 = try frames(fps: 20, count: 40, seed: 5)
    let at40 = try frames(fps: 40, count: 80, seed: 5)
    try #require(at20.count == 40 && at40.count == 80)
    // Frame i at 20 fps and frame 2i at 40 fps are the same instant, i / 20 s.
    for index in at20.indices { #expect(at20[index] == at40[2 * index], "t = \(Double(index) / 20) s") }
    #expect(try frames(fps: 20, count: 40, seed: 5) == at20, "another process, the same frames")
    let otherSeed = try frames(fps: 20, count: 40, seed: 6)
    #expect(otherSeed != at20, "another seed reveals the pixels in another order")
    #expect(otherSeed.first == at20.first, "but starts the same")
  }
}

/// `--loops N` and `--once`: the run ends after whole loops of the content.
@Suite(.offThePool) struct LoopsBinaryTests {
  let message = "A message longer than the sign"

  @Test func onceIsOnePassOfTheRibbonAndTheNextFrameIsTheFirstAgain() throws {
    // 40 px/s at 40 fps: one column a frame, so a pass is as many frames as the ribbon is wide.
    let ribbon = TextRenderer().measure(message) + MarqueeSettings().gap
    let common = ["--no-wait", "--output", "ascii", "--width", "32", "--speed", "40", "--fps", "40", message]
    let once = asciiFrames(try BinaryRunner.run(["--once"] + common).stdout)
    #expect(once.count == ribbon)
    let more = asciiFrames(try BinaryRunner.run(["--frames", "\(ribbon + 1)"] + common).stdout)
    #expect(Array(more.prefix(ribbon)) == once)
    #expect(more[ribbon] == once[0], "after one pass the sign shows its first frame again")
  }

  @Test func loopsCountRoundsOfTheCycle() throws {
    let period = try CycleTimeline(
      messages: ["A", "B", "C"], renderer: TextRenderer(), width: 32, height: 8,
      settings: CycleSettings(dwell: 0.5, transition: Transition(entry: try EffectCatalog.parse("scroll-up"), duration: 0.25))
    ).period
    let result = try BinaryRunner.run(
      ["--mode", "cycle", "--loops", "2", "--dwell", "0.5", "--duration", "0.25", "--no-wait", "--output", "ascii",
       "--width", "32", "--fps", "20", "A", "B", "C"])
    #expect(result.status == 0)
    #expect(asciiFrames(result.stdout).count == Int((2 * period * 20).rounded(.up)))
  }

  @Test func aStillSignLoopsInOneFrameAndOnlyOneWayToEndIsTaken() throws {
    #expect(asciiFrames(try BinaryRunner.run(["--once", "--no-wait", "--output", "ascii", "--width", "32", "Hi"]).stdout).count == 1)
    #expect(try BinaryRunner.run(["--once", "--frames", "3", "X"]).status == 64)
    #expect(try BinaryRunner.run(["--loops", "2", "--once", "X"]).status == 64)
    #expect(try BinaryRunner.run(["--loops", "0", "X"]).status == 64)
  }

  @Test(.enabled(if: gifsicleAvailable, "needs the Debian package gifsicle"))
  func aGIFOfOnePassHoldsExactlyThoseFrames() throws {
    let gif = NSTemporaryDirectory() + "marquee-\(getpid())-once.gif"
    defer { try? FileManager.default.removeItem(atPath: gif) }
    let ribbon = TextRenderer().measure(message) + MarqueeSettings().gap
    let result = try BinaryRunner.run(["--once", "--gif", gif, "--width", "32", "--speed", "40", "--fps", "40", message])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try shell("gifsicle --info '\(gif)'").contains("\(ribbon) images"))
  }
}

/// Pages (翻页) through the real binary: a long message wrapped into two-line pages of a
/// 32x16 sign that take turns.
@Suite(.offThePool) struct PagesModeBinaryTests {
  @Test func aLongMessageTurnsPagesOfTwoLines() throws {
    let result = try BinaryRunner.run(["--mode", "pages", "--width", "32", "--height", "16", "--dwell", "1", "--duration", "0",
                                       "--fps", "1", "--frames", "3", "--no-wait", "--output", "ascii", "Hello there world"])
    #expect(result.status == 0, "\(result.stderr)")
    let frames = result.stdout.components(separatedBy: "\n\n").map { $0.split(separator: "\n").map(String.init) }.filter { !$0.isEmpty }
    func line(_ text: String) throws -> [String] {
      let one = try BinaryRunner.run(["--width", "32", "--height", "8", "--frames", "1", "--output", "ascii", text])
      return one.stdout.split(separator: "\n").map(String.init)
    }
    // Page 1: "Hello" over "there"; page 2: "world", alone and centred down the sign.
    #expect(frames.count == 3)
    let hello = try line("Hello"), there = try line("there"), world = try line("world")
    #expect(Array(frames[0][0..<8]) == hello && Array(frames[0][8..<16]) == there)
    #expect(Array(frames[1][4..<12]) == world && frames[1][0..<4].allSatisfy { !$0.contains("#") })
    #expect(frames[2] == frames[0])
  }

  @Test func lineSpacingNeedsPagesOrCycle() throws {
    let result = try BinaryRunner.run(["--line-spacing", "2", "x"])
    #expect(result.status == 64 && result.stderr.contains("'--line-spacing' applies in cycle mode only"), "\(result.stderr)")
  }
}

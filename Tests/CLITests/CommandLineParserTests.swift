import Marquee
import Testing

@testable import MarqueeCLI

@Suite struct CommandLineParserTests {
  func options(_ arguments: [String]) throws -> RunOptions {
    guard case .run(let options) = try CommandLineParser.parse(arguments) else {
      throw UsageError("not a run")
    }
    return options
  }

  @Test func defaultsSuitA64x8Sign() throws {
    let parsed = try options(["Hello"])
    #expect(parsed.messages == ["Hello"])
    #expect(parsed.width == 64 && parsed.height == 8)
    #expect(parsed.output == nil && parsed.frames == nil)
  }

  @Test func readsEveryOptionInBothSpellings() throws {
    let parsed = try options([
      "--width", "32", "--height=16", "--speed", "12.5", "--fps", "25", "--gap", "3",
      "--direction", "right", "--align=center", "--valign", "top", "--mode", "scroll",
      "--letter-spacing", "2", "--frames", "6", "--no-wait", "--output", "ascii", "--no-color",
      "A", "B",
    ])
    #expect(parsed.width == 32 && parsed.height == 16)
    #expect(parsed.marquee.speed == 12.5 && parsed.fps == 25 && parsed.marquee.gap == 3)
    #expect(parsed.marquee.direction == .right && parsed.marquee.alignment == .center)
    #expect(parsed.marquee.verticalAlignment == .top && parsed.mode == .scroll)
    #expect(parsed.letterSpacing == 2 && parsed.frames == 6 && parsed.noWait)
    #expect(parsed.output == .ascii && !parsed.color)
    #expect(parsed.messages == ["A", "B"])
  }

  @Test func doubleDashEndsOptions() throws {
    #expect(try options(["--", "--width", "-x"]).messages == ["--width", "-x"])
  }

  @Test func helpAndVersion() throws {
    #expect(try CommandLineParser.parse(["-h"]) == .help)
    #expect(try CommandLineParser.parse(["x", "--help"]) == .help)
    #expect(try CommandLineParser.parse(["--version"]) == .version)
  }

  @Test(arguments: [
    (["--speeed", "3", "x"], "Unknown option '--speeed'. Did you mean '--speed'?"),
    (["--bogus", "x"], "Unknown option '--bogus'."),
    (["--width", "0", "x"], "The value '0' is invalid for '--width <pixels>': must be from 1 to 4096."),
    (["--width", "100000", "x"], "The value '100000' is invalid for '--width <pixels>': must be from 1 to 4096."),
    (["--speed", "abc", "x"], "The value 'abc' is invalid for '--speed <px-per-second>': not a finite number."),
    (["--speed", "-1", "x"], "The value '-1' is invalid for '--speed <px-per-second>': must be from 0 to 100000."),
    (["--speed", "nan", "x"], "The value 'nan' is invalid for '--speed <px-per-second>': not a finite number."),
    (["--fps", "0", "x"], "'--fps' must be greater than 0."),
    (["--direction", "up", "x"], "The value 'up' is invalid for '--direction <direction>': use one of left, right."),
    (["--width"], "Missing value for '--width <pixels>'"),
    (["--no-wait=yes", "x"], "The flag '--no-wait' does not take a value (got 'yes')."),
    ([], "Missing expected argument '<message> ...'"),
  ])
  func usageErrorsSayWhatIsWrong(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try CommandLineParser.parse(arguments) }
  }

  @Test func helpListsEveryOption() {
    let help = HelpText.full
    #expect(help.hasPrefix("OVERVIEW: "))
    #expect(help.contains("USAGE: marquee [<options>] <message> ..."))
    for option in CommandLineParser.options {
      #expect(help.contains("--\(option.name)"))
    }
  }
}

@Suite struct FeedLineTests {
  @Test(arguments: ["name", "x", "y", "width", "height"])
  func layoutOnlyKeysAreRefusedWithTheirReason(key: String) {
    let reason = FeedLineCheck.process(#"{"message": "hi", "\#(key)": 3}"#)
    #expect(reason == "field '\(key)': a feed line cannot rename, move or resize a zone; '\(key)' belongs in the layout file")
  }

  @Test func contentKeysAreStillTaken() {
    #expect(FeedLineCheck.process(#"{"message": "hi", "speed": 30, "align": "center"}"#) == nil)
    #expect(FeedLineCheck.process(#"{"message": "\u+123"}"#)?.contains("invalid \\u escape") == true)
  }
}

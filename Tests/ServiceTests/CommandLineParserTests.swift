import Marquee
import SimpleJSON
import Testing

@testable import MarqueeCLI
@testable import SignService

@Suite struct CommandLineParserTests {
  func options(_ arguments: [String]) throws -> RunOptions {
    guard case .run(let options) = try CommandLineParser.parse(arguments) else {
      throw UsageError("not a run")
    }
    return options
  }

  @Test func defaultsSuitA64x8Sign() throws {
    let parsed = try options(["Hello"])
    #expect(parsed.zone.messages == ["Hello"])
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
    #expect(parsed.zone.speed == 12.5 && parsed.fps == 25 && parsed.zone.gap == 3)
    #expect(parsed.zone.direction == .right && parsed.zone.alignment == .center)
    #expect(parsed.zone.verticalAlignment == .top && parsed.zone.mode == .scroll)
    #expect(parsed.zone.letterSpacing == 2 && parsed.frames == 6 && parsed.noWait)
    #expect(parsed.output == .ascii && !parsed.color)
    #expect(parsed.zone.messages == ["A", "B"])
  }

  @Test func doubleDashEndsOptions() throws {
    #expect(try options(["--", "--width", "-x"]).zone.messages == ["--width", "-x"])
  }

  @Test func helpAndVersion() throws {
    #expect(try CommandLineParser.parse(["-h"]) == .help)
    #expect(try CommandLineParser.parse(["x", "--help"]) == .help)
    #expect(try CommandLineParser.parse(["--version"]) == .version)
  }

  @Test(arguments: [
    (["--speeed", "3", "x"], "Unknown option '--speeed'. Did you mean '--speed'?"),
    (["--bogus", "x"], "Unknown option '--bogus'."),
    (["--width", "0", "x"], "Invalid value for '--width <pixels>': 0 is out of range (1 to 4096)"),
    (["--width", "100000", "x"], "Invalid value for '--width <pixels>': 100000 is out of range (1 to 4096)"),
    (["--speed", "abc", "x"], "Invalid value for '--speed <px-per-second>': expected a number from 0 to 100000, got the string \"abc\""),
    (["--speed", "-1", "x"], "Invalid value for '--speed <px-per-second>': -1 is out of range (0 to 100000)"),
    (["--speed", "nan", "x"], "Invalid value for '--speed <px-per-second>': expected a number from 0 to 100000, got the string \"nan\""),
    (["--width", "0x10", "x"], "Invalid value for '--width <pixels>': expected a whole number from 1 to 4096, got the string \"0x10\""),
    (["--fps", "0", "x"], "Invalid value for '--fps <frames-per-second>': must be greater than 0"),
    (["--direction", "up", "x"], "Invalid value for '--direction <auto|left|right>': 'up' is not one of auto, left, right"),
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
    for option in Option.all where option.places.contains(.commandLine) {
      #expect(help.contains("--\(option.name)"))
    }
  }
}

/// The one option model: an option means the same on the command line, in a layout zone and
/// in a feed line, and one that would be ignored is refused.
@Suite struct OptionModelTests {
  /// A value for each option zones take, as text and as JSON.
  static let samples: [String: (text: String, json: String)] = [
    "speed": ("37.5", "37.5"), "gap": ("3", "3"), "direction": ("right", #""right""#), "text-direction": ("rtl", #""rtl""#),
    "align": ("center", #""center""#), "valign": ("top", #""top""#), "mode": ("cycle", #""cycle""#),
    "dwell": ("4", "4"), "in": ("fade+scroll-up", #""fade+scroll-up""#), "out": ("wipe-left", #""wipe-left""#),
    "duration": ("0.25", "0.25"), "ease": ("ease-in", #""ease-in""#),
    "seed": ("9007199254740991", "9007199254740991"), "invert": ("", "true"), "flip": ("hv", #""hv""#),
    "font": ("3x5,5x7", #""3x5,5x7""#), "fit": ("shrink", #""shrink""#), "letter-spacing": ("2", "2"), "line-spacing": ("2", "2"), "color": ("#00ff80", ##""#00FF80""##),
  ]

  /// The zone options are exactly `ZoneOptions`: each changes only `RunOptions.zone`, and
  /// every field of `ZoneOptions` but the messages is some zone option's.
  @Test func theZoneKeysAreExactlyTheZonesOptions() throws {
    var reached: Set<String> = ["messages"]
    for option in Option.zoneOptions {
      let sample = try #require(OptionModelTests.samples[option.name])
      var options = RunOptions()
      try option.applyText(option.placeholder == nil ? nil : sample.text, &options)
      var rest = options
      rest.zone = ZoneOptions()
      #expect(rest == RunOptions(), "'--\(option.name)' changes the sign's own options")
      let before = Mirror(reflecting: ZoneOptions()).children, after = Mirror(reflecting: options.zone).children
      for (old, new) in zip(before, after) where "\(old.value)" != "\(new.value)" { reached.insert(old.label ?? "") }
    }
    let fields = Set(Mirror(reflecting: ZoneOptions()).children.compactMap(\.label))
    #expect(fields == reached, "fields no zone option sets: \(fields.subtracting(reached).sorted())")
    // And no sign option reaches into a zone's.
    for option in Option.all where !option.places.contains(.zone) {
      var options = RunOptions()
      let text = option.placeholder == nil ? nil : "1"
      guard (try? option.applyText(text, &options)) != nil else { continue }
      #expect(options.zone == ZoneOptions(), "'--\(option.name)' is the sign's and changes a zone's options")
    }
  }

  @Test(arguments: Option.zoneOptions.map(\.name))
  func aZoneOptionMeansTheSameOnTheCommandLineAndInJSON(name: String) throws {
    let option = try #require(Option.all.first { $0.name == name })
    let sample = try #require(OptionModelTests.samples[name], "add a sample for the new zone option '\(name)'")
    var fromText = RunOptions()
    try option.applyText(option.placeholder == nil ? nil : sample.text, &fromText)
    var fromJSON = RunOptions()
    try LayoutFile.apply(try JSONFields(JSONParser.parse(#"{"\#(option.key)": \#(sample.json)}"#)), to: &fromJSON.zone)
    #expect(fromText == fromJSON)
    #expect(fromText != RunOptions(), "the sample changes something")
    // Feed lines take the same keys, but a zone's colour, fixed when the display is set up.
    // A cycle-mode option goes with the mode, as on the command line.
    let mode = option.needs == .cycleMode ? #", "mode": "cycle""# : ""
    let fed = try feedLine(#"{"message": "x", "\#(option.key)": \#(sample.json)\#(mode)}"#)
    if name == "color" {
      #expect(fed?.contains("an update cannot change it") == true, "\(fed ?? "taken")")
    } else {
      #expect(fed == nil, "\(fed ?? "")")
    }
  }

  @Test(arguments: [
    (["--in", "fade", "X"], "'--in' applies in cycle mode only: add '--mode cycle'."),
    (["--dwell", "3", "X"], "'--dwell' applies in cycle mode only: add '--mode cycle'."),
    (["--out", "fade", "X"], "'--out' applies in cycle mode only: add '--mode cycle'."),
    (["--duration", "1", "X"], "'--duration' applies in cycle mode only: add '--mode cycle'."),
    (["--ease", "ease-in", "X"], "'--ease' applies in cycle mode only: add '--mode cycle'."),
    (["--sprite", "s.txt", "X"], "'--sprite' applies in cycle mode only: add '--mode cycle'."),
    (["--seconds", "3", "X"], "'--seconds' needs '--gif <file>'."),
    (["--gif-scale", "2", "X"], "'--gif-scale' needs '--gif <file>'."),
    (["--keep", "X"], "'--keep' needs '--board <name|file>'."),
    (["--on-eof", "exit", "X"], "'--on-eof' needs '--stdin'."),
  ])
  func anOptionThatWouldBeIgnoredIsAUsageError(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try CommandLineParser.parse(arguments) }
  }

  @Test func cycleOptionsAreTakenWhereAZoneCanCycle() throws {
    for extra in [["--mode", "cycle", "X"], ["--layout", "l.json"], ["--stdin"]] {
      #expect(throws: Never.self) { try CommandLineParser.parse(["--in", "fade", "--dwell", "1"] + extra) }
    }
  }

  @Test func theSeedHasOneRangeEverywhere() throws {
    #expect(throws: UsageError.self) { try CommandLineParser.parse(["--seed", "9007199254740992", "X"]) }
    var options = RunOptions()
    #expect(throws: JSONFieldError.self) {
      try LayoutFile.apply(try JSONFields(JSONParser.parse(#"{"seed": 9007199254740992}"#)), to: &options.zone)
    }
  }

  @Test func helpDefaultsAreReadFromTheDefaults() {
    let defaults = RunOptions()
    #expect(Option.width.helpLine.hasSuffix("(default: \(defaults.width))"))
    #expect(Option.seed.helpLine.hasSuffix("(default: \(defaults.zone.seed))"))
    #expect(Option.entry.helpLine.hasSuffix("(default: \(defaults.zone.entry))"))
  }
}

@Suite struct FeedLineTests {
  @Test(arguments: ["name", "x", "y", "width", "height"])
  func layoutOnlyKeysAreRefusedWithTheirReason(key: String) throws {
    let reason = try feedLine(#"{"message": "hi", "\#(key)": 3}"#)
    #expect(reason == "\(key): an update cannot rename, move or resize a zone; '\(key)' belongs in the layout file")
  }

  @Test func contentKeysAreStillTaken() throws {
    #expect(try feedLine(#"{"message": "hi", "speed": 30, "align": "center"}"#) == nil)
    #expect(try feedLine(#"{"message": "\u+123"}"#)?.contains("invalid \\u escape") == true)
  }
}

/// Why a feed line changes nothing (nil: it is taken), through the feed of a sign built as
/// `marquee` builds one.
func feedLine(_ line: String) throws -> String? {
  let sign = try SignPlan.build(RunOptions(), stop: StopFlag(), now: 0)
  do {
    try sign.feed.handle(line)
    return nil
  } catch {
    return "\(error)"
  }
}

import Drivers
import Foundation
import Platform
import TestSupport
import Testing

/// Icons through the real binary: `{icon:NAME}` in a message, `marquee icons`, an icon folder
/// (`--icons DIR`), and the errors a person sees for a wrong name or a bad file.
@Suite(.offThePool) struct IconBinaryTests {
  func folder(_ name: String) throws -> String {
    let path = NSTemporaryDirectory() + "marquee-icons-\(name)-\(getpid())"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// The first frame's rows of `--output ascii`.
  func firstFrame(_ output: String, height: Int = 8) -> [String] {
    Array(output.split(separator: "\n").prefix(height).map(String.init))
  }

  @Test func anIconInAMessageIsDrawnInTheLine() throws {
    let result = try BinaryRunner.run(["--output", "ascii", "--frames", "1", "--width", "16", "{icon:arrow-up}x"])
    #expect(result.status == 0, "\(result.stderr)")
    let rows = firstFrame(result.stdout)
    #expect(rows.map { String($0.prefix(8)) } == ["...##...", "..####..", ".######.", "########", "...##...", "...##...", "...##...", "...##..."])
  }

  @Test func anUnknownNameIsAUsageErrorWithTheNearestNames() throws {
    let result = try BinaryRunner.run(["--output", "ascii", "--frames", "1", "Zug {icon:trian}"])
    #expect(result.status == 64 && result.stderr.contains("no icon named 'trian' (did you mean 'train'?); 'marquee icons' lists them"), "\(result.stderr)")
  }

  @Test func theIconsCommandListsAndDrawsThem() throws {
    let list = try BinaryRunner.run(["icons"])
    #expect(list.status == 0 && list.stdout.hasPrefix("NAME"), "\(list.stderr)")
    #expect(list.stdout.contains("train             8x8 16x16         built in"), "\(list.stdout)")
    let heart = try BinaryRunner.run(["icons", "heart"])
    #expect(heart.status == 0 && heart.stdout.hasPrefix("heart 7x6\n.##.##.\n#######\n") && heart.stdout.contains("heart 16x13\n..####....####..\n"), "\(heart.stdout)")
    let wrong = try BinaryRunner.run(["icons", "hart"])
    #expect(wrong.status == 64 && wrong.stderr.contains("did you mean 'cart', 'heart'?"), "\(wrong.stderr)")
  }

  @Test func aFolderAddsIconsByFileNameAndABadFileIsNamed() throws {
    let icons = try folder("own")
    defer { try? FileManager.default.removeItem(atPath: icons) }
    // A 3x2 PBM, and a logo that replaces nothing.
    try "P1\n3 2\n1 0 1\n0 1 0\n".write(toFile: icons + "/dots.pbm", atomically: true, encoding: .utf8)
    try "not a picture".write(toFile: icons + "/notes.txt", atomically: true, encoding: .utf8)
    let shown = try BinaryRunner.run(["--icons", icons, "--output", "ascii", "--frames", "1", "--width", "8", "{icon:dots}"])
    #expect(shown.status == 0, "\(shown.stderr)")
    // Centred on the 8-row line of the 5x7 font: rows 3 and 4.
    #expect(firstFrame(shown.stdout).map { String($0.prefix(3)) } == ["...", "...", "...", "#.#", ".#.", "...", "...", "..."])
    // The same folder from a config file.
    try #"{"icons": "\#(icons)", "width": 8}"#.write(toFile: icons + "/sign.json", atomically: true, encoding: .utf8)
    let configured = try BinaryRunner.run(["--config", icons + "/sign.json", "--output", "ascii", "--frames", "1", "{icon:dots}"])
    #expect(configured.status == 0 && configured.stdout == shown.stdout, "\(configured.stderr)")
    let listed = try BinaryRunner.run(["icons", "--icons", icons])
    #expect(listed.stdout.contains("dots              3x2               \(icons)"), "\(listed.stdout)")
    // A damaged picture: a warning with the file and what is wrong, and the sign shows;
    // only a message naming it is refused, saying why.
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]).write(to: URL(fileURLWithPath: icons + "/broken.png"))
    let broken = try BinaryRunner.run(["--icons", icons, "--output", "ascii", "--frames", "1", "x"])
    #expect(broken.status == 0 && broken.stderr.contains("Warning: \(icons)/broken.png: truncated before its header; that icon is left out") && !broken.stdout.isEmpty, "\(broken.stderr)")
    let naming = try BinaryRunner.run(["--icons", icons, "--output", "ascii", "--frames", "1", "{icon:broken}"])
    #expect(naming.status == 64 && naming.stderr.contains("the icon 'broken' cannot be shown: \(icons)/broken.png: truncated before its header"), "\(naming.stderr)")
    // A name that cannot be an icon's.
    try FileManager.default.removeItem(atPath: icons + "/broken.png")
    try "P1\n1 1\n1\n".write(toFile: icons + "/My Logo.pbm", atomically: true, encoding: .utf8)
    let named = try BinaryRunner.run(["--icons", icons, "--output", "ascii", "--frames", "1", "x"])
    #expect(named.status == 0 && named.stderr.contains("'My Logo' cannot name an icon"), "\(named.stderr)")
  }

  @Test func theAPIRefusesAnUnknownIconAndChangesNothing() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "Open"])
    let refused = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["{icon:trian} 3"]}"#)
    #expect(refused?.status == 400 && refused?.text.contains("messages: no icon named 'trian' (did you mean 'train'?)") == true, "\(refused?.text ?? "")")
    let taken = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["{icon:train} 3"]}"#)
    #expect(taken?.status == 200, "\(taken?.text ?? "")")
    _ = sign.stop()
  }

  @Test func anAnimatedGIFIconPlaysAtItsDelays() throws {
    let icons = try folder("gif")
    defer { try? FileManager.default.removeItem(atPath: icons) }
    // Written by marquee's own GIF writer: a 3x3 dot that blinks, 0.4 s on, 0.4 s off.
    var gif = try GIFWriter(width: 3, height: 3, palette: [(0, 0, 0), (255, 255, 255)])
    gif.addFrame([1, 1, 1, 1, 1, 1, 1, 1, 1], delay: 40)
    gif.addFrame([0, 0, 0, 0, 0, 0, 0, 0, 0], delay: 40)
    try Data(gif.finished()).write(to: URL(fileURLWithPath: icons + "/blink.gif"))
    let listed = try BinaryRunner.run(["icons", "--icons", icons])
    #expect(listed.stdout.contains("blink             3x3, 2 frames"), "\(listed.stdout)")
    // Five frames a second: on, on, off, off, on.
    let result = try BinaryRunner.run(["--icons", icons, "--output", "ascii", "--fps", "5", "--frames", "5", "--no-wait", "--width", "3", "{icon:blink}"])
    #expect(result.status == 0, "\(result.stderr)")
    let frames = result.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { $0.split(separator: "\n")[3] }
    #expect(frames == ["###", "###", "...", "...", "###"], "\(result.stdout)")
  }
}

import Foundation
import Testing

let systemPython = "/usr/bin/python3"
let pillowAvailable: Bool = {
  guard FileManager.default.isExecutableFile(atPath: systemPython) else { return false }
  return (try? shell("\(systemPython) -c 'import PIL' && echo yes"))?.contains("yes") == true
}()
let gifsicleAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/gifsicle")

/// GIF recordings checked with two independent decoders: Pillow and gifsicle.
@Suite(.offThePool) struct RecordingBinaryTests {
  func temporary(_ name: String) -> String { NSTemporaryDirectory() + "marquee-\(getpid())-\(name)" }

  @Test func aGIFLargerThanTheFormatCanHoldIsAUsageErrorNamingTheLimit() throws {
    let gif = temporary("huge.gif")
    defer { try? FileManager.default.removeItem(atPath: gif) }
    let result = try BinaryRunner.run(["--width", "4096", "--gif-scale", "16", "--frames", "1", "--gif", gif, "HUGE"])
    #expect(result.status == 64 && !result.signalled, "\(result.stderr)")
    #expect(result.stderr.contains("at most 65535 pixels a side") && result.stderr.contains("--gif-scale"))
    #expect(!FileManager.default.fileExists(atPath: gif), "no half-written file")
  }

  @Test(.enabled(if: pillowAvailable && gifsicleAvailable, "needs the Debian packages python3-pil and gifsicle"))
  func gifHasEveryFrameAtTheSignsSizeAndTheRightDots() throws {
    let gif = temporary("hello.gif")
    defer { try? FileManager.default.removeItem(atPath: gif) }
    let arguments = ["--width", "32", "--height", "8", "--frames", "30", "HELLO GIF WORLD"]
    let result = try BinaryRunner.run(arguments + ["--gif", gif])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try shell("gifsicle --info '\(gif)'").contains("30 images"))
    #expect(try shell("gifsicle --info '\(gif)'").contains("logical screen 128x32"))
    // Pillow: 30 frames; each LED's centre pixel is lit exactly where the ASCII frame is.
    let ascii = asciiFrames(try BinaryRunner.run(arguments + ["--output", "ascii", "--no-wait", "--fps", "40"]).stdout)
    let script = """
      import sys
      from PIL import Image
      im = Image.open(sys.argv[1])
      print(im.size[0], im.size[1], im.n_frames)
      for i in range(im.n_frames):
          im.seek(i)
          rgb = im.convert('RGB')
          for y in range(8):
              print(''.join('#' if rgb.getpixel((x * 4 + 1, y * 4 + 1))[0] > 120 else '.' for x in range(32)))
      """
    let decoded = try shell("\(systemPython) -c \"\(script)\" '\(gif)'").split(separator: "\n").map(String.init)
    #expect(decoded.first == "128 32 30")
    for frame in 0..<30 {
      #expect(Array(decoded[(1 + frame * 8)..<(1 + frame * 8 + 8)]) == ascii[frame], "frame \(frame)")
    }
  }

  @Test(.enabled(if: pillowAvailable, "needs the Debian package python3-pil"))
  func theGalleryDecodes() throws {
    let folder = temporary("gallery")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try BinaryRunner.run(["gallery", folder])
    #expect(result.status == 0, "\(result.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".gif") }
    #expect(files.count >= 37)
    let script = "import sys, glob\nfrom PIL import Image\nfor p in sorted(glob.glob(sys.argv[1] + '/*.gif')):\n    im = Image.open(p); im.seek(im.n_frames - 1); print(im.n_frames)"
    let counts = try shell("\(systemPython) -c \"\(script)\" '\(folder)'").split(separator: "\n").compactMap { Int($0) }
    #expect(counts.count == files.count && counts.allSatisfy { $0 > 10 })
  }

  @Test func pbmIsThePlainImageOfTheFirstFrame() throws {
    let pbm = temporary("frame.pbm")
    defer { try? FileManager.default.removeItem(atPath: pbm) }
    #expect(try BinaryRunner.run(["--width", "8", "--height", "8", "--pbm", pbm, "I"]).status == 0)
    let lines = try String(contentsOfFile: pbm, encoding: .utf8).split(separator: "\n")
    #expect(lines[0] == "P1" && lines[1] == "8 8")
    let ascii = asciiFrames(try BinaryRunner.run(["--width", "8", "--height", "8", "--frames", "1", "--output", "ascii", "I"]).stdout)[0]
    for y in 0..<8 {
      #expect(lines[2 + y].replacingOccurrences(of: " ", with: "").map { $0 == "1" ? "#" : "." }.joined() == ascii[y])
    }
  }
}

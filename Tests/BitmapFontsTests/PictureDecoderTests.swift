import BitmapFonts
import Foundation
import MatrixCore
import TestSupport
import Testing

/// marquee's PNG, GIF, PBM and XBM decoders against other people's: netpbm and Pillow
/// (Tests/Pictures/picture_check.py) on real files from Debian packages (xbitmaps' X
/// bitmaps, tango-icon-theme's PNG icons) and on variants netpbm, Pillow and gifsicle make
/// of them (every PNG colour type and depth, interlaced, tRNS; GIFs still and animated,
/// optimised into partial frames). The same pixels must light.
@Suite struct PictureDecoderTests {
  static let python = PythonTools.pillow
  static let netpbm = ["pngtopam", "pamtopng", "pnmtopng", "xbmtopbm", "pamtopnm", "pnmquant", "pamdepth", "ppmtopgm", "pnmtoplainpnm"]
    .allSatisfy { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + $0) }
  static let bitmaps = "/usr/include/X11/bitmaps"
  static let tango = "/usr/share/icons/Tango"
  static let available = python != nil && netpbm && FileManager.default.fileExists(atPath: bitmaps)
    && FileManager.default.fileExists(atPath: tango) && FileManager.default.isExecutableFile(atPath: "/usr/bin/gifsicle")

  /// Each file's frames as the other decoders light them, by path.
  func expected(_ paths: [String]) throws -> [String: (width: Int, height: Int, frames: [String])] {
    let result = try ChildProcess.run(PictureDecoderTests.python!, ["Tests/Pictures/picture_check.py"] + paths, timeout: 300)
    #expect(result.status == 0, "\(result.stderr)")
    var found: [String: (Int, Int, [String])] = [:]
    for line in result.stdout.split(separator: "\n") {
      let words = line.split(separator: " ")
      found[String(words[0])] = (Int(words[1])!, Int(words[2])!, words.dropFirst(4).map(String.init))
    }
    return found
  }

  /// A frame's rows as picture_check.py prints them.
  func hex(_ frame: Framebuffer) -> String {
    (0..<frame.height).map { y in
      let padded = (frame.width + 7) / 8 * 8
      var digits = ""
      for nibble in stride(from: 0, to: padded, by: 4) {
        var value = 0
        for bit in 0..<4 { value = value << 1 | (frame[nibble + bit, y] ? 1 : 0) }
        digits += String(value, radix: 16)
      }
      return digits
    }.joined(separator: ",")
  }

  func compare(_ paths: [String]) throws -> Int {
    let others = try expected(paths)
    var checked = 0
    for path in paths {
      let picture = try PictureFile.read(path: path)
      let other = try #require(others[path], "picture_check.py said nothing of \(path)")
      #expect(picture.width == other.width && picture.height == other.height, "\(path)")
      #expect(picture.frames.map(hex) == other.frames, "\(path): the lit pixels differ")
      checked += 1
    }
    return checked
  }

  func shell(_ command: String) throws {
    let result = try ChildProcess.run("/bin/sh", ["-c", command], timeout: 120)
    #expect(result.status == 0, "\(command): \(result.stderr)")
  }

  func folder(_ name: String) throws -> String {
    let path = NSTemporaryDirectory() + "marquee-pictures-\(name)-\(getpid())"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test(.enabled(if: available, "needs the Debian packages xbitmaps, tango-icon-theme, netpbm, gifsicle and python3-pil"))
  func xBitmapsAndPBMsLightTheirOneBits() throws {
    let work = try folder("pbm")
    defer { try? FileManager.default.removeItem(atPath: work) }
    let xbms = try FileManager.default.contentsOfDirectory(atPath: PictureDecoderTests.bitmaps).sorted().map { PictureDecoderTests.bitmaps + "/" + $0 }
    // Each X bitmap also as raw and plain PBM, written by netpbm (one shell for them all).
    var pbms: [String] = [], script = "set -e\n"
    for (index, xbm) in xbms.enumerated() {
      script += "xbmtopbm '\(xbm)' > \(work)/\(index).pbm && pnmtoplainpnm \(work)/\(index).pbm > \(work)/\(index)-plain.pbm\n"
      pbms += ["\(work)/\(index).pbm", "\(work)/\(index)-plain.pbm"]
    }
    try shell(script)
    #expect(try compare(xbms) == xbms.count && xbms.count > 50)
    #expect(try compare(pbms) == pbms.count)
  }

  @Test(.enabled(if: available, "needs the Debian packages xbitmaps, tango-icon-theme, netpbm, gifsicle and python3-pil"))
  func pngIconsAndEveryColourTypeAndDepth() throws {
    let work = try folder("png")
    defer { try? FileManager.default.removeItem(atPath: work) }
    let icons = try FileManager.default.subpathsOfDirectory(atPath: PictureDecoderTests.tango).filter { $0.hasSuffix(".png") }.sorted()
      .map { PictureDecoderTests.tango + "/" + $0 }
    // Every 16th of the theme's icons (RGBA, 16 to 48 pixels), and variants of a few.
    let sample = stride(from: 0, to: icons.count, by: 16).map { icons[$0] }
    var variants: [String] = []
    for (index, icon) in sample.prefix(6).enumerated() {
      let base = "\(work)/\(index)"
      try shell("""
        pngtopam -alphapam '\(icon)' > \(base).pam && pamtopnm \(base).pam > \(base).ppm 2>/dev/null || pngtopam '\(icon)' > \(base).ppm
        ppmtopgm \(base).ppm > \(base).pgm
        pnmtopng \(base).pgm > \(base)-grey.png
        pnmtopng -interlace \(base).pgm > \(base)-grey-interlaced.png
        pamdepth 65535 \(base).pgm | pnmtopng > \(base)-grey16.png
        pamdepth 65535 \(base).ppm | pnmtopng -interlace > \(base)-rgb16-interlaced.png
        pnmquant 12 \(base).ppm 2>/dev/null | pnmtopng > \(base)-palette.png
        pnmquant 3 \(base).ppm 2>/dev/null | pnmtopng -interlace > \(base)-palette-interlaced.png
        pnmtopng -transparent =black \(base).ppm > \(base)-rgb-trns.png
        pnmtopng -transparent =black \(base).pgm > \(base)-grey-trns.png
        pamtopng \(base).pam > \(base)-rgba.png
        """)
      variants += ["grey", "grey-interlaced", "grey16", "rgb16-interlaced", "palette", "palette-interlaced", "rgb-trns", "grey-trns", "rgba"]
        .map { "\(base)-\($0).png" }
    }
    // Bitmaps as 1-bit and 2-bit greys.
    try shell("xbmtopbm \(PictureDecoderTests.bitmaps)/star | pnmtopng > \(work)/star-1bit.png")
    try shell("xbmtopbm \(PictureDecoderTests.bitmaps)/escherknot | pnmtopng -interlace > \(work)/knot-1bit-interlaced.png")
    variants += ["\(work)/star-1bit.png", "\(work)/knot-1bit-interlaced.png"]
    #expect(try compare(sample) == sample.count)
    #expect(try compare(variants) == variants.count)
  }

  @Test(.enabled(if: available, "needs the Debian packages xbitmaps, tango-icon-theme, netpbm, gifsicle and python3-pil"))
  func gifsStillAndAnimated() throws {
    let work = try folder("gif")
    defer { try? FileManager.default.removeItem(atPath: work) }
    let icons = try FileManager.default.subpathsOfDirectory(atPath: PictureDecoderTests.tango + "/22x22").filter { $0.hasSuffix(".png") }.sorted()
      .prefix(40).map { PictureDecoderTests.tango + "/22x22/" + $0 }
    // Pillow writes stills (with a transparent colour) and an animation of several icons,
    // gifsicle optimises the animation into partial frames over what came before, and
    // interlaces a copy.
    let script = """
      import sys
      from PIL import Image
      icons, out = sys.argv[2:], sys.argv[1]
      frames = []
      for i, path in enumerate(icons[:8]):
          image = Image.open(path).convert("RGBA")
          image.save("%s/still-%d.gif" % (out, i))
          image.convert("RGB").save("%s/opaque-%d.gif" % (out, i))
          frames.append(image)
      frames[0].save(out + "/animated.gif", save_all=True, append_images=frames[1:], duration=[100, 200, 50, 300, 100, 100, 100, 100], loop=0, disposal=1)
      # Shapes on a transparent ground, each frame cleared before the next (disposal 2).
      from PIL import ImageDraw
      shapes = []
      for i in range(6):
          shape = Image.new("RGBA", (24, 16), (0, 0, 0, 0))
          ImageDraw.Draw(shape).ellipse((i * 3, 2, i * 3 + 8, 12), fill=(0, 0, 0, 255))
          shapes.append(shape)
      shapes[0].save(out + "/cleared.gif", save_all=True, append_images=shapes[1:], duration=80, loop=0, disposal=2)
      rgb = [f.convert("RGB") for f in frames]
      rgb[0].save(out + "/animated-opaque.gif", save_all=True, append_images=rgb[1:], duration=120, loop=0)
      """
    try shell("\(PictureDecoderTests.python!) -c '\(script)' \(work) \(icons.joined(separator: " "))")
    try shell("gifsicle -O3 \(work)/animated.gif > \(work)/optimised.gif && gifsicle -O3 \(work)/animated-opaque.gif > \(work)/optimised-opaque.gif")
    try shell("gifsicle -O3 \(work)/cleared.gif > \(work)/cleared-optimised.gif")
    try shell("gifsicle --interlace \(work)/still-0.gif > \(work)/interlaced.gif")
    let gifs = try FileManager.default.contentsOfDirectory(atPath: work).sorted().map { "\(work)/\($0)" }
    #expect(try compare(gifs) == gifs.count && gifs.count == 23)
    let animated = try PictureFile.read(path: "\(work)/animated.gif")
    // Pillow merged the repeated icons of the list, so five frames are left.
    #expect(animated.frames.count == 5 && animated.delays.prefix(2) == [0.1, 0.2])
  }
}

import Platform
import MatrixCore
import Testing

@testable import BitmapFonts
@testable import FontCore

/// Bad picture files: a clear reason naming the file, never a crash.
@Suite struct PictureErrorTests {
  /// netpbm's pnmtopng of xbitmaps' `star` (16x16, 1-bit grey).
  static let star: [UInt8] = hex(
    "89504e470d0a1a0a0000000d49484452000000100000001001000000003788c2cc0000002949444154089963f8ff9fe11f18bd7bcff0ed3ec3affd0c7feb199a9b4124900d14018a4314fc072100ae9e1cc3450a5adb0000000049454e44ae426082")

  static func hex(_ text: String) -> [UInt8] {
    stride(from: 0, to: text.count, by: 2).map { UInt8(text.dropFirst($0).prefix(2), radix: 16)! }
  }

  func reason(_ bytes: [UInt8]) -> String {
    do {
      _ = try PictureFile.decode(bytes, path: "logo.png")
      return "no error"
    } catch {
      #expect(error.path == "logo.png")
      return error.reason
    }
  }

  /// The star with its IHDR changed by `change` and its CRC made right again.
  func withHeader(_ change: (inout [UInt8]) -> Void) -> [UInt8] {
    var bytes = PictureErrorTests.star
    change(&bytes)
    let crc = CRC32.checksum(bytes[12..<29])
    bytes.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
    return bytes
  }

  @Test func theStarReads() throws {
    let picture = try PictureFile.decode(PictureErrorTests.star, path: "star.png")
    #expect(picture.width == 16 && picture.height == 16 && !picture.isAnimated)
    // The star is black on white in the PNG: its ground lights, its shape does not.
    #expect(picture.frames[0][0, 0] && !picture.frames[0][7, 1])
  }

  @Test func badPNGsSayWhatIsWrong() {
    let star = PictureErrorTests.star
    #expect(reason(Array(star.prefix(60))).hasPrefix("truncated"))
    var damaged = star
    damaged[45] ^= 0x40
    #expect(reason(damaged) == "the IDAT chunk is damaged (its CRC does not match)")
    #expect(reason(withHeader { $0[16...19] = [0, 0, 0x13, 0x88] }) == "it is 5000x16 pixels; the most a sign takes is 4096x512")
    #expect(reason(withHeader { $0[28] = 2 }) == "unsupported PNG feature: interlace method 2")
    #expect(reason(withHeader { $0[24] = 3 }) == "colour type 0 with 3-bit samples is not a PNG combination")
    #expect(reason(withHeader { $0[25] = 3 }) == "a palette picture without a palette (PLTE)")
    #expect(reason(Array("GIF89a".utf8)) == "truncated before its screen descriptor")
    // A trailer before any frame (found by FuzzPicture after the block reader was split out).
    #expect(reason(Array("GIF89a".utf8) + [16, 0, 16, 0, 0x81, 0, 0] + [0, 0, 0, 255, 255, 255, 0, 0, 0, 255, 255, 255] + [0x3B]) == "no frame")
    #expect(reason(Array("P4\n16 16\n".utf8) + [0, 0]) == "truncated: 32 bytes of pixels expected, 2 found")
    #expect(reason(Array("P1\n2 2\n1 0 2".utf8)) == "pixel 3 is '2', not 0 or 1")
    #expect(reason(Array("#define a_width 8\n#define a_height 2\nstatic char a_bits[] = { 0x01,".utf8)) == "truncated: no '}' after the bits")
    #expect(reason(Array("P6\n1 1\n255\n".utf8) + [1, 2, 3]).hasPrefix("a greymap or pixmap (P6)"))
    #expect(reason([0, 1, 2, 3]) == "not a picture marquee reads (PNG, GIF, PBM or XBM)")
  }

  /// Inputs the fuzzer found (Fuzz/Corpus/FuzzPicture): an LZW code size past 8 (a trap),
  /// a frame of 54,394 x 47,371 (2.5 GB asked for).
  @Test func inputsThatOnceCrashedAreRefused() throws {
    for (file, reason) in [
      ("crash-lzw-code-size.gif", "frame 1 has a bad LZW code size"),
      ("oom-huge-frame.gif", "frame 1: it is 54394x47371 pixels; the most a sign takes is 4096x512"),
    ] {
      let bytes = try FileBytes.read("Fuzz/Corpus/FuzzPicture/" + file, limit: 1 << 20)
      #expect(self.reason(bytes) == reason, "\(file)")
    }
  }
}

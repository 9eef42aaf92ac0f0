import MatrixCore

/// The built-in tiny font: capitals, digits and punctuation 3 pixels wide and 5 tall, for
/// signs of 5 or 6 rows. Small letters are drawn as capitals.
public final class BuiltinFont3x5: Font {
  public let name = "3x5"
  public let ascent = 5
  public let descent = 1

  static let glyphs: [UInt32: Glyph] = {
    var glyphs: [UInt32: Glyph] = [:]
    for line in table.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard let field = fields.first, let code = UInt32(field, radix: 16) else { continue }
      var rows = fields.dropFirst().map { Array($0) }
      while rows.count < 6 { rows.append(Array("...")) }
      let digit = (0x30...0x39).contains(code)
      let columns = (0..<3).filter { x in rows.contains { $0[x] == "#" } }
      let first = digit ? 0 : (columns.first ?? 0), last = digit ? 2 : (columns.last ?? 2)
      var bitmap = Framebuffer(width: last - first + 1, height: 6)
      for (y, row) in rows.enumerated() {
        for x in first...last where row[x] == "#" { bitmap[x - first, y] = true }
      }
      glyphs[code] = Glyph(bitmap: bitmap, advance: bitmap.width, top: 5)
    }
    glyphs[0x20] = Glyph(bitmap: Framebuffer(width: 0, height: 0), advance: 2, top: 0)
    for code in UInt32(0x61)...0x7A { glyphs[code] = glyphs[code - 0x20] }
    return glyphs
  }()

  /// Creates the font.
  public init() {}

  public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
    BuiltinFont3x5.glyphs[scalar.value]
  }

  /// All code points the font has, in ascending order.
  public var scalars: [Unicode.Scalar] {
    BuiltinFont3x5.glyphs.keys.sorted().compactMap(Unicode.Scalar.init)
  }

  // One glyph per line: code point, then up to 6 rows of 3 pixels (row 5 is below the baseline).
  static let table = """
    0021 .#. .#. .#. ... .#.
    0022 #.# #.#
    0023 #.# ### #.# ### #.#
    0025 #.. ..# .#. #.. ..#
    0026 .#. #.# .#. #.# .##
    0027 .#. .#.
    0028 ..# .#. .#. .#. ..#
    0029 #.. .#. .#. .#. #..
    002A ... #.# .#. #.#
    002B ... .#. ### .#.
    002C ... ... ... ... .#. #..
    002D ... ... ###
    002E ... ... ... ... .#.
    002F ..# ..# .#. #.. #..
    0030 ### #.# #.# #.# ###
    0031 .#. ##. .#. .#. ###
    0032 ##. ..# .#. #.. ###
    0033 ##. ..# .#. ..# ##.
    0034 #.# #.# ### ..# ..#
    0035 ### #.. ##. ..# ##.
    0036 .## #.. ### #.# ###
    0037 ### ..# .#. .#. .#.
    0038 ### #.# ### #.# ###
    0039 ### #.# ### ..# ##.
    003A ... .#. ... .#.
    003B ... .#. ... .#. #..
    003C ..# .#. #.. .#. ..#
    003D ... ### ... ###
    003E #.. .#. ..# .#. #..
    003F ##. ..# .#. ... .#.
    0040 .#. #.# ### #.. .##
    0041 .#. #.# ### #.# #.#
    0042 ##. #.# ##. #.# ##.
    0043 .## #.. #.. #.. .##
    0044 ##. #.# #.# #.# ##.
    0045 ### #.. ##. #.. ###
    0046 ### #.. ##. #.. #..
    0047 .## #.. #.# #.# .##
    0048 #.# #.# ### #.# #.#
    0049 ### .#. .#. .#. ###
    004A ..# ..# ..# #.# .#.
    004B #.# #.# ##. #.# #.#
    004C #.. #.. #.. #.. ###
    004D #.# ### ### #.# #.#
    004E ##. #.# #.# #.# #.#
    004F .#. #.# #.# #.# .#.
    0050 ##. #.# ##. #.. #..
    0051 .#. #.# #.# ##. .##
    0052 ##. #.# ##. #.# #.#
    0053 .## #.. .#. ..# ##.
    0054 ### .#. .#. .#. .#.
    0055 #.# #.# #.# #.# ###
    0056 #.# #.# #.# #.# .#.
    0057 #.# #.# ### ### #.#
    0058 #.# #.# .#. #.# #.#
    0059 #.# #.# .#. .#. .#.
    005A ### ..# .#. #.. ###
    005B ##. #.. #.. #.. ##.
    005C #.. #.. .#. ..# ..#
    005D .## ..# ..# ..# .##
    005E .#. #.#
    005F ... ... ... ... ###
    007C .#. .#. .#. .#. .#.
    00B0 .#. #.# .#.
    """
}

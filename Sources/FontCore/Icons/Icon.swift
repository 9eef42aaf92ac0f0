import MatrixCore

/// A 1-bit picture that sits in a line of text (`{icon:train}`), drawn for one or more line
/// heights: the text renderer picks the tallest that fits the line.
public struct Icon: Sendable, Equatable {
  /// Its name in messages: lower-case letters, digits, `-` and `_`.
  public let name: String
  /// Its pictures, shortest first; at least one.
  public let pictures: [Framebuffer]
  /// The frames of an animated picture and how long each shows (nil: still); the first
  /// frame is also its picture.
  public let animation: Picture?

  /// An icon of one or more pictures (sizes for different line heights).
  public init(name: String, pictures: [Framebuffer]) {
    precondition(!pictures.isEmpty, "an icon needs a picture")
    self.name = name
    self.pictures = pictures.sorted { $0.height < $1.height }
    animation = nil
  }

  /// An icon of a picture read from a file (one size; an animated GIF's frames).
  public init(name: String, picture: Picture) {
    self.name = name
    pictures = [picture.frames[0]]
    animation = picture.isAnimated ? picture : nil
  }

  /// The picture for a line `height` pixels tall: the tallest no taller than the line, or
  /// the shortest when every one is taller (the line then grows to hold it).
  public func picture(forLineHeight height: Int) -> Framebuffer {
    pictures.last { $0.height <= height } ?? pictures[0]
  }

  /// The glyph that draws the icon in a line whose first font has `ascent` rows above the
  /// baseline and `descent` below: centred on the line's height, or, when taller than the
  /// line, standing on its bottom.
  public func glyph(ascent: Int, descent: Int) -> Glyph {
    let picture = picture(forLineHeight: ascent + descent)
    let spare = ascent + descent - picture.height
    let top = spare >= 0 ? ascent - spare / 2 : picture.height - descent
    return Glyph(bitmap: picture, advance: picture.width, top: top)
  }

  /// How many pixels the icon holds decoded: its pictures, or an animation's frames.
  public var decodedPixels: Int {
    (animation?.frames ?? pictures).reduce(0) { $0 + $1.width * $1.height }
  }

  /// Whether `name` can name an icon: 1 to 64 bytes of lower-case ASCII letters, digits,
  /// `-` and `_`, and characters of other scripts (`苹果`, `café`); never a space, a
  /// control, `/`, `.`, an upper-case ASCII letter, or a mark that turns text's direction.
  /// (A name added over the API must also be letters and digits only: ``SignSession``.)
  public static func isValidName(_ name: some StringProtocol) -> Bool {
    !name.isEmpty && name.utf8.count <= 64
      && name.unicodeScalars.allSatisfy { scalar in
        switch scalar.value {
        case 0x61...0x7A, 0x30...0x39, 0x2D, 0x5F: true
        // The rest of ASCII, and the C1 controls.
        case 0...0x9F: false
        // Spaces, zero-width characters, direction marks and separators.
        case 0xA0, 0xAD, 0x1680, 0x180E, 0x2000...0x200F, 0x2028...0x202F, 0x205F...0x206F, 0x3000, 0xFEFF: false
        default: true
        }
      }
  }
}

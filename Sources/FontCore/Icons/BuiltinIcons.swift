import MatrixCore

/// The icons every sign has, drawn for 8-pixel lines and for 16-pixel ones.
///
/// Arrows in eight directions (`arrow-up`, `arrow-up-right`, …), `train`, `metro`, `bus`,
/// `plane`, `taxi`, `walk`, `accessibility`, `clock`, `temperature`, `sun`, `cloud`, `rain`,
/// `snow`, `heart`, `star`, `check`, `cross`, `warning`, `info`, `wifi`, `phone`, `cup`,
/// `cart`, `open`, `closed`, `yen`, `dollar`, `euro`, `percent`. Each is drawn twice: for
/// 8-pixel lines and, with two-pixel strokes, for 16-pixel ones (the blocks headed
/// `NAME 16`); the arrows are two drawings turned.
public enum BuiltinIcons {
  /// Every built-in icon, in the drawing's order (Art/icons.txt).
  public static var all: [Icon] { names.indices.map(icon(at:)) }

  /// The built-in icon of this name, drawn from the constant data (nothing is kept), or
  /// `nil`.
  public static func icon(named name: String) -> Icon? {
    names.firstIndex(of: name).map(icon(at:))
  }

  /// The icon at `index` of ``names``: its 8-pixel picture and its 16-pixel one.
  static func icon(at index: Int) -> Icon {
    var offset = Int(pictureStarts[index])
    func picture() -> Framebuffer {
      let width = Int(pictureWords[offset]), height = Int(pictureWords[offset + 1])
      var picture = Framebuffer(width: width, height: height)
      for y in 0..<height {
        let row = pictureWords[offset + 2 + y]
        for x in 0..<width where row >> x & 1 == 1 { picture[x, y] = true }
      }
      offset += 2 + height
      return picture
    }
    let small = picture()
    return Icon(name: names[index], pictures: [small, picture()])
  }

  /// The picture at twice its size, each pixel four.
  public static func doubled(_ picture: Framebuffer) -> Framebuffer {
    var result = Framebuffer(width: picture.width * 2, height: picture.height * 2)
    for y in 0..<picture.height {
      for x in 0..<picture.width where picture[x, y] {
        result.fill(x: 2 * x, y: 2 * y, width: 2, height: 2, lit: true)
      }
    }
    return result
  }
}

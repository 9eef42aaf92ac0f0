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
  /// Every built-in icon, in the order of ``art``.
  public static let all: [Icon] = {
    // Each icon's 8-pixel drawing and its 16-pixel one.
    var drawn: [(name: String, small: Framebuffer, large: Framebuffer?)] = []
    // Blocks of lines between empty lines, each line trimmed.
    var blocks: [[String]] = [[]]
    for line in art.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty {
        if !blocks[blocks.count - 1].isEmpty { blocks.append([]) }
      } else {
        blocks[blocks.count - 1].append(line.trimmingCharacters())
      }
    }
    if blocks[blocks.count - 1].isEmpty { blocks.removeLast() }
    // The 16-pixel drawings first, so that icons turned from one get its turns.
    var large: [String: Framebuffer] = [:]
    for lines in blocks where lines[0].hasSuffix(" 16") {
      large[String(lines[0].dropLast(3))] = parse(lines.dropFirst(), name: lines[0])
    }
    for lines in blocks where !lines[0].hasSuffix(" 16") {
      let head = lines[0]
      if head.contains("=") {
        // Lines of `name = TRANSFORM other`: both sizes turned.
        for line in lines {
          let parts = line.split(separator: " ")
          let base = drawn.first { $0.name == parts[3] }!
          let how = String(parts[2])
          drawn.append((String(parts[0]), transform(base.small, how), base.large.map { transform($0, how) }))
        }
        continue
      }
      let name = String(head.split(separator: " ")[0])
      drawn.append((name, parse(lines.dropFirst(), name: head), large[name]))
    }
    return drawn.map { icon in
      Icon(name: icon.name, pictures: [icon.small, icon.large ?? doubled(icon.small)])
    }
  }()

  /// Rows of `#` and `.` as a picture.
  static func parse(_ rows: ArraySlice<String>, name: String) -> Framebuffer {
    var picture = Framebuffer(width: rows.first!.count, height: rows.count)
    for (y, row) in rows.enumerated() {
      precondition(row.count == picture.width, "icon \(name): row \(y) is \(row.count) wide, not \(picture.width)")
      for (x, cell) in row.enumerated() where cell == "#" { picture[x, y] = true }
    }
    return picture
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

  /// A picture flipped (`fliph`: left to right, `flipv`: top to bottom) or turned a quarter
  /// clockwise (`rotate`).
  static func transform(_ picture: Framebuffer, _ how: String) -> Framebuffer {
    let turned = how == "rotate"
    var result = Framebuffer(width: turned ? picture.height : picture.width, height: turned ? picture.width : picture.height)
    for y in 0..<picture.height {
      for x in 0..<picture.width where picture[x, y] {
        switch how {
        case "fliph": result[picture.width - 1 - x, y] = true
        case "flipv": result[x, picture.height - 1 - y] = true
        default: result[picture.height - 1 - y, x] = true
        }
      }
    }
    return result
  }
}

extension Substring {
  fileprivate func trimmingCharacters() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}

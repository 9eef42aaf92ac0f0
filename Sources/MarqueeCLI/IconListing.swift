import BitmapFonts
import MatrixCore
import SignService

/// `marquee icons [--icons DIR] [NAME]`: the icons messages can show, or one drawn.
enum IconListing {
  /// The listing (name, sizes, where it comes from), or icon `name` drawn at each size in
  /// `#` and `.` rows, as `--output ascii` draws the sign.
  ///
  /// - Throws: ``UsageError`` for a name no icon has (with the nearest names),
  ///   ``SignFailure`` for a folder or picture that cannot be read.
  static func text(folder: String?, name: String?) throws -> String {
    let own = try folder.map { path in
      do {
        return try IconSet(folder: path)
      } catch {
        throw SignFailure("\(error)")
      }
    } ?? IconSet()
    let icons = IconSet.builtIn.adding(own)
    guard let name else {
      var lines = ["NAME".padding(to: 18) + "SIZES".padding(to: 18) + "FROM"]
      // A file that could not be read is listed with why (the sign leaves it out).
      for problem in own.problems { lines.append("# " + problem.description) }
      for name in icons.names {
        let icon = icons[name]!
        let sizes = icon.pictures.map { "\($0.width)x\($0.height)" }.joined(separator: " ")
          + (icon.animation.map { ", \($0.frames.count) frames" } ?? "")
        lines.append(name.padding(to: 18) + sizes.padding(to: 18) + (own[name] != nil ? folder! : "built in"))
      }
      return lines.joined(separator: "\n") + "\n"
    }
    guard let icon = icons[name] else {
      throw UsageError(icons.unknown(name).description)
    }
    return icon.pictures.map { picture in
      "\(name) \(picture.width)x\(picture.height)\n" + (0..<picture.height).map { y in
        String((0..<picture.width).map { picture[$0, y] ? "#" : "." })
      }.joined(separator: "\n")
    }.joined(separator: "\n\n") + "\n"
  }
}

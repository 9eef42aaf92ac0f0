import Platform
import MatrixCore

/// What an icon folder may hold, so that uploads (or files copied in) cannot make the
/// sign hold unbounded memory, nor its icon list grow without end.
public enum IconFolderLimits {
  /// The most icons a folder gives.
  public static let maximumIcons = 512
  /// The most pixels its icons take decoded, all together: 16 Mi pixels, 2 MiB of bits.
  public static let maximumPixels = 1 << 24
}

extension IconSet {
  /// The icons the set has of its own (a folder's: built-in ones are drawn from constant data).
  public var ownCount: Int { icons.count }
  /// The pixels the set's own icons take decoded.
  public var ownPixels: Int { icons.values.reduce(0) { $0 + $1.decodedPixels } }

  /// Why the set cannot take `icon` (replacing one of the same name), as the folder's limits
  /// say, or nil.
  public func refusal(adding icon: Icon) -> String? {
    let replaced = icons[icon.name]
    let count = ownCount + (replaced == nil ? 1 : 0)
    if count > IconFolderLimits.maximumIcons {
      return "the icon folder holds \(ownCount) icons, the most it may; remove one first"
    }
    let pixels = ownPixels - (replaced?.decodedPixels ?? 0) + icon.decodedPixels
    if pixels > IconFolderLimits.maximumPixels {
      return "with it the icon folder would take \(pixels) pixels decoded, more than the \(IconFolderLimits.maximumPixels) it may"
    }
    return nil
  }

  /// This set with `icon` added, or in place of the one of its name (which is no longer broken).
  public func replacing(_ icon: Icon) -> IconSet {
    var set = self
    set.icons[icon.name] = icon
    set.broken[icon.name] = nil
    return set
  }

  /// The icons of a folder: each picture file (``PictureFile/extensions``: PNG, GIF, PBM,
  /// XBM) is an icon named after the file without its extension, `logo.png` is `logo`.
  /// Pictures are decoded once, here. Other files are left alone; when two files give one
  /// name, the extension first in that list wins.
  ///
  /// A picture that cannot be read does not stop the others: it is left out, kept in
  /// ``broken`` with its reason (a message naming it is refused saying so), and listed in
  /// ``problems`` for the sign to warn about; so is a file whose name cannot be an icon's,
  /// and one past the folder's limits (``IconFolderLimits``: the first files by kind and
  /// name are taken).
  ///
  /// - Throws: ``PictureError`` for a folder that cannot be read.
  public init(folder: String) throws(PictureError) {
    let names = FileBytes.entries(of: folder)
    guard !names.isEmpty || FileBytes.isFolder(folder) else { throw PictureError(path: folder, reason: "is not a folder that can be read") }
    var icons: [String: Icon] = [:]
    var broken: [String: PictureError] = [:]
    var problems: [PictureError] = []
    for kind in PictureFile.extensions {
      for file in names.sorted() where file.lowercased().hasSuffix("." + kind) {
        let name = String(file.dropLast(kind.count + 1))
        let path = folder + "/" + file
        guard Icon.isValidName(name) else {
          problems.append(PictureError(path: path, reason: "'\(name)' cannot name an icon: use letters of any language (lower-case in Latin), digits, '-' and '_', at most 64 bytes"))
          continue
        }
        guard icons[name] == nil && broken[name] == nil else { continue }
        do throws(PictureError) {
          let icon = Icon(name: name, picture: try PictureFile.read(path: path))
          if let refusal = IconSet(Array(icons.values)).refusal(adding: icon) { throw PictureError(path: path, reason: refusal) }
          icons[name] = icon
        } catch {
          broken[name] = error
          problems.append(error)
        }
      }
    }
    self.init(Array(icons.values))
    self.broken = broken
    self.problems = problems
  }
}

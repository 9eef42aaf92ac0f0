import Platform
import MatrixCore

extension IconSet {
  /// The icons of a folder: each picture file (``PictureFile/extensions``: PNG, GIF, PBM,
  /// XBM) is an icon named after the file without its extension, `logo.png` is `logo`.
  /// Pictures are decoded once, here. Other files are left alone; when two files give one
  /// name, the extension first in that list wins.
  ///
  /// - Throws: ``PictureError`` for a picture that cannot be read (naming the file and what
  ///   is wrong), a name that cannot be an icon's, or a folder that cannot be read.
  public init(folder: String) throws(PictureError) {
    let names = FileBytes.entries(of: folder)
    guard !names.isEmpty || FileBytes.isFolder(folder) else { throw PictureError(path: folder, reason: "is not a folder that can be read") }
    var icons: [String: Icon] = [:]
    for kind in PictureFile.extensions {
      for file in names where file.lowercased().hasSuffix("." + kind) {
        let name = String(file.dropLast(kind.count + 1))
        let path = folder + "/" + file
        guard Icon.isValidName(name) else {
          throw PictureError(path: path, reason: "'\(name)' cannot name an icon: use lower-case letters, digits, '-' and '_' (at most 64)")
        }
        guard icons[name] == nil else { continue }
        let picture = try PictureFile.read(path: path)
        icons[name] = Icon(name: name, picture: picture)
      }
    }
    self.init(Array(icons.values))
  }
}

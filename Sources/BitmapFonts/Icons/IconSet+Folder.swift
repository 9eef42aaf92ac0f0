import Platform
import MatrixCore

extension IconSet {
  /// The icons of a folder: each picture file (``PictureFile/extensions``: PNG, GIF, PBM,
  /// XBM) is an icon named after the file without its extension, `logo.png` is `logo`.
  /// Pictures are decoded once, here. Other files are left alone; when two files give one
  /// name, the extension first in that list wins.
  ///
  /// A picture that cannot be read does not stop the others: it is left out, kept in
  /// ``broken`` with its reason (a message naming it is refused saying so), and listed in
  /// ``problems`` for the sign to warn about; so is a file whose name cannot be an icon's.
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
          problems.append(PictureError(path: path, reason: "'\(name)' cannot name an icon: use lower-case letters, digits, '-' and '_' (at most 64)"))
          continue
        }
        guard icons[name] == nil && broken[name] == nil else { continue }
        do {
          icons[name] = Icon(name: name, picture: try PictureFile.read(path: path))
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

import BitmapFonts
import Platform

/// Icons added from a phone: a picture checked as the icon folder's are, written to the
/// sign's icon folder (`--icons`) durably, and offered at once to content made from then on.
extension SignSession {
  /// Adds (or replaces) the icon `name` with the picture `bytes` (PNG, GIF, PBM or XBM, told
  /// apart by their first bytes), kept in the icon folder before this returns.
  ///
  /// - Throws: ``SignRefusal``: `unsupported` without an icon folder; `invalid` for a name an
  ///   icon cannot have or a built-in icon's, or a picture that does not decode or breaks
  ///   the limits of Docs/icons.md (the reason as the decoder gives it); `tooLarge` past the
  ///   folder's limits (``IconFolderLimits``); `notSaved` when the file cannot be written.
  public func addIcon(name: String, bytes: [UInt8]) throws(SignRefusal) {
    guard let folder = options.iconsPath else {
      throw SignRefusal(.unsupported, "this sign has no icon folder: start it with '--icons FOLDER' to add icons")
    }
    // Letters of any script and digits (one spelling each: no combining marks, so "café"
    // has only its composed form), '-' and '_'.
    let lettersAndDigits = name.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII || [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber, .letterNumber]
        .contains(scalar.properties.generalCategory)
    }
    guard Icon.isValidName(name), lettersAndDigits else {
      throw SignRefusal(field: "name", "'\(name)' cannot name an icon: use letters of any language (lower-case in Latin), digits, '-' and '_', at most 64 bytes")
    }
    guard IconSet.builtIn[name] == nil else {
      throw SignRefusal(field: "name", "'\(name)' is a built-in icon; give yours another name")
    }
    let icon: Icon
    do {
      icon = Icon(name: name, picture: try PictureFile.decode(bytes, path: name))
    } catch {
      throw SignRefusal(field: "body", error.reason)
    }
    // Only the new picture is decoded; the folder's limits are counted on what it holds.
    if let refusal = feed.fonts.icons.refusal(adding: icon) { throw SignRefusal(.tooLarge, field: "body", refusal) }
    let kind = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "png" : bytes.starts(with: Array("GIF8".utf8)) ? "gif"
      : bytes.first == 0x50 ? "pbm" : "xbm"
    do {
      try DurableFile.write(bytes, to: "\(folder)/\(name).\(kind)", what: "the icon")
    } catch {
      throw SignRefusal(.notSaved, "the icon was not added: \(error)")
    }
    // The same name under another kind of file would be read first, or after: only this one.
    for other in PictureFile.extensions where other != kind { FileSystem.removeFile("\(folder)/\(name).\(other)") }
    feed.fonts.replaceIcons(feed.fonts.icons.replacing(icon))
    changed()
  }
}

import Platform
import MatrixCore

/// Reads pictures: PBM (P1 and P4), XBM, PNG and GIF (animated included), told apart by
/// their first bytes, not by the file's name.
public enum PictureFile {
  /// The file extensions of pictures, in the order a name is looked for in an icon folder.
  public static let extensions = ["png", "gif", "pbm", "xbm"]

  /// Reads and decodes the picture at `path`.
  public static func read(path: String) throws(PictureError) -> Picture {
    let bytes: [UInt8]
    do {
      bytes = try FileBytes.read(path, limit: PictureLimits.maximumFileSize, regularOnly: true)
    } catch {
      throw PictureError(path: path, reason: error.reason)
    }
    return try decode(bytes, path: path)
  }

  /// Decodes a picture's bytes; `path` names it in errors.
  public static func decode(_ bytes: [UInt8], path: String) throws(PictureError) -> Picture {
    do throws(PictureFormatError) {
      if bytes.starts(with: PNGDecoder.signature) { return Picture(try PNGDecoder.decode(bytes)) }
      if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return try GIFDecoder.decode(bytes) }
      if bytes.starts(with: [0x50, 0x31]) || bytes.starts(with: [0x50, 0x34]) { return Picture(try NetpbmDecoder.decode(bytes)) }
      if bytes.starts(with: [0x50]) && bytes.count > 1 && (0x32...0x37).contains(bytes[1]) {
        throw PictureFormatError("a greymap or pixmap (P\(Character(Unicode.Scalar(bytes[1])))); only PBM bitmaps (P1, P4) are read: convert it with pamditherbw or pnmtopng")
      }
      if XBMDecoder.looksLikeXBM(bytes) { return Picture(try XBMDecoder.decode(bytes)) }
    } catch {
      throw PictureError(path: path, reason: error.reason)
    }
    throw PictureError(path: path, reason: "not a picture marquee reads (PNG, GIF, PBM or XBM)")
  }
}

/// What is wrong inside a picture's bytes (``PictureFile`` adds the file).
struct PictureFormatError: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}

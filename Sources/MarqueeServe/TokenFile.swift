import Platform
import Drivers
import SignService

/// The bearer token a non-loopback server asks for, kept in a file only its owner reads.
public enum TokenFile {
  /// Reads the token in `path`, or creates the file (mode 0600) with a new random one.
  ///
  /// - Throws: ``SignFailure`` naming the file.
  public static func load(_ path: String, reports: SignReports = .inMemory()) throws -> String {
    if let bytes = try? FileBytes.read(path, limit: 4096) {
      let token = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
      guard token.count >= 16 else {
        throw SignFailure("\(path): the token is shorter than 16 characters; delete the file to have a new one made")
      }
      var status = stat()
      if stat(path, &status) == 0 && status.st_mode & 0o077 != 0 {
        reports.warning("\(path) can be read by others (mode \(String(status.st_mode & 0o777, radix: 8))); chmod 600 it")
      }
      return token
    }
    var random = [UInt8](repeating: 0, count: 24)
    let source = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
    guard source >= 0, read(source, &random, random.count) == random.count else {
      throw SignFailure("cannot read /dev/urandom to make a token")
    }
    close(source)
    let token = random.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard file >= 0 else {
      throw SignFailure("\(path): cannot create the token file: \(String(cString: strerror(errno)))")
    }
    defer { close(file) }
    try writeAll(Array((token + "\n").utf8), to: file, what: path)
    reports.notice("Made a new token in \(path) (mode 600): give it to the clients as 'Authorization: Bearer <token>'.")
    return token
  }
}

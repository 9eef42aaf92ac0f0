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
      if let status = FileStatus(path: path), status.permissions & 0o077 != 0 {
        reports.warning("\(path) can be read by others (mode \(String(status.permissions & 0o777, radix: 8))); chmod 600 it")
      }
      return token
    }
    // The system's generator is the kernel's (getrandom(2)): fit for a secret.
    var generator = SystemRandomNumberGenerator()
    let token = (0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) }.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    let raw = Descriptor.open(path, OpenFlag.writeOnly | OpenFlag.create | OpenFlag.exclusive, mode: 0o600)
    guard raw >= 0 else {
      throw SignFailure("\(path): cannot create the token file: \(SystemError.last("create").reason)")
    }
    let file = FileDescriptor(owning: raw)
    try writeAll(Array((token + "\n").utf8), to: file.raw, what: path)
    reports.notice("Made a new token in \(path) (mode 600): give it to the clients as 'Authorization: Bearer <token>'.")
    return token
  }
}

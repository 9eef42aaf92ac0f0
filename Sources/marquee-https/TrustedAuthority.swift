import Platform

/// A source's own certificate authority (`"ca"`), trusted for this one fetch besides the
/// system's: libcurl on Linux reads the system's bundle file and FoundationNetworking offers
/// no way to add to it, so the helper, in a mount namespace of its own, binds a copy of the
/// bundle with the authority appended over the bundle's path. No other process sees it, and
/// the system's store is never changed.
enum TrustedAuthority {
  /// Where systems keep the bundle libcurl reads (the list FoundationNetworking searches).
  static let systemBundles = [
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/usr/share/ssl/certs/ca-bundle.crt",
    "/usr/local/share/certs/ca-root-nss.crt",
    "/etc/ssl/cert.pem",
  ]

  /// Why the authority could not be added.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Trusts the PEM certificates in the file `path` for this process. Call it while the
  /// process has one thread (before any URLSession).
  static func add(_ path: String) throws(Failure) {
    let authority: [UInt8]
    do {
      authority = try FileBytes.read(path, limit: 1_048_576, regularOnly: true)
    } catch {
      throw Failure(description: "the source's \"ca\": \(error)")
    }
    guard String(decoding: authority, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
      throw Failure(description: "the source's \"ca\": \(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
    }
    let bundles = systemBundles.filter { FileBytes.exists($0) && !FileBytes.isFolder($0) }
    guard !bundles.isEmpty else {
      throw Failure(description: "the source's \"ca\": no system certificate bundle to add it to (looked for \(systemBundles.joined(separator: ", ")))")
    }
    do {
      try PrivateMounts.enter()
    } catch {
      throw Failure(
        description: "the source's \"ca\" needs a mount namespace of the helper's own, which this system refuses (\(error.reason)); "
          + "add the authority to the system's store instead (Docs/sources.md, \"HTTPS\")")
    }
    for (index, bundle) in bundles.enumerated() {
      let copy = "/tmp/marquee-https-\(FileSystem.processID)-\(index)-\(UInt32.random(in: 0...UInt32.max)).pem"
      do {
        var joined = try FileBytes.read(bundle, limit: 16 * 1_048_576)
        joined += [0x0A] + authority + [0x0A]
        let file = try FileDescriptor(creatingNew: copy)
        defer { _ = FileSystem.removeFile(copy) }
        guard Descriptor.writeAll(file.raw, joined) else { throw SystemError.last("write", path: copy) }
        try PrivateMounts.bind(copy, over: bundle)
      } catch {
        throw Failure(description: "the source's \"ca\": \(error)")
      }
    }
  }
}

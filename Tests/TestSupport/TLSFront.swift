import Foundation
import Platform

/// A test's HTTPS server: a certificate authority made for the test, a certificate it signed
/// for 127.0.0.1, and a TLS front (Python's `ssl`) passing each connection to a plain
/// loopback server behind it (a ``ScriptedHTTPServer``), so every scripted answer comes over
/// TLS too.
public final class TLSFront: @unchecked Sendable {
  /// The authority's certificate (PEM): what a client is told to trust.
  public let authority: String
  public let port: UInt16
  private let folder: String
  private let front: ChildProcess

  /// Why there is no front on this machine: the tools it needs, by package.
  public static var missingTools: String? {
    ChildProcess.commandExists("openssl") && ChildProcess.commandExists("python3") ? nil : "needs openssl and python3 (apt-get install openssl python3)"
  }

  /// A front on a free loopback port for the server on `backendPort`.
  public init(backendPort: UInt16) throws {
    folder = NSTemporaryDirectory() + "marquee-tls-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    authority = folder + "/authority.pem"
    let made = try ChildProcess.shell(
      """
      cd '\(folder)' && \
      openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj '/CN=marquee test authority' \
        -addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign' -keyout authority.key -out authority.pem && \
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj '/CN=127.0.0.1' -keyout server.key -out server.csr && \
      printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nbasicConstraints=CA:FALSE\\nextendedKeyUsage=serverAuth\\n' > server.ext && \
      openssl x509 -req -in server.csr -CA authority.pem -CAkey authority.key -CAcreateserial -days 2 -extfile server.ext -out server.pem
      """, timeout: 60)
    guard made.status == 0 else { throw ChildError("openssl could not make the test's certificates: \(made.stderr)") }
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("tls_front.py").path
    let portFile = folder + "/port"
    front = try ChildProcess("/usr/bin/env", ["python3", script, folder + "/server.pem", folder + "/server.key", String(backendPort), portFile])
    guard eventually(within: 20, { FileManager.default.fileExists(atPath: portFile) }),
      let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = UInt16(text)
    else {
      let ended = front.wait(timeout: 1)
      throw ChildError("the TLS front did not start: \(ended.stderr)")
    }
    self.port = port
  }

  deinit {
    // A zero wait kills the front's process group.
    _ = front.wait(timeout: 0)
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// `https://127.0.0.1:PORT` and `path`.
  public func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }
}

import Platform

/// How `https://` is fetched: by the helper program `marquee-https`, one run per exchange,
/// through the toolchain's FoundationNetworking and the system's libcurl4. The sign itself
/// never loads Foundation or libcurl: a sign without HTTPS sources costs nothing for them,
/// and runs where libcurl4 is missing.
public struct SecureFetch: Sendable, Equatable {
  /// The helper's file name.
  public static let helperName = "marquee-https"

  /// The helper's path; nil: ``helperName`` beside the running program.
  public var helper: String?
  /// A PEM file of a certificate authority trusted for these fetches besides the system's
  /// (a source's `"ca"`, for a server with a private authority).
  public var certificateAuthority: String?

  public init(helper: String? = nil, certificateAuthority: String? = nil) {
    self.helper = helper
    self.certificateAuthority = certificateAuthority
  }

  /// ``helperName`` beside the running program, or nil where its path is unknown.
  public static func besideThisProgram() -> String? {
    guard let program = Environment.executablePath(), let slash = program.lastIndex(of: "/") else { return nil }
    return program[...slash] + helperName
  }

  /// One exchange with `url` (`https://`) by the helper, over by `deadline` (monotonic
  /// seconds): the answer as HTTP/1.1 bytes.
  func exchange(
    _ url: String, deadline: Double, limit: Double, maximumBytes: Int, entityTag: String?, lastModified: String?
  ) throws(HTTPFetch.Failure) -> [UInt8] {
    guard let path = helper ?? SecureFetch.besideThisProgram() else {
      throw HTTPFetch.Failure("\(url): https:// is fetched by the helper \(SecureFetch.helperName), and this system does not say where this program is")
    }
    let left = max(0.5, deadline - SystemClock.monotonicSeconds())
    var arguments = [url, "--limit", String(left), "--max-bytes", String(maximumBytes)]
    if let entityTag { arguments += ["--if-none-match", entityTag] }
    if let lastModified { arguments += ["--if-modified-since", lastModified] }
    if let certificateAuthority { arguments += ["--ca", certificateAuthority] }
    let outcome: HelperProgram.Outcome
    do {
      // The helper keeps the limit itself; the deadline here is for a helper that does not.
      outcome = try HelperProgram.run(path, arguments, outputLimit: maximumBytes + 65_536, deadline: deadline + 1)
    } catch {
      if error.code == Errno.noSuchFileOrDirectory {
        throw HTTPFetch.Failure(
          "\(url): https:// is fetched by the helper \(path), which is not there: build it and keep it beside marquee "
            + "(swift build -c release --product \(SecureFetch.helperName); Docs/sources.md, \"HTTPS\")")
      }
      throw HTTPFetch.Failure("\(url): the helper \(path) could not start: \(error.reason)")
    }
    let said = outcome.errorText
    switch outcome.ending {
    case .exited(0):
      return outcome.output
    case .exited(127) where said.contains("error while loading shared libraries"):
      throw HTTPFetch.Failure("\(url): https:// needs libcurl4 and the Swift runtime where the sign runs (apt install libcurl4; Docs/sources.md, \"HTTPS\"): \(said)")
    case .exited(_) where said.hasPrefix("no answer within"):
      // The helper was given what was left of the whole limit: the whole is what is said.
      throw HTTPFetch.Failure("\(url): no answer within \(HTTPFetch.seconds(limit)) s")
    case .exited(let status):
      throw HTTPFetch.Failure("\(url): " + (said.isEmpty ? "the helper \(path) failed (exit status \(status))" : said))
    case .signalled(let signal):
      throw HTTPFetch.Failure("\(url): the helper \(path) was ended by signal \(signal)")
    case .outlivedDeadline:
      throw HTTPFetch.Failure("\(url): no answer within \(HTTPFetch.seconds(limit)) s")
    case .wroteTooMuch:
      throw HTTPFetch.Failure("\(url): the document is larger than \(maximumBytes) bytes (the source's \"maxBytes\")")
    }
  }
}

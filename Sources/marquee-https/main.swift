// marquee-https: one HTTPS GET for a live data source of the sign, through the toolchain's
// FoundationNetworking (libcurl underneath), run by the sign for each `https://` fetch so
// neither Foundation nor libcurl is ever loaded into the sign itself.
//
//   marquee-https URL --limit SECONDS --max-bytes N [--if-none-match TAG]
//                 [--if-modified-since DATE] [--ca FILE]
//
// It writes the answer to standard output as HTTP/1.1 does (a status line, the headers the
// sign uses, Content-Length, the body), follows no redirect (the sign does, with its own
// rules), and on failure writes one line to standard error and exits 1 (64 for bad usage).
import Platform

let arguments = Array(CommandLine.arguments.dropFirst())
let request: HTTPSRequest
do {
  request = try HTTPSRequest(arguments: arguments)
} catch {
  HTTPSRequest.fail("marquee-https: \(error)", status: 64)
}
// First, while the process has one thread: a source's own certificate authority.
if let authority = request.certificateAuthority {
  do {
    try TrustedAuthority.add(authority)
  } catch {
    HTTPSRequest.fail("\(error)", status: 1)
  }
}
switch HTTPSExchange.run(request) {
case .success(let answer):
  Descriptor.writeAll(1, answer)
  Environment.exitProcess(0)
case .failure(let reason):
  HTTPSRequest.fail(reason.description, status: 1)
}

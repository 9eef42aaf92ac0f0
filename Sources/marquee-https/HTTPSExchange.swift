import Foundation
import Platform

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One GET through URLSession: no cache, no cookies, no redirect followed, the whole
/// exchange within the request's limit, the document no larger than its limit (the transfer
/// is cancelled the moment it is exceeded, so a huge answer costs no memory).
enum HTTPSExchange {
  /// Why the exchange failed, in words for the sign's owner.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The answer written as HTTP/1.1 (status line, ETag, Last-Modified, Location,
  /// Content-Type, Content-Length, body), or why there is none.
  static func run(_ request: HTTPSRequest) -> Result<[UInt8], Failure> {
    guard let url = URL(string: request.url), url.host != nil else {
      return .failure(Failure(description: "not an address URLSession can read"))
    }
    var get = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: request.limit)
    get.setValue("marquee", forHTTPHeaderField: "User-Agent")
    if let tag = request.entityTag { get.setValue(tag, forHTTPHeaderField: "If-None-Match") }
    if let date = request.lastModified { get.setValue(date, forHTTPHeaderField: "If-Modified-Since") }

    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.timeoutIntervalForRequest = request.limit
    configuration.timeoutIntervalForResource = request.limit
    let receiver = Receiver(maximumBytes: request.maximumBytes)
    let session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: nil)
    session.dataTask(with: get).resume()
    let finished = receiver.done.wait(timeout: .now() + request.limit + 1) == .success
    session.invalidateAndCancel()
    guard finished else { return .failure(Failure(description: HTTPSExchange.timedOut)) }
    return receiver.result()
  }

  /// What the helper says when its time ran out. The sign, which gave it what was left of
  /// a source's `timeout`, says the whole `timeout` instead (``SecureFetch``).
  static let timedOut = "no answer within the time limit (--limit)"

  /// The delegate that keeps the answer: its head, its body up to the limit, or the failure.
  final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let maximumBytes: Int
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var response: HTTPURLResponse?
    private var body: [UInt8] = []
    private var failure: String?

    init(maximumBytes: Int) {
      self.maximumBytes = maximumBytes
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
      newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
      // The redirect itself is the answer: the sign decides whether and where to follow it.
      completionHandler(nil)
    }

    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
      completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
      lock.withLock { self.response = response as? HTTPURLResponse }
      completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
      let tooLarge = lock.withLock {
        guard failure == nil else { return false }
        guard body.count + data.count <= maximumBytes else {
          failure = "the document is larger than \(maximumBytes) bytes (the source's \"maxBytes\")"
          return true
        }
        body += data
        return false
      }
      if tooLarge { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
      lock.withLock {
        if let error, failure == nil { failure = describe(error) }
      }
      done.signal()
    }

    /// The answer as HTTP/1.1, or the failure.
    func result() -> Result<[UInt8], Failure> {
      lock.withLock {
        if let failure { return .failure(Failure(description: failure)) }
        guard let response else { return .failure(Failure(description: "the server sent no answer")) }
        var head = "HTTP/1.1 \(response.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: response.statusCode))\r\n"
        for name in ["ETag", "Last-Modified", "Location", "Content-Type"] {
          if let value = response.value(forHTTPHeaderField: name), !value.contains(where: \.isNewline) { head += "\(name): \(value)\r\n" }
        }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return .success(Array(head.utf8) + body)
      }
    }

    /// What a URLSession error means to the owner of a sign.
    private func describe(_ error: any Error) -> String {
      let said = error.localizedDescription
      switch (error as? URLError)?.code {
      case .timedOut?: return HTTPSExchange.timedOut
      case .cannotFindHost?, .dnsLookupFailed?: return "the host was not found (\(said))"
      case .cannotConnectToHost?: return "the server refused the connection (\(said))"
      default: break
      }
      if said.contains("HTTP/0.9") || said.contains("Unsupported HTTP") { return "the answer is not HTTP (\(said))" }
      if said.contains("transfer closed") || said.contains("Partial file") { return "the answer ended early (\(said))" }
      if said.lowercased().contains("certificate") {
        return "the server's certificate is not trusted (\(said)); a private authority goes in the source's \"ca\""
      }
      return said
    }
  }
}

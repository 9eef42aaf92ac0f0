import Dispatch
import Synchronization

/// One response handed from the thread that makes it to the one that waits for it.
final class ResponseBox: Sendable {
  let value = Mutex<HTTPResponse?>(nil)
  let ready = DispatchSemaphore(value: 0)

  func put(_ response: HTTPResponse) {
    value.withLock { $0 = response }
    ready.signal()
  }

  func take() -> HTTPResponse {
    ready.wait()
    return value.withLock { $0! }
  }
}

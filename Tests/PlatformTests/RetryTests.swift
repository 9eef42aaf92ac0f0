import Platform
import Testing

/// A call is tried again only when it was interrupted: a call that returns 4 (a descriptor
/// numbered 4, an ioctl's answer) is not taken for EINTR, whose value is 4.
@Suite struct RetryTests {
  final class Calls: @unchecked Sendable { var count = 0 }

  @Test func aDescriptorNumberedFourIsNotAnInterruption() {
    let calls = Calls()
    let four: Int32 = retryingOnInterrupt {
      calls.count += 1
      return Int32(4)
    }
    #expect(four == 4 && calls.count == 1, "a call that returned 4 ran \(calls.count) times")
    let descriptor = Descriptor.open("/dev/null", OpenFlag.readOnly)
    #expect(descriptor >= 0)
    Descriptor.close(descriptor)
  }

  @Test func anErrorCodeOfEINTRIsTriedAgain() {
    let calls = Calls()
    let answer = retryingWhileErrorCodeIsInterrupted {
      calls.count += 1
      return calls.count < 3 ? Errno.interrupted : 0
    }
    #expect(answer == 0 && calls.count == 3)
  }
}

import Platform
import CKernel
import MatrixCore

/// A failure of a GPIO chip or its lines, keeping the `errno` and saying what to do.
public struct GPIOError: DeviceNodeError, Sendable, Equatable {
  /// The failed call: its `errno`, what was being done and the chip's device node.
  public var system: SystemError

  public init(system: SystemError) {
    self.system = system
  }

  public var description: String {
    let name = system.reason
    switch code {
    case Errno.noSuchFileOrDirectory where operation == "open":
      return "\(path): no such GPIO chip — 'gpiodetect' (package gpiod) lists the chips"
    case Errno.permissionDenied where operation == "open", Errno.notPermitted where operation == "open":
      return "\(path): permission denied — add your user to the 'gpio' group "
        + "(sudo usermod -aG gpio $USER, then log in again) or run as root"
    case Errno.resourceBusy:
      return "\(path): \(operation): a line is held by another program or driver (\(name)) — 'gpioinfo' shows who"
    case Errno.invalidArgument where operation.hasPrefix("request"):
      return "\(path): \(operation): no such line on this chip (\(name)) — 'gpioinfo' lists its lines"
    case Errno.inappropriateControl:
      return "\(path): not a GPIO chip (\(operation): \(name))"
    default:
      return "\(path): \(operation) failed: \(name)"
    }
  }
}

/// Output lines of one GPIO chip, requested together through the character device (the
/// kernel's v2 uAPI) and set together, one ioctl for any of them.
public final class GPIOLines {
  /// The chip's device node.
  public let chip: String
  /// The lines' offsets; bit i of ``set(_:mask:)`` is `offsets[i]`.
  public let offsets: [Int]
  let chipDescriptor: Int32
  let descriptor: Int32

  /// Requests `offsets` of `chip` as outputs, at `initial` (bit i for `offsets[i]`) from
  /// the first instant.
  ///
  /// - Throws: ``GPIOError`` naming the chip, with advice for the usual causes.
  public init(chip: String, offsets: [Int], consumer: String, initial: UInt64) throws(GPIOError) {
    self.chip = chip
    self.offsets = offsets
    let chipFD = StopSignal.open(chip, OpenFlag.readWrite | OpenFlag.closeOnExec)
    guard chipFD >= 0 else { throw GPIOError(path: chip, code: Errno.current, operation: "open") }
    chipDescriptor = chipFD
    let lines = offsets.map { UInt32($0) }
    let fd = lines.withUnsafeBufferPointer { offsets in
      marquee_gpio_request_outputs(chipFD, offsets.baseAddress, UInt32(offsets.count), consumer, initial)
    }
    guard fd >= 0 else {
      let code = Errno.current
      Descriptor.close(chipFD)
      throw GPIOError(path: chip, code: code, operation: "request lines \(offsets.map(String.init).joined(separator: ", "))")
    }
    descriptor = fd
  }

  deinit {
    Descriptor.close(descriptor)
    Descriptor.close(chipDescriptor)
  }

  /// Sets the lines of `mask` to `bits`, together.
  public func set(_ bits: UInt64, mask: UInt64) throws(GPIOError) {
    let result = retryingOnInterrupt { marquee_gpio_set_values(descriptor, bits, mask) }
    if result < 0 { throw GPIOError(path: chip, code: Errno.current, operation: "set lines") }
  }
}

import Platform
import CKernel
import MatrixCore

/// Sends I2C write messages to the devices on a bus.
public protocol I2CTransport: BatchTransport where Batch == I2CWrites {
  /// Sends the messages in order; each is one START, address, bytes, STOP.
  mutating func send(_ writes: I2CWrites) throws
}

extension I2CTransport {
  public mutating func reopen() throws {
    throw I2CError(path: "transport", code: Errno.notSupported, operation: "reopen")
  }
}

/// A failure on an I2C bus, keeping the `errno` and saying what to do about it.
public struct I2CError: DeviceNodeError, Sendable, Equatable {
  /// The failed call: its `errno`, what was being done (`open`, `write 17 bytes`) and the
  /// bus's device node.
  public var system: SystemError
  /// The device's address, when the failure concerns one.
  public var address: UInt8?

  /// Creates the error.
  public init(system: SystemError) {
    self.system = system
  }

  /// The error of a failed call concerning the device at `address`.
  public init(path: String, code: Int32, operation: String, address: UInt8?) {
    system = SystemError(code: code, operation: operation, path: path)
    self.address = address
  }

  public var description: String {
    let name = system.reason
    let bus = path.split(separator: "-").last.map(String.init) ?? "1"
    switch (code, address) {
    case (Errno.noSuchFileOrDirectory, _) where operation == "open":
      return "\(path): no such I2C bus — is I2C enabled (dtparam=i2c_arm=on), and is this the right bus number?"
    case (Errno.permissionDenied, _) where operation == "open", (Errno.notPermitted, _) where operation == "open":
      return "\(path): permission denied — add your user to the 'i2c' group "
        + "(sudo usermod -aG i2c $USER, then log in again) or run as root"
    case (Errno.remoteIOError, let address?), (Errno.noSuchDeviceOrAddress, let address?):
      return "\(path): no device acknowledged at address \(hex(address)) (\(name)) — check the wiring, "
        + "power and the address jumpers; 'i2cdetect -y \(bus)' lists the addresses that answer"
    case (Errno.resourceBusy, let address?):
      return "\(path): address \(hex(address)) is held by a kernel driver (an ht16k33 overlay?) — remove it "
        + "from config.txt, or unbind the driver"
    case (Errno.inappropriateControl, _):
      return "\(path): not an I2C bus (\(operation): \(name))"
    case (let code, let address?) where code == Errno.timedOut || code == Errno.tryAgain:
      return "\(path): \(operation) to \(hex(address)) timed out (\(name)) — is the bus stuck, or the pull-ups missing?"
    case (_, let address?):
      return "\(path): \(operation) to \(hex(address)) failed: \(name)"
    default:
      return "\(path): \(operation) failed: \(name)"
    }
  }
}

/// The Linux i2c-dev driver: `/dev/i2c-N`, opened once and kept open.
///
/// Each message is an `I2C_SLAVE` ioctl (only when the address changes) and one `write`,
/// which the adapter sends as START, address, bytes, STOP. A device that does not answer
/// makes the write fail with `EREMOTEIO` or `ENXIO` (the adapter's choice).
public final class I2CDevTransport: I2CTransport {
  /// The bus's device node.
  public let path: String
  var descriptor: Int32 = -1
  var currentAddress: Int = -1

  static let functions = UInt(marquee_i2c_funcs())

  /// Opens the bus and checks that it does plain I2C writes.
  ///
  /// - Throws: ``I2CError`` naming the bus, with advice for the usual causes.
  public init(path: String) throws(I2CError) {
    self.path = path
    try openBus()
  }

  /// Opens the bus (again) and checks its functions.
  func openBus() throws(I2CError) {
    let fd = StopSignal.open(path, OpenFlag.readWrite | OpenFlag.closeOnExec)
    guard fd >= 0 else { throw I2CError(path: path, code: Errno.current, operation: "open") }
    var mask: UInt = 0
    guard Descriptor.control(fd, I2CDevTransport.functions, &mask) else {
      let code = Errno.current
      Descriptor.close(fd)
      throw I2CError(path: path, code: code, operation: "read the adapter's functions")
    }
    guard mask & UInt(marquee_i2c_func_i2c()) != 0 else {
      Descriptor.close(fd)
      throw I2CError(path: path, code: Errno.notSupported, operation: "plain I2C writes (this adapter only does SMBus)")
    }
    descriptor = fd
    currentAddress = -1
  }

  public func reopen() throws {
    if descriptor >= 0 { Descriptor.close(descriptor) }
    descriptor = -1
    try openBus()
  }

  deinit { if descriptor >= 0 { Descriptor.close(descriptor) } }

  public func send(_ writes: I2CWrites) throws {
    for index in 0..<writes.count {
      let address = writes.address(index)
      if Int(address) != currentAddress {
        guard marquee_i2c_set_address(descriptor, UInt32(address)) == 0 else {
          throw I2CError(path: path, code: Errno.current, operation: "select", address: address)
        }
        currentAddress = Int(address)
      }
      let bytes = writes.bytes(index)
      let written = retryingOnInterrupt { bytes.withUnsafeBytes { Descriptor.write(descriptor, $0) } }
      if written < 0 { throw I2CError(path: path, code: Errno.current, operation: "write \(bytes.count) bytes", address: address) }
      if written != bytes.count {
        throw I2CError(path: path, code: Errno.ioError, operation: "write \(bytes.count) bytes (only \(written) went)", address: address)
      }
    }
  }
}

/// Writes every I2C message to a text file, one line each: the address, a colon, the bytes
/// in hex (`0x70: 00 ff 01`), so a board's traffic can be checked on any machine.
public final class I2CDumpTransport: I2CTransport {
  /// The file's path.
  public let path: String
  let file: FileDescriptor
  var descriptor: Int32 { file.raw }
  /// One line, reused.
  var line: [UInt8] = []

  /// Creates (or truncates) the dump file.
  public init(path: String) throws(I2CError) {
    self.path = path
    do { file = try FileDescriptor(creating: path) } catch { throw I2CError(system: error) }
  }

  /// - Throws: ``OutputError`` for a file's errors (a full disk, a size limit).
  public func send(_ writes: I2CWrites) throws {
    line.removeAll(keepingCapacity: true)
    for index in 0..<writes.count {
      line.append(UInt8(ascii: "0"))
      line.append(UInt8(ascii: "x"))
      appendHex(writes.address(index))
      line.append(UInt8(ascii: ":"))
      for byte in writes.bytes(index) {
        line.append(UInt8(ascii: " "))
        appendHex(byte)
      }
      line.append(UInt8(ascii: "\n"))
    }
    try writeAll(line[...], to: descriptor, what: path)
  }

  func appendHex(_ byte: UInt8) {
    func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10 }
    line.append(digit(byte >> 4))
    line.append(digit(byte & 15))
  }
}

/// Records what was sent, for tests of code that drives a sign.
public struct I2CRecordingTransport: I2CTransport {
  /// Every message sent, in order.
  public private(set) var messages: [(address: UInt8, bytes: [UInt8])] = []

  /// Creates an empty recorder.
  public init() {}

  public mutating func send(_ writes: I2CWrites) throws {
    for index in 0..<writes.count { messages.append((writes.address(index), Array(writes.bytes(index)))) }
  }
}

import Platform

/// A failure to reach a Pi's GPIO registers, saying what to do.
public struct GPIORegisterError: Error, Sendable, Equatable, CustomStringConvertible {
  public var description: String

  public init(_ description: String) { self.description = description }

  init(mapping error: SystemError) {
    switch error.code {
    case Errno.noSuchFileOrDirectory:
      self.init("\(error.path ?? ""): no such device — the kernel's GPIO memory driver is missing (Raspberry Pi OS and Debian's Pi kernels have it)")
    case Errno.permissionDenied, Errno.notPermitted:
      self.init("\(error.path ?? ""): permission denied — add your user to the 'gpio' group (sudo usermod -aG gpio $USER, then log in again) or run as root")
    default:
      self.init(error.description)
    }
  }
}

/// The GPIO registers of a Raspberry Pi mapped from user space: the BCM283x/2711 block
/// through `/dev/gpiomem`, or RP1's bank 0 (its IO, RIO and pad registers) through
/// `/dev/gpiomem0` on a Pi 5. Lines are driven by writing masks to the set and clear
/// registers; pins are made outputs at start and put back to inputs by ``release()``.
public final class PiGPIORegisters: @unchecked Sendable {
  public let pi: RaspberryPi
  let window: RegisterWindow
  /// The register a mask is written to to drive its lines high, and the one to drive low.
  public let setRegister: UnsafeMutablePointer<UInt32>, clearRegister: UnsafeMutablePointer<UInt32>
  /// The pins made outputs, and (RP1) the function each had before.
  var claimed: [(pin: Int, function: UInt32)] = []

  /// Bytes mapped: a page of the BCM block; RP1's IO bank, RIO block and pads.
  static let bcmLength = 4096, rp1Length = 0x30000
  /// BCM word indexes: function selects GPFSEL0-2, GPSET0, GPCLR0.
  static let bcmSet = 0x1C / 4, bcmClear = 0x28 / 4
  /// RP1 word indexes: a pin's control register, the RIO output-enable and its set and clear
  /// aliases, the RIO output's set and clear aliases, a pin's pad.
  static func rp1Control(_ pin: Int) -> Int { (8 * pin + 4) / 4 }
  static let rp1RIO = 0x10000 / 4, rp1SetAlias = 0x2000 / 4, rp1ClearAlias = 0x3000 / 4
  static func rp1Pad(_ pin: Int) -> Int { 0x20000 / 4 + 1 + pin }
  /// RP1 functions: the RIO block drives the pin; none.
  static let rp1FunctionRIO: UInt32 = 5, rp1FunctionNone: UInt32 = 0x1F

  /// Maps the registers of `pi` from `device` (its own device node if `nil`).
  ///
  /// - Throws: ``GPIORegisterError`` naming the node and what to do.
  public init(pi: RaspberryPi, device: String? = nil) throws(GPIORegisterError) {
    self.pi = pi
    let path = device ?? pi.gpioDevice
    do {
      window = try RegisterWindow(path: path, length: pi.hasRP1 ? PiGPIORegisters.rp1Length : PiGPIORegisters.bcmLength)
    } catch {
      throw GPIORegisterError(mapping: error)
    }
    if pi.hasRP1 {
      setRegister = window.address(of: PiGPIORegisters.rp1RIO + PiGPIORegisters.rp1SetAlias)
      clearRegister = window.address(of: PiGPIORegisters.rp1RIO + PiGPIORegisters.rp1ClearAlias)
    } else {
      setRegister = window.address(of: PiGPIORegisters.bcmSet)
      clearRegister = window.address(of: PiGPIORegisters.bcmClear)
    }
  }

  deinit { release() }

  /// A BCM pin's function-select field: 0 input, 1 output, others an alternate function.
  func bcmFunction(_ pin: Int) -> UInt32 {
    (window.load(pin / 10) >> UInt32(3 * (pin % 10))) & 7
  }

  func setBCMFunction(_ pin: Int, _ function: UInt32) {
    let shift = UInt32(3 * (pin % 10))
    window.store(window.load(pin / 10) & ~(7 << shift) | function << shift, at: pin / 10)
  }

  /// What `pin` is used for now, if it is neither a plain input nor an output: the
  /// alternate function's name (`ALT0`), or `nil`.
  public func otherFunction(of pin: Int) -> String? {
    if pi.hasRP1 {
      let function = window.load(PiGPIORegisters.rp1Control(pin)) & 0x1F
      return function == PiGPIORegisters.rp1FunctionRIO || function == PiGPIORegisters.rp1FunctionNone ? nil : "function a\(function)"
    }
    let function = bcmFunction(pin)
    return function <= 1 ? nil : "ALT\([2: 5, 3: 4, 4: 0, 5: 1, 6: 2, 7: 3][Int(function)]!)"
  }

  /// Makes `outputs` outputs, low but `high`, and `inputs` inputs. Nothing is changed if a
  /// pin of `outputs` serves another function (SPI, I2C, the UART, PWM sound).
  ///
  /// - Throws: ``GPIORegisterError`` naming the pin, its use and how to free it;
  ///   `names` gives each pin's signal for the message.
  public func claim(outputs: [Int], high: UInt32, inputs: [Int], names: [Int: String]) throws(GPIORegisterError) {
    for pin in outputs {
      if let function = otherFunction(of: pin) {
        throw GPIORegisterError(
          "GPIO \(pin) (\(names[pin] ?? "a line of the mapping")) is in use as \(function)\(PiGPIORegisters.usage(of: pin)); "
            + "free it or choose a mapping without it")
      }
    }
    for pin in inputs { makeInput(pin) }
    var mask: UInt32 = 0
    for pin in outputs { mask |= 1 << UInt32(pin) }
    storeRegister(clearRegister, mask & ~high)
    storeRegister(setRegister, mask & high)
    for pin in outputs {
      if pi.hasRP1 {
        let control = PiGPIORegisters.rp1Control(pin)
        let before = window.load(control)
        claimed.append((pin, before))
        // Output enabled in the pad, the pin given to the RIO block, then driven.
        window.store(window.load(PiGPIORegisters.rp1Pad(pin)) & ~(1 << 7), at: PiGPIORegisters.rp1Pad(pin))
        window.store(before & ~0x1F | PiGPIORegisters.rp1FunctionRIO, at: control)
        window.store(1 << UInt32(pin), at: PiGPIORegisters.rp1RIO + PiGPIORegisters.rp1SetAlias + 1)
      } else {
        claimed.append((pin, bcmFunction(pin)))
        setBCMFunction(pin, 1)
      }
    }
  }

  func makeInput(_ pin: Int) {
    if pi.hasRP1 {
      window.store(1 << UInt32(pin), at: PiGPIORegisters.rp1RIO + PiGPIORegisters.rp1ClearAlias + 1)
    } else {
      setBCMFunction(pin, 0)
    }
  }

  /// Puts every claimed pin back to an input (RP1: its function as it was); called once
  /// the lines are left at rest.
  public func release() {
    for (pin, function) in claimed {
      makeInput(pin)
      if pi.hasRP1 { window.store(function, at: PiGPIORegisters.rp1Control(pin)) }
    }
    claimed.removeAll()
  }

  /// What a pin's alternate function usually is, and how to turn it off.
  static func usage(of pin: Int) -> String {
    switch pin {
    case 7...11: " (SPI0: turn SPI off with dtparam=spi=off in config.txt)"
    case 2, 3: " (I2C1: turn I2C off with dtparam=i2c_arm=off in config.txt)"
    case 14, 15: " (the serial port: turn the serial console off in raspi-config, or enable_uart=0)"
    case 12, 13, 18, 19: " (PWM, the on-board sound: dtparam=audio=off in config.txt)"
    default: ""
    }
  }
}

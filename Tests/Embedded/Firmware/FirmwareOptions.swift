import FontCore
import TimelineCore

/// What went wrong, said in one line.
struct FirmwareError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

/// The firmware's arguments: the options of `marquee` it understands, with the same names
/// and defaults, and the messages.
struct FirmwareOptions {
  var width = 64
  var height = 8
  var fps = 40.0
  var frames = 1
  var mode = DisplayMode.auto
  var entry = "scroll-up"
  var exit: String?
  var duration = 0.5
  var dwell = 2.0
  var speed = 20.0
  var gap = 8
  var letterSpacing = 1
  /// With a number of modules: send the frames to a chain of FC-16 MAX7219 modules through
  /// the SPI block, and print the bytes instead of the frames.
  var max7219: Int?
  /// Whether to print the instruction and memory figures to standard error at the end.
  var stats = false
  var messages: [String] = []

  init(arguments: [String]) throws(FirmwareError) {
    var index = 0
    func value(_ name: String) throws(FirmwareError) -> String {
      index += 1
      guard index < arguments.count else { throw FirmwareError("\(name) needs a value") }
      return arguments[index]
    }
    func count(_ name: String, in range: ClosedRange<Int>) throws(FirmwareError) -> Int {
      let text = try value(name)
      guard let number = Int(text, radix: 10), range.contains(number) else {
        throw FirmwareError("\(name): expected a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
      }
      return number
    }
    func number(_ name: String, in range: ClosedRange<Double>) throws(FirmwareError) -> Double {
      let text = try value(name)
      guard let number = decimal(text), range.contains(number) else {
        throw FirmwareError("\(name): expected a number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
      }
      return number
    }
    var sizeGiven = false
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--width": (width, sizeGiven) = (try count(argument, in: 1...1024), true)
      case "--height": (height, sizeGiven) = (try count(argument, in: 1...256), true)
      case "--frames": frames = try count(argument, in: 0...1_000_000)
      case "--fps": fps = try number(argument, in: 0.001...1000)
      case "--mode":
        let name = try value(argument)
        guard let chosen = DisplayMode(rawValue: name) else {
          throw FirmwareError("--mode: expected auto, scroll, cycle or pages, got '\(name)'")
        }
        mode = chosen
      case "--in": entry = try value(argument)
      case "--out": exit = try value(argument)
      case "--duration": duration = try number(argument, in: 0...86_400)
      case "--dwell": dwell = try number(argument, in: 0...86_400)
      case "--speed": speed = try number(argument, in: 0...100_000)
      case "--gap": gap = try count(argument, in: 0...1024)
      case "--letter-spacing": letterSpacing = try count(argument, in: 0...64)
      case "--max7219": max7219 = try count(argument, in: 1...32)
      case "--stats": stats = true
      case "--": messages += arguments[(index + 1)...]; index = arguments.count
      default:
        if argument.hasPrefix("--") { throw FirmwareError("unknown option '\(argument)'") }
        messages.append(argument)
      }
      index += 1
    }
    if let modules = max7219 {
      // The chain sets the size, as a board file does for marquee.
      if sizeGiven {
        throw FirmwareError("--width/--height do not match a chain of \(modules) modules (\(modules * 8)x8); leave them out with --max7219")
      }
      (width, height) = (modules * 8, 8)
    }
  }

  /// The zone's content, built as `marquee` builds it from the same options.
  var content: ZoneContent {
    get throws(FirmwareError) {
      let transition: Transition
      do {
        transition = Transition(
          entry: try EffectCatalog.parse(entry), exit: try exit.map { name throws(EffectCatalog.UnknownEffect) in try EffectCatalog.parse(name) },
          duration: duration)
      } catch {
        throw FirmwareError("\(error)")
      }
      let ribbon = ZoneContent.Ribbon(speed: speed, gap: gap)
      let motion: ZoneContent.Motion =
        switch mode {
        case .auto: .auto(ribbon)
        case .scroll: .scroll(ribbon)
        case .cycle: .cycle(ZoneContent.Cycle(dwell: dwell, speed: speed))
        case .pages: .cycle(ZoneContent.Cycle(dwell: dwell, speed: speed, pages: ZoneContent.Pages()))
        }
      return ZoneContent(
        messages: messages, motion: motion,
        style: ZoneContent.Style(renderer: TextRenderer(letterSpacing: letterSpacing)), transition: transition)
    }
  }
}

/// A decimal number without exponent (`12`, `0.5`, `-3.25`), or `nil`. (Embedded Swift has
/// no `Double(String)`: it needs the C library's `strtod`.)
func decimal(_ text: String) -> Double? {
  var whole: Int64 = 0, fraction: Int64 = 0, scale: Int64 = 1
  var digits = 0, seenPoint = false, negative = false
  for (offset, byte) in text.utf8.enumerated() {
    switch byte {
    case UInt8(ascii: "-") where offset == 0: negative = true
    case UInt8(ascii: ".") where !seenPoint: seenPoint = true
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      guard digits < 15 else { return nil }
      digits += 1
      let digit = Int64(byte - UInt8(ascii: "0"))
      if seenPoint {
        fraction = fraction * 10 + digit
        scale *= 10
      } else {
        whole = whole * 10 + digit
      }
    default: return nil
    }
  }
  guard digits > 0 else { return nil }
  let value = Double(whole) + Double(fraction) / Double(scale)
  return negative ? -value : value
}

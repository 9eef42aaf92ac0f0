import Platform

/// The text form of one HUB75 refresh (`--hub75-dump`), for other tools to decode:
///
/// ```
/// # hub75 trace v1
/// pins r1=11 g1=27 b1=7 r2=8 g2=9 b2=10 a=22 b=23 c=24 d=25 e=15 clk=17 lat=4 oe=18
/// set 0x00020000
/// clr 0x00020000
/// oe 8
/// ```
///
/// `pins` names each line's BCM GPIO (parallel chains add `r1_1=` … `b2_2=`); `set MASK` and
/// `clr MASK` are the words written to the set and clear registers, in order; `oe WEIGHT` is
/// one output-enable pulse in which the latched row pair shows for WEIGHT units (2^plane).
public enum HUB75Trace {
  /// The first line.
  public static let header = "# hub75 trace v1"

  /// The `pins` line of `board`.
  public static func pinsLine(_ board: HUB75Board) -> String {
    "pins " + board.pins.namedLines(parallel: board.parallel).map { "\($0.name)=\($0.gpio)" }.joined(separator: " ")
  }

  /// Appends the trace of `program` to `text` (bytes of UTF-8), allocating nothing once
  /// `text` has room.
  static func append(_ program: HUB75Program, pins: [UInt8], to text: inout [UInt8]) {
    text.append(contentsOf: pins)
    for word in program.words {
      let mask = word & ~HUB75Program.tagMask
      switch word & HUB75Program.tagMask {
      case HUB75Program.setTag, HUB75Program.clearTag:
        text.append(contentsOf: word & HUB75Program.tagMask == HUB75Program.setTag ? setWord : clearWord)
        for shift in stride(from: 28, through: 0, by: -4) { text.append(hexDigits[Int((mask >> UInt32(shift)) & 15)]) }
      default:
        text.append(contentsOf: pulseWord)
        var weight = 1 << Int(mask), digits = 1
        while weight / digits >= 10 { digits *= 10 }
        while digits > 0 {
          text.append(0x30 + UInt8(weight / digits))
          weight %= digits
          digits /= 10
        }
      }
      text.append(0x0A)
    }
  }

  static let hexDigits = Array("0123456789abcdef".utf8)
  static let setWord = Array("set 0x".utf8), clearWord = Array("clr 0x".utf8), pulseWord = Array("oe ".utf8)

  /// Reads a trace: the pins it names and its steps.
  ///
  /// - Throws: ``TraceError`` naming the line that is not a trace's.
  public static func read(_ text: String) throws(TraceError) -> (pins: [String: Int], steps: [HUB75Program.Step]) {
    var pins: [String: Int] = [:]
    var steps: [HUB75Program.Step] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let fields = line.split(separator: " ")
      guard let kind = fields.first else { continue }
      let bad = TraceError(line: index + 1, text: String(line))
      switch kind {
      case "#":
        if index == 0 && line != header { throw bad }
      case "pins":
        for field in fields.dropFirst() {
          let parts = field.split(separator: "=")
          guard parts.count == 2, let gpio = Int(parts[1]) else { throw bad }
          pins[String(parts[0])] = gpio
        }
      case "set", "clr":
        guard fields.count == 2, fields[1].hasPrefix("0x"), let mask = UInt32(fields[1].dropFirst(2), radix: 16) else { throw bad }
        steps.append(kind == "set" ? .set(mask) : .clear(mask))
      case "oe":
        guard fields.count == 2, let weight = Int(fields[1]), weight > 0, weight & (weight - 1) == 0 else { throw bad }
        steps.append(.pulse(plane: weight.trailingZeroBitCount))
      default:
        throw bad
      }
    }
    return (pins, steps)
  }

  /// A line that is not a trace's.
  public struct TraceError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var text: String
    public var description: String { "line \(line): '\(text)' is not a HUB75 trace line" }
  }
}

/// Writes the refresh of the last lit frame to a file (`--hub75-dump`), as a
/// ``HUB75Trace`` (after the panel's register writes, between `# panel init` and `# refresh`
/// comments, for a board with `panelType`): each lit frame rewrites it, so at the end it holds the last frame's
/// refresh (dark programs, at start and exit, leave it as it is). A pipe or device that
/// cannot be rewritten gets each lit frame's trace in turn.
public final class HUB75DumpTransport: BatchTransport {
  public let path: String
  let file: FileDescriptor
  let pins: [UInt8]
  var text: [UInt8] = []
  /// Whether the file is a regular one, rewritten from the start for each frame.
  let rewrites: Bool

  /// Creates (or truncates) the file.
  public init(path: String, board: HUB75Board) throws(SystemError) {
    self.path = path
    file = try FileDescriptor(creating: path)
    var start = Array((HUB75Trace.header + "\n" + HUB75Trace.pinsLine(board) + "\n").utf8)
    if let panelInit = board.panelInit {
      // The chips' register writes come once, before the first refresh: in the trace
      // between comments, ahead of the refresh.
      var text: [UInt8] = []
      HUB75Trace.append(panelInit.program(for: board), pins: Array("# panel init \(panelInit.rawValue)\n".utf8), to: &text)
      start += text + Array("# refresh\n".utf8)
    }
    pins = start
    rewrites = Descriptor.isRegularFile(file.raw)
  }

  public func send(_ program: HUB75Program) throws {
    guard !program.words.isEmpty else { return }
    text.removeAll(keepingCapacity: true)
    HUB75Trace.append(program, pins: pins, to: &text)
    if rewrites, !Descriptor.truncateToStart(file.raw) {
      throw SystemError.last("rewrite the trace", path: path)
    }
    try writeAll(text, to: file.raw, what: path)
  }

  public func reopen() throws {
    throw SystemError(code: Errno.notSupported, operation: "reopen", path: path)
  }
}

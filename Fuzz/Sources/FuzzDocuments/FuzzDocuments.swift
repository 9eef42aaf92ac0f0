import Marquee
import MatrixCore
import SignService

/// One sign for every input, built as `marquee` builds it.
let sign = try! SignPlan.build(RunOptions(), stop: StopFlag(), now: 0)

/// Numbers at the ends of the ranges the documents take, and past them.
let extremes: [String] = [
  "0", "-0", "1e-300", "5e-324", "1e-6", "0.1", "1", "2", "100", "86400", "86400.0001", "100000", "1e15", "1e300",
  "-1", "-1e300", "2147483647", "9223372036854775807", "18446744073709551616", "1.7976931348623157e308",
]
let keys = ["speed", "dwell", "duration", "passes", "priority", "gap", "letterSpacing", "lineSpacing", "seed", "lifetime"]
let modes = ["\"scroll\"", "\"cycle\"", "\"pages\"", "\"auto\""]
let effects = ["\"scroll-up\"", "\"fade+scroll-left\"", "\"wipe-cursor-right\"", "\"random\""]

/// libFuzzer entry point: the bytes choose a content or notify document, its keys and their
/// values at the ends of their ranges; it goes through the feed as a line does, and frames
/// are drawn at times from 0 to far beyond any clock, as the frame loop would.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let first = bytes.first else { return 0 }
  var members = [#""messages": ["A long enough message to scroll along {icon:train}", "Two"]"#]
  var index = 1
  while index + 1 < bytes.count {
    let key = keys[Int(bytes[index]) % keys.count]
    let value = extremes[Int(bytes[index + 1]) % extremes.count]
    members.append("\"\(key)\": \(value)")
    index += 2
  }
  members.append("\"mode\": \(modes[Int(first >> 4) % modes.count])")
  if first & 1 != 0 { members.append("\"in\": \(effects[Int(first >> 1) % effects.count])") }
  let document = "{" + members.joined(separator: ", ") + "}"
  let line = first & 8 != 0 ? #"{"notify": "# + document.replacingOccurrences(of: "\"seed\"", with: "\"wake\"") + "}" : document
  _ = try? sign.feed.handle(line)
  var frame = Frame(width: sign.timeline.width, height: sign.timeline.height)
  var workspace = FrameWorkspace()
  for t in [0, 0.5, 1e3, 1e9, 1e15, 1e300] {
    sign.timeline.render(at: t, into: &frame, workspace: &workspace)
    _ = sign.timeline.nextChange(after: t)
  }
  return 0
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    var result = ""
    var rest = Substring(self)
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound] + replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}

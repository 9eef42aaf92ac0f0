import Marquee
import MatrixCore
import SignService

/// One sign for every input, built as `marquee` builds it.
let sign = try! SignPlan.build(RunOptions(), stop: StopFlag(), now: 0)

/// libFuzzer entry point: any bytes as a `--stdin` line (plain text or a JSON content
/// document), through the feed's public API.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  _ = try? sign.feed.handle(String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
  // The next frame applies the update, as the frame loop does.
  var frame = Frame(width: sign.timeline.width, height: sign.timeline.height)
  var workspace = FrameWorkspace()
  sign.timeline.render(at: 1, into: &frame, workspace: &workspace)
  return 0
}

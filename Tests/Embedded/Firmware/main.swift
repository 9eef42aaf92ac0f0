import FontCore
import MAX7219Core
import TimelineCore
import MatrixCore

/// The firmware's entry, called by Hooks.c after reset: reads the arguments, plays the
/// frames and prints them as `marquee --output ascii --no-wait` does on Linux.
@_cdecl("marquee_firmware")
func marqueeFirmware() -> Int32 {
  let options: FirmwareOptions
  do {
    options = try FirmwareOptions(arguments: (0..<firmware_argument_count()).map { String(cString: firmware_argument($0)) })
  } catch {
    report("marquee firmware: \(error.message)\n")
    return 1
  }
  do {
    try play(options)
  } catch {
    report("marquee firmware: \(error.message)\n")
    return 1
  }
  return 0
}

/// Renders `options.frames` frames at `t = i / fps` and prints each as `height` lines of
/// `#`/`.` and an empty line; with `--max7219`, also sends each through the SPI block.
func play(_ options: FirmwareOptions) throws(FirmwareError) {
  let content = try options.content
  let timeline: any ZoneTimeline
  do {
    timeline = try content.makeTimeline(width: options.width, height: options.height)
  } catch {
    throw FirmwareError("\(error)")
  }
  var frame = Frame(width: options.width, height: options.height)
  var workspace = FrameWorkspace()
  var text: [UInt8] = []
  text.reserveCapacity((options.width + 1) * options.height + 1)
  var meter = FrameMeter()
  var chain = try options.max7219.map { modules throws(FirmwareError) in try MAX7219Chain(modules: modules) }
  for index in 0..<options.frames {
    let t = Double(index) / options.fps
    meter.start()
    timeline.render(at: t, into: &frame, workspace: &workspace)
    meter.stop(steady: index > 0)
    if chain != nil {
      chain!.show(frame)
      continue
    }
    text.removeAll(keepingCapacity: true)
    frame.pixels.appendText(to: &text)
    text.append(UInt8(ascii: "\n"))
    text.withUnsafeBufferPointer { firmware_write(1, $0.baseAddress, $0.count) }
  }
  chain?.shutDown()
  if options.stats { meter.printFigures(frames: options.frames) }
}

/// A chain of FC-16 MAX7219 modules on the board's first PL022 (MPS2: 0x40020000), in
/// loopback: each batch the encoder writes is sent, and the bytes that came back through
/// the port go to standard output.
struct MAX7219Chain {
  var encoder: MAX7219Encoder
  let port = PL022(base: 0x4002_0000, loopback: true)
  var batch = SPITransactions()
  var received: [UInt8] = []

  init(modules: Int) throws(FirmwareError) {
    do {
      encoder = MAX7219Encoder(board: try MAX7219Board(name: "FC-16", wiring: .fc16, columns: modules))
    } catch {
      throw FirmwareError("--max7219: \(error)")
    }
    received.reserveCapacity(modules * 2 * 16)
    encoder.startUp(into: &batch)
    flush()
  }

  mutating func show(_ frame: Frame) {
    encoder.encode(frame, into: &batch)
    flush()
  }

  mutating func shutDown() {
    encoder.shutDown(into: &batch)
    flush()
  }

  mutating func flush() {
    received.removeAll(keepingCapacity: true)
    port.send(batch, receiving: &received)
    batch.removeAll()
    received.withUnsafeBufferPointer { firmware_write(1, $0.baseAddress, $0.count) }
  }
}

/// Counts what rendering the frames takes: instructions (from the clock, under QEMU's
/// `-icount`, one instruction a nanosecond) and allocations.
struct FrameMeter {
  var ticks: UInt64 = 0
  var frames = 0
  var allocations = 0
  var startTicks: UInt32 = 0
  var startAllocations = 0

  mutating func start() {
    startAllocations = Int(firmware_allocations())
    startTicks = firmware_clock_ticks()
  }

  mutating func stop(steady: Bool) {
    let now = firmware_clock_ticks()
    guard steady else { return }
    ticks += UInt64((startTicks &- now) & 0xFF_FFFF)
    allocations += Int(firmware_allocations()) - startAllocations
    frames += 1
  }

  func printFigures(frames total: Int) {
    // The clock's ticks for a loop of a known number of instructions turn ticks into
    // instructions.
    let calibration = UInt64(firmware_calibrate(1_000_000))
    let instructions = calibration == 0 || frames == 0 ? 0 : ticks * 1_000_000 / calibration / UInt64(frames)
    var lines = "frames: \(total)\n"
    lines += "instructions per frame: \(instructions)\n"
    lines += "allocations per frame: \(frames == 0 ? 0 : allocations / frames) (\(allocations) in \(frames) frames after the first)\n"
    lines += "heap peak: \(firmware_heap_peak()) bytes\n"
    lines += "stack peak: \(firmware_stack_peak()) bytes\n"
    lines += "static data: \(firmware_static_size()) bytes\n"
    lines += "constant objects in flash: \(firmware_constant_objects_size()) bytes, \(firmware_constant_objects_unchanged() ? "unchanged" : "WRITTEN TO")\n"
    lines += "RAM: \(firmware_ram_size()) bytes\n"
    report(lines)
  }
}

/// Writes `message` to the host's standard error.
func report(_ message: String) {
  var message = message
  message.withUTF8 { firmware_write(2, $0.baseAddress, $0.count) }
}

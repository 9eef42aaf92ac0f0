import Platform
import Synchronization

/// What a HUB75 refresh loop achieved, measured on its own thread.
public struct HUB75ScanStatistics: Sendable {
  /// Refreshes (every row pair, every bitplane) a second while lit.
  public var refreshHz: Double
  /// Refreshes run.
  public var refreshes: Int
  /// The loop's CPU time as a share of one core.
  public var cpuShare: Double
  /// How much longer than asked the pulses were lit, in microseconds: median, 99th
  /// percentile, worst.
  public var pulseLateP50: Double, pulseLateP99: Double, pulseLateMax: Double
  /// Register writes per refresh (slowdown writes included) and pulses per refresh.
  public var writesPerRefresh: Int, pulsesPerRefresh: Int
  /// Whether the thread ran at real-time priority (SCHED_FIFO).
  public var realTime: Bool
}

/// The refresh loop of a HUB75 sign: its own thread running the refresh program again and
/// again on the GPIO registers. As a ``BatchTransport`` it takes programs from the display
/// and swaps to the newest one only between refreshes, so a frame never tears.
///
/// Each step of the program is a store to the set or clear register (repeated `slowdown`
/// times more); a pulse drives OE low, holds it for the lit share of the plane's time on the
/// monotonic clock, drives it high and waits out the dark rest, so the brightness is
/// exactly the duty. After each refresh the loop rests a sixteenth of its time (so the
/// kernel's throttling of real-time threads never stops it mid-pulse), and with `refreshHz`
/// as long as holding that rate takes; either way it says once (through `warn`) when it
/// cannot reach it or the flicker floor.
/// ``finish()`` stops the thread with OE high and the pins back to inputs.
public final class HUB75Scanner: BatchTransport, @unchecked Sendable {
  public typealias Batch = HUB75Program

  struct Shared: ~Copyable {
    var latest = HUB75Program()
    var fresh = false
    var stop = false
  }

  public let board: HUB75Board
  let gpio: PiGPIORegisters
  let shared = Mutex(Shared())
  let warn: (@Sendable (String) -> Void)?
  /// The display's buffer and the thread's.
  var spare = HUB75Program(), current = HUB75Program()
  var thread: JoinableThread?
  var finished = false
  /// Working while a refresh runs, resting while it idles dark or waits for its next turn:
  /// a loop stuck in a register write or a wait stops a watchdog's pings.
  public let heartbeat = Heartbeat()
  /// The `errno` of the attempt at real-time priority (0: it runs at SCHED_FIFO).
  public private(set) var realTimeError: Int32 = 0
  /// The CPU the loop keeps to: the last one the kernel isolates (`isolcpus=`), if any.
  public let cpu: Int?
  let finishedRefreshes = Atomic<Int>(0)

  /// Refreshes run so far (read while the loop runs).
  public var refreshesSoFar: Int { finishedRefreshes.load(ordering: .relaxed) }

  // Written by the thread, read after it ends.
  var lateness = LatenessLog()
  var refreshes = 0, litNs: Int64 = 0, startNs: Int64 = 0, endNs: Int64 = 0, cpuNs: Int64 = 0
  var writesPerRefresh = 0, pulsesPerRefresh = 0

  /// Whether OE stays high through every pulse: the refresh runs in full, with its timing,
  /// and nothing lights (`marquee doctor` measures it so).
  public let dark: Bool
  /// The lines that must not change while a row pair is lit: the latch and the address
  /// lines (the colour lines and the clock may: they only fill the shift registers).
  let changedOnlyInTheDark: UInt32
  /// How long the last few writes between two looks at the clock took, while a pulse was
  /// lit: the loop ends a pulse before the next batch of writes would run past it.
  var batchNanoseconds: Int64 = 2_000

  /// Maps the registers of `pi`, makes the map's lines outputs (OE high: dark) and starts
  /// the loop; `warn` hears when the refresh rate falls short; `dark` keeps the panel dark
  /// through every refresh.
  ///
  /// - Throws: ``GPIORegisterError`` (no device, permission, a pin used by SPI, I2C...).
  public init(board: HUB75Board, pi: RaspberryPi, warn: (@Sendable (String) -> Void)? = nil, dark: Bool = false) throws {
    self.board = board
    self.warn = warn
    self.dark = dark
    changedOnlyInTheDark = board.pins.addressMasks.reduce(1 << UInt32(board.pins.lat), |)
    gpio = try PiGPIORegisters(pi: pi, device: board.device)
    cpu = RealTimeThread.isolatedCPU()
    let lines = board.pins.namedLines(parallel: board.parallel)
    let used = lines.filter { line in
      guard let index = ["a", "b", "c", "d", "e"].firstIndex(of: line.name) else { return true }
      return board.rowAddress.lines(rowPairs: board.rowPairs).contains(index)
    }
    try gpio.claim(
      outputs: used.map(\.gpio), high: 1 << UInt32(board.pins.oe), inputs: board.pins.inputs,
      names: Dictionary(used.map { ($0.gpio, $0.name.uppercased()) }) { first, _ in first })
    // The driver chips' registers, once, before the first refresh (OE high all along).
    if let panelInit = board.panelInit { run(panelInit.program(for: board), oe: 1 << UInt32(board.pins.oe), pulseNs: []) }
    do {
      (thread, realTimeError) = try RealTimeThread.start(priority: 10, name: "marquee-hub75") { [self] in scan() }
    } catch {
      gpio.release()
      throw GPIORegisterError("cannot start the refresh thread: \(error)")
    }
  }

  // MARK: The display's side

  public func send(_ program: HUB75Program) throws {
    spare.assign(program)
    shared.withLock { state in
      swap(&state.latest, &spare)
      state.fresh = true
    }
  }

  public func reopen() throws {
    throw GPIORegisterError("a HUB75 sign is refreshed continuously; its registers are not mapped again")
  }

  /// Stops the loop, leaving OE high (dark) and the pins inputs, and waits for the thread.
  public func finish() throws {
    guard !finished else { return }
    finished = true
    shared.withLock { $0.stop = true }
    thread?.join()
    gpio.release()
  }

  /// The loop's figures, once it has finished.
  public var statistics: HUB75ScanStatistics {
    let late = lateness.microseconds
    return HUB75ScanStatistics(
      refreshHz: litNs > 0 ? Double(refreshes) / (Double(litNs) / 1e9) : 0, refreshes: refreshes,
      cpuShare: Double(cpuNs) / Double(max(1, endNs - startNs)), pulseLateP50: late.p50, pulseLateP99: late.p99,
      pulseLateMax: late.max, writesPerRefresh: writesPerRefresh, pulsesPerRefresh: pulsesPerRefresh, realTime: realTimeError == 0)
  }

  // MARK: The thread's side

  /// Takes the newest program, if the display sent one since the last look; `true` to stop.
  func takeNewest() -> Bool {
    shared.withLock { state in
      if state.fresh {
        swap(&state.latest, &current)
        state.fresh = false
      }
      return state.stop
    }
  }

  func scan() {
    if let cpu { RealTimeThread.pinCallingThread(to: cpu) }
    let oe = UInt32(1) << UInt32(board.pins.oe)
    let pulseNs = (0..<board.colorDepth).map { Int64(board.pulseNanoseconds(plane: $0)) }
    let period = board.refreshHz.map { Int64(1_000_000_000 / $0) }
    let floor = Double(board.refreshHz ?? HUB75Board.flickerFloorHz)
    var warned = false
    var windowStart: Int64 = 0, windowRefreshes = 0
    startNs = SystemClock.monotonicNanoseconds()
    var deadline = startNs
    while !takeNewest() {
      guard !current.words.isEmpty, current.onFraction > 0 else {
        // Dark: OE high, and nothing to run until a lit program comes (looked for five
        // times a second).
        storeRegister(gpio.setRegister, oe)
        heartbeat.resting()
        while !shared.withLock({ $0.stop || $0.fresh }) {
          SystemClock.sleep(until: SystemClock.monotonicNanoseconds() + 200_000_000)
        }
        deadline = SystemClock.monotonicNanoseconds()
        windowStart = 0
        continue
      }
      let begin = SystemClock.monotonicNanoseconds()
      heartbeat.working(at: begin)
      run(current, oe: oe, pulseNs: pulseNs)
      let end = SystemClock.monotonicNanoseconds()
      // A dithered program holds several refreshes.
      refreshes += current.refreshes
      finishedRefreshes.store(refreshes, ordering: .relaxed)
      // The refresh rate over each second: below the floor, say so once.
      if windowStart == 0 { (windowStart, windowRefreshes) = (end, 0) }
      windowRefreshes += current.refreshes
      if end - windowStart >= 1_000_000_000 {
        let rate = Double(windowRefreshes) / (Double(end - windowStart) / 1e9)
        if rate < floor && !warned, let warn {
          warned = true
          warn(
            "the HUB75 refresh reaches \(Int(rate)) Hz, below \(board.refreshHz.map { "the board's refreshHz \($0)" } ?? "the flicker floor of \(HUB75Board.flickerFloorHz)") Hz: "
              + "lower 'colorDepth' or 'lsbNanoseconds', use parallel chains instead of a long chain, or lower 'slowdown'")
        }
        (windowStart, windowRefreshes) = (end, 0)
      }
      // A rest of a sixteenth of the refresh: a real-time thread that never sleeps is
      // stopped by the kernel for 50 ms of every second (sched_rt_runtime_us, 95 %), and a
      // stop mid-pulse leaves one row lit that long.
      var wake = end + (end - begin) / 16
      if let period {
        deadline += period * Int64(current.refreshes)
        if end - deadline > period * Int64(current.refreshes) { deadline = end }
        wake = max(wake, deadline)
      }
      // Still "working" through the short rest: the next refresh renews the mark, so a loop
      // stuck anywhere while lit (a store that never completes, a sleep never woken) ages it.
      SystemClock.sleep(until: wake)
      litNs += SystemClock.monotonicNanoseconds() - begin
    }
    // Dark on the way out.
    storeRegister(gpio.setRegister, oe)
    heartbeat.ended()
    endNs = SystemClock.monotonicNanoseconds()
    cpuNs = SystemClock.threadCPUNanoseconds()
  }

  /// Runs one refresh on the registers.
  func run(_ program: HUB75Program, oe: UInt32, pulseNs: [Int64]) {
    var registers = MappedRegisters(setAddress: gpio.setRegister, clearAddress: gpio.clearRegister)
    run(program, oe: oe, pulseNs: pulseNs, on: &registers)
  }

  /// Waits until the monotonic clock reads `deadline`: asleep for all but the last
  /// ``spinNanoseconds`` of a long wait (the CPU is free meanwhile), then spinning on the
  /// clock, which holds a deadline to a fraction of a microsecond.
  @inline(__always)
  static func wait(until deadline: Int64) {
    var now = SystemClock.monotonicNanoseconds()
    if deadline - now > 2 * spinNanoseconds {
      SystemClock.sleep(until: deadline - spinNanoseconds)
      now = SystemClock.monotonicNanoseconds()
    }
    while now < deadline { now = SystemClock.monotonicNanoseconds() }
  }

  /// How long before a deadline a sleep ends, to spin the rest: more than a real-time
  /// thread's usual wake-up latency.
  static let spinNanoseconds: Int64 = 60_000
}

import Platform
import MatrixCore
import Synchronization

/// What a scanning loop achieved, measured on its own thread.
public struct HUB12ScanStatistics: Sendable {
  /// Full refreshes (every row group lit once) a second.
  public var refreshHz: Double
  /// Row slots run.
  public var slots: Int
  /// The loop's CPU time as a share of one core.
  public var cpuShare: Double
  /// How late the slot deadlines were met, in microseconds: median, 99th percentile, worst.
  public var lateP50: Double, lateP99: Double, lateMax: Double
  /// Slots the loop fell more than a whole cycle behind and skipped.
  public var overruns: Int
  /// Whether the thread ran at real-time priority (SCHED_FIFO).
  public var realTime: Bool
  /// One slot's length, in microseconds.
  public var slotMicroseconds: Double
}

/// The scanning loop of a HUB12 sign: its own thread, absolute deadlines, and the panels'
/// SPI device and GPIO lines. As a ``BatchTransport`` it takes scan cycles from the display
/// and swaps to the newest one only between cycles, so a frame never tears.
///
/// Each row slot: OE off (if still on), LAT high with the new row group selected (latching
/// the bits shifted during the last slot, while dark), LAT low with OE on; then the next
/// group's bits are shifted while this one is lit, and OE goes off again once the slot's
/// brightness share has passed. ``finish()`` stops the thread and leaves OE off; call it
/// once (the display's shutdown does): until then the thread keeps the scanner alive.
public final class HUB12Scanner: BatchTransport, @unchecked Sendable {
  public typealias Batch = HUB12Cycle

  /// What the display and the thread share, under the lock.
  struct Shared: ~Copyable {
    var latest = HUB12Cycle()
    var fresh = false
    var stop = false
    var failure: (any Error)?
  }

  public let board: HUB12Board
  let spi: SpidevTransport
  let chips: [GPIOLines]
  /// For each signal (by its index in `Signal.allCases`): its chip and bit, or chip -1.
  let routes: [(chip: Int, bit: UInt64)]
  let shared = Mutex(Shared())
  /// The display's buffer (only `send` touches it).
  var spare = HUB12Cycle()
  /// The thread's buffer (only the thread touches it while it runs).
  var current = HUB12Cycle()
  var thread: JoinableThread?
  var finished = false
  /// Times the loop idled through a dark cycle.
  var idles = 0

  /// Called (from the scanning thread) when the loop stops on a failure, so the program
  /// can end the run; the failure is thrown by the next ``check()``, ``send(_:)`` or
  /// ``finish()``.
  public let onFailure: (@Sendable () -> Void)?
  /// Working while a slot's lines are set and its group shifted, resting while it waits for
  /// the next slot or idles dark: a scan stuck in a system call stops a watchdog's pings.
  public let heartbeat = Heartbeat()
  /// The `errno` of the attempt at real-time priority (0: it runs at SCHED_FIFO).
  public private(set) var realTimeError: Int32 = 0

  // Written by the thread, read after it ends.
  var lateness = LatenessLog()
  var cycles = 0, overruns = 0
  var startNs: Int64 = 0, endNs: Int64 = 0, cpuNs: Int64 = 0

  /// Whether OE stays off through every slot: the scan runs in full, with its timing, and
  /// nothing lights (`marquee doctor` measures it so).
  public let dark: Bool

  /// Opens the SPI device and requests the control lines (OE off, LAT and the row select
  /// low from the first instant), then starts scanning; `dark` keeps the panels dark.
  ///
  /// - Throws: ``SPIError`` or ``GPIOError`` naming the device or chip.
  public init(board: HUB12Board, onFailure: (@Sendable () -> Void)? = nil, dark: Bool = false) throws {
    self.board = board
    self.onFailure = onFailure
    self.dark = dark
    spi = try SpidevTransport(path: board.device, speedHz: board.speedHz)
    var chipPaths: [String] = []
    var routes = [(chip: Int, bit: UInt64)](repeating: (-1, 0), count: HUB12Board.Signal.allCases.count)
    var offsets: [[Int]] = []
    var initial: [UInt64] = []
    for (index, signal) in HUB12Board.Signal.allCases.enumerated() {
      guard let line = board.lines[signal] else { continue }
      let chip: Int
      if let known = chipPaths.firstIndex(of: line.chip) {
        chip = known
      } else {
        chip = chipPaths.count
        chipPaths.append(line.chip)
        offsets.append([])
        initial.append(0)
      }
      let bit = UInt64(1) << UInt64(offsets[chip].count)
      offsets[chip].append(line.offset)
      // Every line starts low but OE, which starts at its dark level.
      if signal == .oe && !board.oeActiveHigh { initial[chip] |= bit }
      routes[index] = (chip, bit)
    }
    var chips: [GPIOLines] = []
    for (index, path) in chipPaths.enumerated() {
      chips.append(try GPIOLines(chip: path, offsets: offsets[index], consumer: "marquee-hub12", initial: initial[index]))
    }
    self.chips = chips
    self.routes = routes
    try start()
  }

  /// Starts the scanning thread at real-time priority (SCHED_FIFO, priority 10), or at the
  /// normal priority when the process may not have it (``realTimeError`` says why).
  func start() throws {
    do {
      (thread, realTimeError) = try RealTimeThread.start(priority: 10, name: "marquee-hub12") { [self] in scan() }
    } catch {
      throw SPIError(path: board.device, code: error.code, operation: "start the scanning thread")
    }
  }

  // MARK: The display's side

  public func send(_ cycle: HUB12Cycle) throws {
    try check()
    spare.removeAll()
    spare.groups.append(contentsOf: cycle.groups)
    spare.onFraction = cycle.onFraction
    shared.withLock { state in
      swap(&state.latest, &spare)
      state.fresh = true
    }
  }

  public func reopen() throws {
    throw SPIError(path: board.device, code: Errno.notSupported, operation: "reopen (a HUB12 sign is scanned continuously)")
  }

  public func check() throws {
    if let failure = shared.withLock({ $0.failure }) { throw failure }
  }

  /// Stops the loop, leaving OE off, and waits for the thread.
  public func finish() throws {
    guard !finished else { return }
    finished = true
    shared.withLock { $0.stop = true }
    thread?.join()
    try check()
  }

  /// The loop's figures, once it has finished.
  public var statistics: HUB12ScanStatistics {
    let late = lateness.microseconds
    let seconds = Double(max(1, endNs - startNs)) / 1e9
    return HUB12ScanStatistics(
      refreshHz: Double(cycles) / seconds, slots: lateness.count, cpuShare: Double(cpuNs) / 1e9 / seconds,
      lateP50: late.p50, lateP99: late.p99, lateMax: late.max,
      overruns: overruns, realTime: realTimeError == 0, slotMicroseconds: Double(board.slotNanoseconds) / 1000)
  }

  // MARK: The thread's side

  static func monotonic() -> Int64 {
    SystemClock.monotonicNanoseconds()
  }

  static func sleep(until deadline: Int64) {
    SystemClock.sleep(until: deadline)
  }

  /// Sets the signals of `mask` (bits by `Signal.allCases` index) to `high`, one ioctl per
  /// chip involved.
  func set(_ mask: UInt8, _ high: UInt8) throws {
    for chip in chips.indices {
      var bits: UInt64 = 0, lines: UInt64 = 0
      for (index, route) in routes.enumerated() where route.chip == chip && mask & (1 << UInt8(index)) != 0 {
        lines |= route.bit
        if high & (1 << UInt8(index)) != 0 { bits |= route.bit }
      }
      if lines != 0 { try chips[chip].set(bits, mask: lines) }
    }
  }

  static func bit(_ signal: HUB12Board.Signal) -> UInt8 { HUB12Emulator.bit(signal) }

  /// Takes the newest cycle, if the display sent one since the last look.
  func takeNewest() {
    shared.withLock { state in
      guard state.fresh else { return }
      swap(&state.latest, &current)
      state.fresh = false
    }
  }

  func shift(_ group: Int) throws {
    guard group < current.groups.count else { return }
    try spi.send(current.groups, only: group)
  }

  func scan() {
    let slot = Int64(board.slotNanoseconds)
    let oe = HUB12Scanner.bit(.oe), lat = HUB12Scanner.bit(.lat)
    let oeOn: UInt8 = board.oeActiveHigh ? oe : 0, oeOff: UInt8 = board.oeActiveHigh ? 0 : oe
    let select: [UInt8] = [.a, .b, .c, .d].map(HUB12Scanner.bit)
    var lit = false
    var group = 0
    startNs = HUB12Scanner.monotonic()
    var deadline = startNs
    do {
      takeNewest()
      try shift(0)
      while !shared.withLock({ $0.stop }) {
        deadline += slot
        // The mark is renewed each slot and not cleared for the slot's short sleep: a loop
        // stuck anywhere while lit (a line setting or a sleep that never returns) ages it.
        HUB12Scanner.sleep(until: deadline)
        let now = HUB12Scanner.monotonic()
        heartbeat.working(at: now)
        if now - deadline > slot * Int64(board.scan) {
          // More than a cycle behind (the machine was busy): start again from now.
          overruns += 1
          deadline = now
        }
        lateness.record(now - deadline)
        let on = current.groups.count == board.scan ? current.onFraction : 0
        if on == 0 {
          // A dark cycle (an off period, the display asleep): nothing to scan. Idle with OE
          // off until a cycle comes (looked for five times a second), then scan again from
          // its first group.
          if lit { try set(oe, oeOff) }
          lit = false
          heartbeat.resting()
          while !shared.withLock({ $0.stop || $0.fresh }) { HUB12Scanner.sleep(until: HUB12Scanner.monotonic() + 200_000_000) }
          heartbeat.working(at: HUB12Scanner.monotonic())
          takeNewest()
          group = 0
          try shift(0)
          deadline = HUB12Scanner.monotonic()
          idles += 1
          continue
        }
        // Dark before anything changes, so no LED of the last group glows in this one.
        if lit { try set(oe, oeOff) }
        var rows: UInt8 = 0
        for (index, bit) in select.enumerated() where group & (1 << index) != 0 { rows |= bit }
        try set(lat | select.reduce(0, |), lat | rows)
        let lights = on > 0 && !dark
        try set(lights ? lat | oe : lat, lights ? oeOn : 0)
        lit = lights
        let next = (group + 1) % board.scan
        if next == 0 {
          cycles += 1
          takeNewest()
        }
        try shift(next)
        if lit && on < 1 {
          // Waiting out the lit part of the slot is the scan's work: it stays "working".
          HUB12Scanner.sleep(until: deadline + Int64(Double(slot) * on))
          try set(oe, oeOff)
          lit = false
        }
        group = next
      }
    } catch {
      shared.withLock { $0.failure = error }
      onFailure?()
    }
    // Dark on the way out, whatever happened.
    try? set(oe, oeOff)
    endNs = HUB12Scanner.monotonic()
    cpuNs = SystemClock.threadCPUNanoseconds()
  }
}

import Platform

/// Where a refresh's writes go: the GPIO set and clear registers (or, in tests, a record).
protocol HUB75Registers {
  /// Drives the lines of `mask` high.
  mutating func set(_ mask: UInt32)
  /// Drives the lines of `mask` low.
  mutating func clear(_ mask: UInt32)
}

/// The mapped set and clear registers of the Pi's GPIO block (RP1's RIO aliases on a Pi 5).
struct MappedRegisters: HUB75Registers {
  let setAddress: UnsafeMutablePointer<UInt32>, clearAddress: UnsafeMutablePointer<UInt32>

  @inline(__always) func set(_ mask: UInt32) { storeRegister(setAddress, mask) }
  @inline(__always) func clear(_ mask: UInt32) { storeRegister(clearAddress, mask) }
}

extension HUB75Scanner {
  /// Runs one refresh on `registers`, the next plane's columns shifted while a pulse is lit.
  ///
  /// A pulse drives OE low and the loop goes on with the writes that follow (the colour
  /// lines and the clock fill the shift registers; the latched row pair shows unchanged)
  /// until one touches the latch or an address line, which waits for the pulse to end in
  /// the dark. Every 16 writes it looks at the clock, and ends the pulse there when another
  /// batch as long as the last would run past its end; a pulse shorter than two batches is
  /// lit and ended before anything else (the batch's time is measured under each pulse, and
  /// taken as at most 4 µs at each refresh's start). The next pulse starts no sooner than
  /// the last one's whole time (lit and dark rest), so each plane keeps its weight and the
  /// brightness is the duty, as hzeller's hardware pulser overlaps them.
  @inline(__always)
  func run<R: HUB75Registers>(_ program: HUB75Program, oe: UInt32, pulseNs: [Int64], on registers: inout R) {
    let repeats = 1 + board.slowdown
    let duty = program.onFraction
    let guarded = changedOnlyInTheDark
    var writes = 0, pulses = 0
    var lit = false, litEnd: Int64 = 0, nextPulse: Int64 = 0
    var sinceLook = 0, lastLook: Int64 = 0
    // A batch slowed once (the thread preempted, a cache miss) stops shifting under the
    // pulses only for the rest of this refresh.
    batchNanoseconds = min(batchNanoseconds, HUB75Scanner.longestBatchNanoseconds)
    // Ends the pulse in flight: OE high at its end, and how late that was.
    func endPulse() {
      HUB75Scanner.wait(until: litEnd)
      registers.set(oe)
      lateness.record(SystemClock.monotonicNanoseconds() - litEnd)
      lit = false
    }
    program.words.withUnsafeBufferPointer { words in
      for word in words {
        let mask = word & ~HUB75Program.tagMask
        switch word & HUB75Program.tagMask {
        case HUB75Program.setTag, HUB75Program.clearTag:
          if lit {
            if mask & guarded != 0 {
              endPulse()
            } else {
              sinceLook += 1
              if sinceLook == 16 {
                let now = SystemClock.monotonicNanoseconds()
                batchNanoseconds = now - lastLook
                (sinceLook, lastLook) = (0, now)
                if now + batchNanoseconds >= litEnd { endPulse() }
              }
            }
          }
          if word & HUB75Program.tagMask == HUB75Program.setTag {
            for _ in 0..<repeats { registers.set(mask) }
          } else {
            for _ in 0..<repeats { registers.clear(mask) }
          }
          writes += repeats
        default:
          if lit { endPulse() }
          HUB75Scanner.wait(until: nextPulse)
          let full = pulseNs[Int(mask)]
          let start = SystemClock.monotonicNanoseconds()
          // A dark run writes OE high where the pulse would drive it low.
          if dark { registers.set(oe) } else { registers.clear(oe) }
          (litEnd, nextPulse, lit) = (start + Int64(Double(full) * duty), start + full, true)
          (sinceLook, lastLook) = (0, start)
          if litEnd - start < 2 * batchNanoseconds { endPulse() }
          writes += 2
          pulses += 1
        }
      }
    }
    if lit { endPulse() }
    // The last plane's dark rest.
    HUB75Scanner.wait(until: nextPulse)
    (writesPerRefresh, pulsesPerRefresh) = (writes / program.refreshes, pulses / program.refreshes)
  }

  /// The longest a batch of 16 writes is taken to last at the start of each refresh.
  static let longestBatchNanoseconds: Int64 = 4_000
}

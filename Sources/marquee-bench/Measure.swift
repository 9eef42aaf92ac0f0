import Foundation
import AllocationCounter
import Platform

/// Clocks and counters for the timed loops (read outside the loops only).
enum Measure {
  static func monotonic() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
  }

  static func processCPU() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
  }

  static func allocations() -> UInt64 { marquee_allocation_count() }

  /// A `timeval` (rusage's CPU times) in nanoseconds.
  static func nanoseconds(_ time: timeval) -> Int64 {
    Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_usec) * 1_000
  }

  /// Runs `body(frame)` for `frames` frames after `warmup` untimed ones and reports the wall
  /// time, CPU time and heap allocations per frame.
  static func loop(frames: Int, warmup: Int = 200, _ body: (Int) -> Void) -> (wallNs: Double, cpuNs: Double, allocs: Double) {
    for index in 0..<warmup { body(index) }
    let allocationsBefore = allocations()
    let cpuBefore = processCPU()
    let start = monotonic()
    for index in warmup..<(warmup + frames) { body(index) }
    let end = monotonic()
    let cpuAfter = processCPU()
    let allocationsAfter = allocations()
    return (
      Double(end - start) / Double(frames), Double(cpuAfter - cpuBefore) / Double(frames),
      Double(allocationsAfter - allocationsBefore) / Double(frames)
    )
  }
}

/// One line of results: `marquee-bench key=value …`.
struct ResultLine {
  var fields: [(String, String)] = []

  init(scenario: String, width: Int, height: Int) {
    add("scenario", scenario)
    add("width", width)
    add("height", height)
  }

  mutating func add(_ key: String, _ value: String) { fields.append((key, value)) }
  mutating func add(_ key: String, _ value: Int) { add(key, String(value)) }
  mutating func add(_ key: String, _ value: Double, decimals: Int = 3) {
    var text = String(value)
    if value.isFinite {
      let scale = pow(10, Double(decimals))
      let rounded = (value * scale).rounded() / scale
      text = String(rounded)
    }
    add(key, text)
  }

  func print() {
    Swift.print("marquee-bench " + fields.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
  }
}

/// How late a scanning loop met its deadlines: the last latenesses in a ring allocated once,
/// so recording never allocates, and their median, 99th percentile and worst.
struct LatenessLog {
  /// The most latenesses kept (the last ones).
  static let capacity = 1 << 16
  var samples = [Int64](repeating: 0, count: LatenessLog.capacity)
  /// Latenesses recorded in all.
  var count = 0

  /// Records one lateness, in nanoseconds.
  @inline(__always)
  mutating func record(_ nanoseconds: Int64) {
    samples[count & (LatenessLog.capacity - 1)] = nanoseconds
    count += 1
  }

  /// The median, 99th percentile and worst of the kept latenesses, in microseconds.
  var microseconds: (p50: Double, p99: Double, max: Double) {
    let sorted = samples.prefix(min(count, LatenessLog.capacity)).sorted()
    func percentile(_ p: Double) -> Double {
      sorted.isEmpty ? 0 : Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1000
    }
    return (percentile(0.5), percentile(0.99), Double(sorted.last ?? 0) / 1000)
  }
}

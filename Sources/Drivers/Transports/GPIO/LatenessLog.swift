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

  /// The median, 99th percentile and worst of the kept latenesses, in microseconds: the
  /// values at ranks `count * p` of the sorted latenesses.
  ///
  /// Found by selection in one copy of the whole log, so the work allocates once whatever
  /// the count (a sort's scratch grows with it, and the allocation benchmark, comparing runs
  /// of two lengths that each end with these figures, counted the difference per frame).
  var microseconds: (p50: Double, p99: Double, max: Double) {
    let kept = min(count, LatenessLog.capacity)
    guard kept > 0 else { return (0, 0, 0) }
    var copy = samples
    return copy.withUnsafeMutableBufferPointer { buffer in
      let values = UnsafeMutableBufferPointer(rebasing: buffer[0..<kept])
      let worst = values.max() ?? 0
      func percentile(_ p: Double) -> Double { Double(LatenessLog.select(min(kept - 1, Int(Double(kept) * p)), in: values)) / 1000 }
      return (percentile(0.5), percentile(0.99), Double(worst) / 1000)
    }
  }

  /// The value that would stand at `index` if `values` were sorted (Hoare's selection),
  /// found by moving values within `values` only.
  static func select(_ index: Int, in values: UnsafeMutableBufferPointer<Int64>) -> Int64 {
    var low = 0, high = values.count - 1
    while low < high {
      let pivot = values[(low + high) / 2]
      var i = low, j = high
      while i <= j {
        while values[i] < pivot { i += 1 }
        while values[j] > pivot { j -= 1 }
        if i <= j {
          values.swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      if index <= j {
        high = j
      } else if index >= i {
        low = i
      } else {
        return values[index]
      }
    }
    return values[index]
  }
}

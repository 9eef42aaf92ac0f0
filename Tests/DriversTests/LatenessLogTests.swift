import MatrixCore
import Testing

@testable import Drivers
@testable import MAX7219Core

/// The scanners' lateness figures: the values at ranks count × p of the sorted latenesses,
/// as a sort finds them, found by selection instead.
@Suite struct LatenessLogTests {
  @Test(arguments: [1, 2, 3, 10, 101, 5_000, LatenessLog.capacity + 777])
  func percentilesAreTheSortedValuesAtTheirRanks(count: Int) {
    var random = SplitMix64(seed: UInt64(count))
    var log = LatenessLog()
    var all: [Int64] = []
    for _ in 0..<count {
      // Ties as well as spread: many equal values, a few far out.
      let value = Int64(random.next() % 7 == 0 ? 5_000 : random.next() % 200_000)
      log.record(value)
      all.append(value)
    }
    let sorted = all.suffix(LatenessLog.capacity).sorted()
    let rank = { (p: Double) in Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1000 }
    let figures = log.microseconds
    #expect(figures.p50 == rank(0.5) && figures.p99 == rank(0.99) && figures.max == Double(sorted.last!) / 1000)
  }

  @Test func anEmptyLogSaysZero() {
    let figures = LatenessLog().microseconds
    #expect(figures.p50 == 0 && figures.p99 == 0 && figures.max == 0)
  }
}

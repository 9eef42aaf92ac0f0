/// Conversions of computed floating-point values (durations, counts, sizes) to fixed-width
/// integers that are total: they never trap.
///
/// `Int64(seconds * 1e9)` traps when `seconds` is larger than about 292 years, infinite or
/// NaN; every duration, frame index or size computed from a person's numbers (a speed of
/// 1e-300 makes a loop 1e302 s long) goes through these instead.
extension FixedWidthInteger {
  /// `value` rounded toward zero and clamped to the type's range; NaN is 0.
  @inlinable
  public init(saturating value: Double) {
    if value.isNaN {
      self = 0
    } else if value <= Double(Self.min) {
      self = Self.min
    } else if value >= Double(Self.max) {
      // Double(Self.max) rounds up to 2^63 for Int64: anything at or past it is the maximum.
      self = Self.max
    } else {
      self = Self(value)
    }
  }
}

extension Double {
  /// Seconds as nanoseconds, clamped to what an Int64 holds (about 292 years either way).
  @inlinable
  public var saturatingNanoseconds: Int64 { Int64(saturating: self * 1e9) }
}

extension FixedWidthInteger {
  /// `self + other`, clamped to the type's range instead of trapping on overflow.
  @inlinable
  public func addingSaturating(_ other: Self) -> Self {
    let (sum, overflow) = addingReportingOverflow(other)
    guard overflow else { return sum }
    return other > 0 ? Self.max : Self.min
  }
}

import Platform
import Testing

/// Conversions of computed numbers to fixed-width integers never trap, whatever a person
/// typed: the class of defect that let one notification end the server.
@Suite struct TotalConversionTests {
  @Test(arguments: [
    (1e300, Int64.max), (-1e300, Int64.min), (Double.infinity, Int64.max), (-Double.infinity, Int64.min),
    (Double.nan, 0), (9_223_372_036_854_775_807.0, Int64.max), (-9_223_372_036_854_775_808.0, Int64.min),
    (1.9, 1), (-1.9, -1), (0, 0), (4.0e18, 4_000_000_000_000_000_000),
  ] as [(Double, Int64)])
  func int64AtTheEndsOfItsRange(value: Double, expected: Int64) {
    #expect(Int64(saturating: value) == expected)
  }

  @Test func smallerTypesAndNanoseconds() {
    #expect(Int32(saturating: 1e12) == .max && Int32(saturating: -1e12) == .min && UInt32(saturating: -5) == 0)
    #expect(UInt8(saturating: 255.9) == 255 && Int8(saturating: -128.5) == -128)
    #expect((1e-6).saturatingNanoseconds == 1_000 && (1e300).saturatingNanoseconds == .max && Double.nan.saturatingNanoseconds == 0)
    #expect(Int64.max.addingSaturating(1) == .max && Int64.min.addingSaturating(-1) == .min && Int64(5).addingSaturating(-7) == -2)
  }
}

/// A length of time as a person reads it in a refusal: "90 s", "2.5 h", "41 days",
/// "3.2e+09 years", "for ever".
public func secondsText(_ seconds: Double) -> String {
  guard seconds.isFinite else { return "for ever" }
  func number(_ value: Double) -> String {
    if value >= 1e6 { return scientific(value) }
    let tenths = (value * 10).rounded() / 10
    return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
  }
  switch abs(seconds) {
  case ..<120: return "\(number(seconds)) s"
  case ..<7_200: return "\(number(seconds / 60)) min"
  case ..<172_800: return "\(number(seconds / 3_600)) h"
  case ..<63_072_000: return "\(number(seconds / 86_400)) days"
  default: return "\(number(seconds / 31_557_600)) years"
  }
}

/// A large finite number in scientific notation, three significant digits ("3.17e+09").
private func scientific(_ value: Double) -> String {
  var exponent = 0
  var mantissa = value
  while abs(mantissa) >= 10 {
    mantissa /= 10
    exponent += 1
  }
  let rounded = (mantissa * 100).rounded() / 100
  return "\(rounded)e+\(exponent < 10 ? "0" : "")\(exponent)"
}

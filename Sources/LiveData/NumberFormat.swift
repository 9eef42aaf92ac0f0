/// How a value read from a source shows: a text with one placeholder in the style of Python's
/// `str.format` (`{0:.1f}°C`, `{} km/h`, `{0:d}`, `{0}`), the part of it signs need.
///
/// - `{}` or `{0}`: the value as it is (a whole number without a point);
/// - `{0:.Nf}`: a number with N digits after the point (0...9), rounded half to even as
///   Python rounds the double it is given;
/// - `{0:d}`: a whole number (a number with a fraction is refused, as Python refuses it);
/// - `{{` and `}}`: a brace.
public struct NumberFormat: Sendable, Equatable {
  enum Spec: Sendable, Equatable {
    case plain
    case fixed(Int)
    case whole
  }

  let prefix: String
  let spec: Spec
  let suffix: String

  /// Why a format cannot be read.
  public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// Why a value does not fit its format.
  public struct Mismatch: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// Reads `text`, which must hold exactly one placeholder.
  ///
  /// - Throws: ``Invalid`` naming what is wrong.
  public init(_ text: String) throws(Invalid) {
    var prefix = "", suffix = "", spec: Spec?
    var characters = Array(text)[...]
    while let character = characters.popFirst() {
      let next = characters.first
      if character == "{" && next == "{" || character == "}" && next == "}" {
        characters.removeFirst()
        if spec == nil { prefix.append(character) } else { suffix.append(character) }
      } else if character == "{" {
        guard spec == nil else { throw Invalid(description: "'\(text)': a format holds one placeholder") }
        guard let close = characters.firstIndex(of: "}") else { throw Invalid(description: "'\(text)': '{' without '}'") }
        let inside = String(characters[..<close])
        characters = characters[(close + 1)...]
        let parts = inside.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts[0].isEmpty || parts[0] == "0" else {
          throw Invalid(description: "'\(text)': the placeholder is {} or {0}, not {\(parts[0])}")
        }
        let written = parts.count == 2 ? parts[1] : ""
        if written.isEmpty {
          spec = .plain
        } else if written == "d" {
          spec = .whole
        } else if written.hasPrefix("."), written.hasSuffix("f"), let digits = Int(written.dropFirst().dropLast()), (0...9).contains(digits) {
          spec = .fixed(digits)
        } else {
          throw Invalid(description: "'\(text)': '\(written)' is not a format marquee knows (.Nf with N 0-9, d, or none)")
        }
      } else if character == "}" {
        throw Invalid(description: "'\(text)': '}' without '{' (write '}}' for a brace)")
      } else if spec == nil {
        prefix.append(character)
      } else {
        suffix.append(character)
      }
    }
    guard let spec else { throw Invalid(description: "'\(text)': a format needs a placeholder, {} or {0:.1f}") }
    (self.prefix, self.spec, self.suffix) = (prefix, spec, suffix)
  }

  /// `number` in the format.
  ///
  /// - Throws: ``Mismatch`` for a number with a fraction in `{0:d}`, or one that is not finite.
  public func text(_ number: Double) throws(Mismatch) -> String {
    guard number.isFinite else { throw Mismatch(description: "\(number) is not a number that can show") }
    switch spec {
    case .plain:
      return prefix + NumberFormat.plain(number) + suffix
    case .whole:
      guard number == number.rounded(), abs(number) < 1e18 else {
        throw Mismatch(description: "\(NumberFormat.plain(number)) is not a whole number, as {0:d} needs")
      }
      return prefix + String(Int64(number)) + suffix
    case .fixed(let digits):
      return prefix + NumberFormat.fixed(number, digits: digits) + suffix
    }
  }

  /// `text` in the format, for a value that is a string: only `{}`/`{0}` take one.
  public func text(_ string: String) throws(Mismatch) -> String {
    guard spec == .plain else { throw Mismatch(description: "'\(string)' is text, not a number, and the format wants a number") }
    return prefix + string + suffix
  }

  /// A number as JSON writes it: whole numbers without a point.
  static func plain(_ number: Double) -> String {
    if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
    return String(number)
  }

  /// `number` with `digits` after the point, rounded from its exact binary value (as C's
  /// printf and Python's format do: 2.675 is 2.67, because the double is a little less).
  static func fixed(_ number: Double, digits: Int) -> String {
    // The exact decimal expansion of a double is finite; work on it as digits.
    var (integer, fraction) = exactDigits(abs(number))
    // Round half to even at `digits` after the point, on the exact digits.
    var kept = Array(fraction.prefix(digits))
    while kept.count < digits { kept.append(0) }
    let rest = fraction.dropFirst(digits)
    let first = rest.first ?? 0
    let beyond = rest.dropFirst().contains { $0 != 0 }
    let last = digits > 0 ? kept[digits - 1] : (integer.last ?? 0)
    let roundUp = first > 5 || (first == 5 && (beyond || last % 2 == 1))
    if roundUp {
      var carry = true
      for index in kept.indices.reversed() where carry {
        kept[index] += 1
        carry = kept[index] == 10
        if carry { kept[index] = 0 }
      }
      if carry {
        for index in integer.indices.reversed() where carry {
          integer[index] += 1
          carry = integer[index] == 10
          if carry { integer[index] = 0 }
        }
        if carry { integer.insert(1, at: 0) }
      }
    }
    // Python keeps the sign of a negative number that rounds to zero ("-0.0").
    let sign = number.sign == .minus ? "-" : ""
    let whole = integer.map(String.init).joined()
    return sign + whole + (digits > 0 ? "." + kept.map(String.init).joined() : "")
  }

  /// The exact decimal digits of a finite, non-negative double: its integer part's digits
  /// (at least one) and its fraction's.
  static func exactDigits(_ value: Double) -> (integer: [Int], fraction: [Int]) {
    if value == 0 { return ([0], []) }
    // value = significand * 2^exponent, significand a whole number below 2^53.
    var significand = value.significandBitPattern | (value.isNormal ? 1 << 52 : 0)
    var binaryExponent = value.isNormal ? Int(value.exponent) - 52 : -1074
    while significand & 1 == 0 && binaryExponent < 0 {
      significand >>= 1
      binaryExponent += 1
    }
    // Big decimal in base 10 digits (most significant first).
    var digits = String(significand).compactMap { $0.wholeNumberValue }
    var point = digits.count  // digits before the point
    if binaryExponent >= 0 {
      for _ in 0..<binaryExponent { digits = multiply(digits, by: 2) }
      point = digits.count
    } else {
      // significand / 2^k = significand * 5^k / 10^k.
      let k = -binaryExponent
      for _ in 0..<k { digits = multiply(digits, by: 5) }
      point = digits.count - k
      if point <= 0 {
        digits = [Int](repeating: 0, count: 1 - point) + digits
        point = 1
      }
    }
    var integer = Array(digits[..<point])
    var fraction = Array(digits[point...])
    while integer.count > 1 && integer.first == 0 { integer.removeFirst() }
    while fraction.last == 0 { fraction.removeLast() }
    return (integer, fraction)
  }

  static func multiply(_ digits: [Int], by factor: Int) -> [Int] {
    var result = digits
    var carry = 0
    for index in result.indices.reversed() {
      let product = result[index] * factor + carry
      result[index] = product % 10
      carry = product / 10
    }
    while carry > 0 {
      result.insert(carry % 10, at: 0)
      carry /= 10
    }
    return result
  }
}

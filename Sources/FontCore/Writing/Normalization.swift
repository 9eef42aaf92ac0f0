/// Unicode Normalization Form C (UAX #15): precomposed where Unicode can, so `e` followed by
/// U+0301 and `é` are drawn the same, with marks in canonical order.
public enum Normalization {
  /// The NFC form of a sequence of scalars.
  ///
  /// With `keepingIdeographs`, the CJK compatibility ideographs (U+F900–U+FAFF,
  /// U+2F800–U+2FA1F) stay as written: NFC would replace each by its unified ideograph,
  /// and fonts draw the two differently on purpose (a name written with 﨑 stays 﨑).
  public static func nfc(_ scalars: some Sequence<Unicode.Scalar>, keepingIdeographs: Bool = false) -> [Unicode.Scalar] {
    compose(decompose(scalars, keepingIdeographs: keepingIdeographs)).map { Unicode.Scalar($0)! }
  }

  /// The NFC form of a string.
  public static func nfc(_ text: String) -> String {
    // Text below U+0300 is already in NFC: no composition starts there.
    if text.utf8.allSatisfy({ $0 < 0xCC }) { return text }
    var result = String.UnicodeScalarView()
    result.append(contentsOf: nfc(text.unicodeScalars))
    return String(result)
  }

  /// Full canonical decomposition, marks in canonical order (NFD).
  static func decompose(_ scalars: some Sequence<Unicode.Scalar>, keepingIdeographs: Bool = false) -> [UInt32] {
    var codes: [UInt32] = []
    for scalar in scalars {
      if keepingIdeographs && isCompatibilityIdeograph(scalar.value) {
        codes.append(scalar.value)
      } else {
        append(decomposing: scalar.value, to: &codes)
      }
    }
    // Canonical ordering: a stable sort of each run of non-starters by combining class.
    var index = 1
    while index < codes.count {
      let here = UnicodeTables.combiningClass(codes[index])
      if here != 0 {
        var place = index
        while place > 0 {
          let before = UnicodeTables.combiningClass(codes[place - 1])
          guard before > here else { break }
          codes.swapAt(place, place - 1)
          place -= 1
        }
      }
      index += 1
    }
    return codes
  }

  static func append(decomposing code: UInt32, to codes: inout [UInt32]) {
    if code >= hangulBase && code < hangulBase + hangulCount {
      let index = code - hangulBase
      codes.append(leadingBase + index / (vowelCount * trailingCount))
      codes.append(vowelBase + (index % (vowelCount * trailingCount)) / trailingCount)
      if index % trailingCount != 0 { codes.append(trailingBase + index % trailingCount) }
      return
    }
    guard let parts = UnicodeTables.decomposition(code) else {
      codes.append(code)
      return
    }
    append(decomposing: parts.first, to: &codes)
    if let second = parts.second { append(decomposing: second, to: &codes) }
  }

  /// Canonical composition of a decomposed sequence.
  static func compose(_ codes: [UInt32]) -> [UInt32] {
    guard let first = codes.first else { return [] }
    var result = [first]
    var starter: Int? = UnicodeTables.combiningClass(first) == 0 ? 0 : nil
    // The class of the last scalar kept after the starter; 256 blocks every composition.
    var lastClass: Int = starter == nil ? 256 : 0
    for code in codes.dropFirst() {
      let combiningClass = Int(UnicodeTables.combiningClass(code))
      if let starter, lastClass < combiningClass || lastClass == 0,
        let composite = composite(result[starter], code)
      {
        result[starter] = composite
        continue
      }
      if combiningClass == 0 { starter = result.count }
      lastClass = combiningClass
      result.append(code)
    }
    return result
  }

  static func composite(_ first: UInt32, _ second: UInt32) -> UInt32? {
    // Hangul: a leading consonant and a vowel, then a syllable and a trailing consonant.
    if first >= leadingBase && first < leadingBase + leadingCount && second >= vowelBase && second < vowelBase + vowelCount {
      return hangulBase + ((first - leadingBase) * vowelCount + second - vowelBase) * trailingCount
    }
    if first >= hangulBase && first < hangulBase + hangulCount && (first - hangulBase) % trailingCount == 0
      && second > trailingBase && second < trailingBase + trailingCount
    {
      return first + second - trailingBase
    }
    return UnicodeTables.composition(first, second)
  }

  static func isCompatibilityIdeograph(_ code: UInt32) -> Bool {
    (0xF900...0xFAFF).contains(code) || (0x2F800...0x2FA1F).contains(code)
  }

  static let hangulBase: UInt32 = 0xAC00, leadingBase: UInt32 = 0x1100, vowelBase: UInt32 = 0x1161, trailingBase: UInt32 = 0x11A7
  static let leadingCount: UInt32 = 19, vowelCount: UInt32 = 21, trailingCount: UInt32 = 28
  static let hangulCount: UInt32 = 11172
}

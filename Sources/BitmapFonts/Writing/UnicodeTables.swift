/// The character data of the Unicode Character Database that bidirectional text, Arabic
/// joining and normalisation need, read once from the generated tables
/// (`Unicode+Tables.swift`, version ``unicodeVersion``).
public enum UnicodeTables {
  /// The Bidi_Class of a scalar (UAX #9, table 4).
  public static func bidiClass(_ scalar: Unicode.Scalar) -> BidiClass {
    BidiClass(rawValue: bidiClasses.value(scalar.value)) ?? .leftToRight
  }

  /// The Bidi_Mirroring_Glyph of a scalar: `)` for `(`, `»` for `«`; `nil` if it has none.
  public static func mirror(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
    mirrors[scalar.value].flatMap(Unicode.Scalar.init)
  }

  /// The Bidi_Paired_Bracket of a scalar and whether it opens the pair; `nil` for a scalar
  /// that is not a paired bracket.
  public static func bracket(_ scalar: Unicode.Scalar) -> (pair: Unicode.Scalar, opens: Bool)? {
    guard let entry = brackets[scalar.value], let pair = Unicode.Scalar(entry.pair) else { return nil }
    return (pair, entry.opens)
  }

  /// The Joining_Type of a scalar (Arabic, Syriac, N'Ko, Mongolian...).
  public static func joiningType(_ scalar: Unicode.Scalar) -> JoiningType {
    JoiningType(rawValue: joiningTypes.value(scalar.value)) ?? .nonJoining
  }

  /// The presentation form of an Arabic letter for one position in a word, if Unicode has one.
  public static func presentationForm(of letter: Unicode.Scalar, _ form: JoiningForm) -> Unicode.Scalar? {
    guard let forms = presentationForms[letter.value], forms[form.rawValue] != 0 else { return nil }
    return Unicode.Scalar(forms[form.rawValue])
  }

  /// The lam-alef ligature of lam (U+0644) and `alef`, isolated or final (joined to the
  /// letter before the lam); `nil` when `alef` is not one of the alefs that join lam.
  public static func lamAlef(_ alef: Unicode.Scalar, final: Bool) -> Unicode.Scalar? {
    ligatures[alef.value].flatMap { Unicode.Scalar(final ? $0.final : $0.isolated) }
  }

  /// The Canonical_Combining_Class of a scalar (0 for a starter).
  public static func combiningClass(_ code: UInt32) -> UInt8 {
    combiningClasses.value(code)
  }

  /// The canonical decomposition of a code point (one or two code points), if it has one.
  static func decomposition(_ code: UInt32) -> [UInt32]? {
    decompositions[code]
  }

  /// The primary composite of two code points (NFC's composition step), if there is one.
  static func composition(_ first: UInt32, _ second: UInt32) -> UInt32? {
    compositions[UInt64(first) << 32 | UInt64(second)]
  }

  // MARK: Tables, read from the generated strings on first use.

  static let bidiClasses = RunTable(bidiClassData)
  static let joiningTypes = RunTable(joiningTypeData)
  static let combiningClasses = RunTable(combiningClassData)

  static let mirrors: [UInt32: UInt32] = firstOfEachKey(records(mirrorData).map { ($0[0], $0[1]) })

  static let brackets: [UInt32: (pair: UInt32, opens: Bool)] = firstOfEachKey(
    records(bracketData).map { ($0[0], (pair: $0[1], opens: $0[2] == 1)) })

  static let presentationForms: [UInt32: [UInt32]] = firstOfEachKey(records(presentationFormData).map { ($0[0], Array($0[1...4])) })

  /// A table of `pairs`, the first value of a key kept.
  static func firstOfEachKey<Value>(_ pairs: [(UInt32, Value)]) -> [UInt32: Value] {
    var table: [UInt32: Value] = [:]
    for (key, value) in pairs where table[key] == nil { table[key] = value }
    return table
  }

  static let ligatures: [UInt32: (isolated: UInt32, final: UInt32)] = {
    var table: [UInt32: (isolated: UInt32, final: UInt32)] = [:]
    for record in records(ligatureData) {
      var entry = table[record[2]] ?? (0, 0)
      if record[0] == 0 { entry.isolated = record[3] } else { entry.final = record[3] }
      table[record[2]] = entry
    }
    return table
  }()

  static let decompositions: [UInt32: [UInt32]] = firstOfEachKey(records(decompositionData).map { ($0[0], Array($0.dropFirst())) })

  static let compositions: [UInt64: UInt32] = {
    let excluded = Set(records(compositionExclusionData).map { $0[0] })
    var table: [UInt64: UInt32] = [:]
    for (code, parts) in decompositions where parts.count == 2 && !excluded.contains(code) {
      table[UInt64(parts[0]) << 32 | UInt64(parts[1])] = code
    }
    return table
  }()

  /// The entries of a table string: space-separated, each hexadecimal fields split by `:`.
  static func records(_ text: String) -> [[UInt32]] {
    var records: [[UInt32]] = []
    var record: [UInt32] = []
    var field: UInt32 = 0
    var inField = false
    func endField() {
      if inField { record.append(field) }
      field = 0
      inField = false
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: ":"):
        endField()
      case UInt8(ascii: " "), UInt8(ascii: "\n"):
        endField()
        if !record.isEmpty { records.append(record) }
        record = []
      default:
        guard let digit = HexDigit.value(byte) else { preconditionFailure("generated table holds \(byte)") }
        field = field << 4 | UInt32(digit)
        inField = true
      }
    }
    endField()
    if !record.isEmpty { records.append(record) }
    return records
  }
}

/// A property that holds for ranges of code points: the value at each start, until the next.
struct RunTable: Sendable {
  let starts: [UInt32]
  let values: [UInt8]

  init(_ text: String) {
    let records = UnicodeTables.records(text)
    starts = records.map { $0[0] }
    values = records.map { UInt8($0[1]) }
  }

  /// The value for a code point.
  func value(_ code: UInt32) -> UInt8 {
    var low = 0, high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= code { low = middle } else { high = middle - 1 }
    }
    return values[low]
  }
}

/// The Bidi_Class property: how a character takes part in the Unicode Bidirectional
/// Algorithm (UAX #9).
public enum BidiClass: UInt8, Sendable, CaseIterable {
  /// L, R, AL: strong letters (Latin, Hebrew, Arabic).
  case leftToRight, rightToLeft, arabicLetter
  /// EN, ES, ET, AN, CS: digits and what goes with them.
  case europeanNumber, europeanSeparator, europeanTerminator, arabicNumber, commonSeparator
  /// NSM, BN: marks that take their base's direction; characters the algorithm ignores.
  case nonspacingMark, boundaryNeutral
  /// B, S, WS, ON: paragraph and segment separators, spaces, other neutrals.
  case paragraphSeparator, segmentSeparator, whitespace, otherNeutral
  /// LRE, LRO, RLE, RLO, PDF: explicit embeddings and overrides.
  case leftToRightEmbedding, leftToRightOverride, rightToLeftEmbedding, rightToLeftOverride, popDirectionalFormat
  /// LRI, RLI, FSI, PDI: isolates.
  case leftToRightIsolate, rightToLeftIsolate, firstStrongIsolate, popDirectionalIsolate

  /// The classes rule X9 takes out of the paragraph: embeddings, overrides, their
  /// terminator, and boundary neutrals (ZWJ, ZWNJ, soft hyphen...).
  public static let removedByX9: Set<BidiClass> = [
    .leftToRightEmbedding, .rightToLeftEmbedding, .leftToRightOverride, .rightToLeftOverride, .popDirectionalFormat, .boundaryNeutral,
  ]

  /// The short name UAX #9 and the UCD files use (`L`, `AL`, `NSM`...).
  public var shortName: String { BidiClass.shortNames[Int(rawValue)] }

  static let shortNames = [
    "L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN", "B", "S", "WS", "ON",
    "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI",
  ]
}

/// The Joining_Type property: how a letter connects to its neighbours in a cursive script.
public enum JoiningType: UInt8, Sendable {
  /// U, R, L, D, C, T: non-joining, joins the letter before it, joins the letter after it,
  /// joins both, causes joining (tatweel, ZWJ), transparent (marks).
  case nonJoining, rightJoining, leftJoining, dualJoining, joinCausing, transparent
}

/// The four shapes of an Arabic letter: alone, at the end of a word, at its start, inside it.
public enum JoiningForm: Int, Sendable {
  case isolated, final, initial, medial
}

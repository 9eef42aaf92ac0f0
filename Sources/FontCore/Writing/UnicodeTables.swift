/// The character data of the Unicode Character Database that bidirectional text, Arabic
/// joining and normalisation need, searched in place in the generated tables
/// (`Unicode+Tables.swift`, version ``unicodeVersion``): sorted arrays of integers that are
/// constant data, so a lookup neither parses nor allocates.
public enum UnicodeTables {
  /// The Bidi_Class of a scalar (UAX #9, table 4).
  public static func bidiClass(_ scalar: Unicode.Scalar) -> BidiClass {
    BidiClass(rawValue: bidiClassValues[SortedSearch.run(of: scalar.value, in: bidiClassStarts)]) ?? .leftToRight
  }

  /// The Bidi_Mirroring_Glyph of a scalar: `)` for `(`, `»` for `«`; `nil` if it has none.
  public static func mirror(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
    SortedSearch.index(of: scalar.value, in: mirrorCodes).flatMap { Unicode.Scalar(mirrorValues[$0]) }
  }

  /// The Bidi_Paired_Bracket of a scalar and whether it opens the pair; `nil` for a scalar
  /// that is not a paired bracket.
  public static func bracket(_ scalar: Unicode.Scalar) -> (pair: Unicode.Scalar, opens: Bool)? {
    guard let index = SortedSearch.index(of: scalar.value, in: bracketCodes), let pair = Unicode.Scalar(bracketPairs[index]) else { return nil }
    return (pair, bracketKinds[index] == 1)
  }

  /// The Joining_Type of a scalar (Arabic, Syriac, N'Ko, Mongolian...).
  public static func joiningType(_ scalar: Unicode.Scalar) -> JoiningType {
    JoiningType(rawValue: joiningTypeValues[SortedSearch.run(of: scalar.value, in: joiningTypeStarts)]) ?? .nonJoining
  }

  /// The presentation form of an Arabic letter for one position in a word, if Unicode has one.
  public static func presentationForm(of letter: Unicode.Scalar, _ form: JoiningForm) -> Unicode.Scalar? {
    guard let index = SortedSearch.index(of: letter.value, in: presentationLetters) else { return nil }
    let code = presentationForms[index * 4 + Int(form.rawValue)]
    return code == 0 ? nil : Unicode.Scalar(code)
  }

  /// The lam-alef ligature of lam (U+0644) and `alef`, isolated or final (joined to the
  /// letter before the lam); `nil` when `alef` is not one of the alefs that join lam.
  public static func lamAlef(_ alef: Unicode.Scalar, final: Bool) -> Unicode.Scalar? {
    guard let index = SortedSearch.index(of: alef.value, in: ligatureAlefs) else { return nil }
    let code = ligatureForms[index * 2 + (final ? 1 : 0)]
    return code == 0 ? nil : Unicode.Scalar(code)
  }

  /// The Canonical_Combining_Class of a scalar (0 for a starter).
  public static func combiningClass(_ code: UInt32) -> UInt8 {
    combiningClassValues[SortedSearch.run(of: code, in: combiningClassStarts)]
  }

  /// The canonical decomposition of a code point (one code point, or two), if it has one.
  static func decomposition(_ code: UInt32) -> (first: UInt32, second: UInt32?)? {
    guard let index = SortedSearch.index(of: code, in: decompositionCodes) else { return nil }
    let second = decompositionParts[index * 2 + 1]
    return (decompositionParts[index * 2], second == 0 ? nil : second)
  }

  /// The primary composite of two code points (NFC's composition step), if there is one.
  static func composition(_ first: UInt32, _ second: UInt32) -> UInt32? {
    SortedSearch.index(of: UInt64(first) << 32 | UInt64(second), in: compositionPairs).map { compositionValues[$0] }
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

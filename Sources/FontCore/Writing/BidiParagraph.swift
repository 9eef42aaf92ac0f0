/// The reading direction a message's paragraph starts from.
public enum TextDirection: String, Sendable, CaseIterable {
  /// From the first strong letter (UAX #9 rules P2, P3); left to right if there is none.
  case auto
  /// Left to right (English, Chinese), whatever the letters.
  case ltr
  /// Right to left (Arabic, Hebrew), whatever the letters.
  case rtl
}

/// One paragraph through the Unicode Bidirectional Algorithm (UAX #9): an embedding level
/// for every scalar, from which the line is put in the order it is drawn.
///
/// The explicit embeddings, overrides and isolates (X1–X10), the weak types (W1–W7),
/// paired brackets (N0), the neutrals (N1, N2) and the implicit levels (I1, I2) are
/// resolved as the standard says; ``visualOrder`` reverses runs as rule L2 does, after
/// L1 has put trailing white space back on the paragraph's level.
public struct BidiParagraph: Sendable {
  /// The paragraph embedding level: 0 for left to right, 1 for right to left.
  public let baseLevel: UInt8
  /// The resolved level of each scalar; ``removed`` for the explicit formatting
  /// characters and boundary neutrals that rule X9 takes out.
  public let levels: [UInt8]

  /// The level of a scalar that rule X9 removes (it is not drawn and not reordered).
  public static let removed: UInt8 = 0xFF
  /// The deepest embedding level (BD2).
  static let maximumDepth: UInt8 = 125

  /// Resolves the levels of one paragraph of `scalars` (a paragraph separator, if any, last).
  ///
  /// An icon (``IconText``) counts as a neutral, like the emoji it stands beside.
  public init(_ scalars: [Unicode.Scalar], direction: TextDirection = .auto) {
    var resolver = Resolver(scalars: scalars)
    self.direction = direction == .auto ? resolver.firstStrongDirection : direction
    baseLevel = self.direction == .rtl ? 1 : 0
    levels = resolver.resolve(baseLevel: baseLevel)
  }

  /// The direction the paragraph reads: as it was given, or found from its first strong
  /// letter outside isolates (rules P2, P3); ``TextDirection/auto`` when it was to be found
  /// and there is no strong letter (it then reads left to right).
  public let direction: TextDirection

  /// The direction a paragraph of `scalars` reads by rules P2 and P3 alone, without
  /// resolving its levels: ``TextDirection/auto`` when it has no strong letter.
  public static func firstStrongDirection(of scalars: [Unicode.Scalar]) -> TextDirection {
    Resolver(scalars: scalars).firstStrongDirection
  }

  /// Whether the paragraph reads right to left.
  public var isRightToLeft: Bool { baseLevel & 1 == 1 }

  /// The indices of the scalars in drawing order, left to right (rule L2), without the
  /// removed ones.
  public var visualOrder: [Int] {
    BidiParagraph.visualOrder(levels)
  }

  /// The indices of items in drawing order for their levels (rule L2): from the highest
  /// level to the lowest odd one, every run at that level or above is reversed. Items at
  /// ``removed`` are left out.
  public static func visualOrder(_ levels: [UInt8]) -> [Int] {
    var order: [Int] = []
    order.reserveCapacity(levels.count)
    var highest: UInt8 = 0, lowestOdd = UInt8.max
    var index = 0
    while index < levels.count {
      let level = levels[index]
      if level != removed {
        order.append(index)
        highest = max(highest, level)
        if level & 1 == 1 { lowestOdd = min(lowestOdd, level) }
      }
      index += 1
    }
    guard lowestOdd != UInt8.max else { return order }
    var level = highest
    while true {
      var start = 0
      while start < order.count {
        guard levels[order[start]] >= level else {
          start += 1
          continue
        }
        var end = start
        while end < order.count && levels[order[end]] >= level { end += 1 }
        var low = start, high = end - 1
        while low < high {
          let item = order[low]
          order[low] = order[high]
          order[high] = item
          low += 1
          high -= 1
        }
        start = end
      }
      if level == lowestOdd { break }
      level -= 1
    }
    return order
  }

  /// The whole of rules P2–I2 and L1 for one paragraph.
  ///
  /// Its loops count by hand (`while`) instead of iterating (`for in`): in a debug build each
  /// iterator is a generic type looked up at run time, and the conformance tests resolve
  /// half a million paragraphs.
  struct Resolver {
    /// The classes as the rules change them.
    var classes: [BidiClass]
    /// The classes as the characters have them.
    let original: [BidiClass]
    let scalars: [Unicode.Scalar]
    var levels: [UInt8] = []
    /// For each isolate initiator, the index of its matching PDI (BD9), or -1 if it has
    /// none; -1 for every other character. Empty when the paragraph has no isolates.
    var matchingPDI: [Int] = []
    /// Whether each character is a PDI that closes an isolate initiator (empty as above).
    var isMatchedPDI: [Bool] = []
    /// Whether the paragraph has a character rule X9 removes (an embedding, an override,
    /// their terminator or a boundary neutral), and whether it has an isolate control.
    /// Without either, every character is on the paragraph's level and the paragraph is one
    /// isolating run sequence.
    let hasRemoved: Bool, hasIsolates: Bool

    /// The classes of `scalars`, an icon counting as a neutral.
    init(scalars: [Unicode.Scalar]) {
      var classes: [BidiClass] = []
      classes.reserveCapacity(scalars.count)
      var index = 0
      while index < scalars.count {
        let scalar = scalars[index]
        classes.append(scalar == IconText.marker ? .otherNeutral : UnicodeTables.bidiClass(scalar))
        index += 1
      }
      self.init(classes: classes, scalars: scalars)
    }

    init(classes: [BidiClass], scalars: [Unicode.Scalar]) {
      self.classes = classes
      self.original = classes
      self.scalars = scalars
      var hasRemoved = false, hasIsolates = false
      var index = 0
      while index < classes.count {
        if Resolver.isRemovedByX9(classes[index]) { hasRemoved = true }
        if Resolver.isIsolateControl(classes[index]) { hasIsolates = true }
        index += 1
      }
      self.hasRemoved = hasRemoved
      self.hasIsolates = hasIsolates
      guard hasIsolates else { return }
      matchingPDI = Array(repeating: -1, count: classes.count)
      isMatchedPDI = Array(repeating: false, count: classes.count)
      var open: [Int] = []
      index = 0
      while index < classes.count {
        switch classes[index] {
        case .leftToRightIsolate, .rightToLeftIsolate, .firstStrongIsolate: open.append(index)
        case .popDirectionalIsolate:
          if let initiator = open.popLast() {
            matchingPDI[initiator] = index
            isMatchedPDI[index] = true
          }
        case .paragraphSeparator: open.removeAll()
        default: break
        }
        index += 1
      }
    }

    /// The paragraph's direction by P2 and P3: `auto` when it has no strong letter.
    var firstStrongDirection: TextDirection {
      switch firstStrongLevel(from: 0, to: classes.count) {
      case 0: .ltr
      case 1: .rtl
      default: .auto
      }
    }

    /// The level of the first strong letter in `start..<end`, skipping isolates (P2, P3).
    func firstStrongLevel(from start: Int, to end: Int) -> UInt8? {
      var index = start
      while index < end {
        switch original[index] {
        case .leftToRight: return 0
        case .rightToLeft, .arabicLetter: return 1
        case .leftToRightIsolate, .rightToLeftIsolate, .firstStrongIsolate:
          let pdi = matchingPDI[index]
          guard pdi >= 0 else { return nil }
          index = pdi
        case .paragraphSeparator: return nil
        default: break
        }
        index += 1
      }
      return nil
    }

    static func isRemovedByX9(_ type: BidiClass) -> Bool {
      switch type {
      case .leftToRightEmbedding, .rightToLeftEmbedding, .leftToRightOverride, .rightToLeftOverride,
        .popDirectionalFormat, .boundaryNeutral:
        return true
      default: return false
      }
    }

    static func isIsolateControl(_ type: BidiClass) -> Bool {
      switch type {
      case .leftToRightIsolate, .rightToLeftIsolate, .firstStrongIsolate, .popDirectionalIsolate: return true
      default: return false
      }
    }

    mutating func resolve(baseLevel: UInt8) -> [UInt8] {
      guard hasRemoved || hasIsolates else {
        // X1–X10 change nothing: every character is on the paragraph's level, in one sequence.
        levels = Array(repeating: baseLevel, count: classes.count)
        var indices: [Int] = []
        indices.reserveCapacity(classes.count)
        while indices.count < classes.count { indices.append(indices.count) }
        let direction: BidiClass = baseLevel & 1 == 1 ? .rightToLeft : .leftToRight
        resolveSequence(Sequence(indices: indices, level: baseLevel, start: direction, end: direction))
        resetWhitespace(baseLevel: baseLevel)
        return levels
      }
      levels = Array(repeating: baseLevel, count: classes.count)
      resolveExplicit(baseLevel: baseLevel)
      let sequences = isolatingRunSequences(baseLevel: baseLevel)
      var next = 0
      while next < sequences.count {
        resolveSequence(sequences[next])
        next += 1
      }
      resetWhitespace(baseLevel: baseLevel)
      if hasRemoved {
        var index = 0
        while index < levels.count {
          if Resolver.isRemovedByX9(original[index]) { levels[index] = BidiParagraph.removed }
          index += 1
        }
      }
      return levels
    }

    /// W1–I2 for one isolating run sequence.
    mutating func resolveSequence(_ sequence: Sequence) {
      resolveWeak(sequence)
      resolveBrackets(sequence)
      resolveNeutral(sequence)
      resolveImplicit(sequence)
    }

    // MARK: X1–X8: explicit levels and directions.

    struct Status {
      var level: UInt8
      var override: BidiClass?
      var isolate: Bool
    }

    mutating func resolveExplicit(baseLevel: UInt8) {
      var stack = [Status(level: baseLevel, override: nil, isolate: false)]
      var overflowIsolates = 0, overflowEmbeddings = 0, validIsolates = 0
      func nextLevel(_ level: UInt8, rightToLeft: Bool) -> UInt8 {
        rightToLeft ? (level + 1) | 1 : (level + 2) & ~1
      }
      var index = 0
      while index < classes.count {
        defer { index += 1 }
        let type = original[index]
        let top = stack[stack.count - 1]
        switch type {
        case .rightToLeftEmbedding, .leftToRightEmbedding, .rightToLeftOverride, .leftToRightOverride:
          levels[index] = top.level
          let rightToLeft = type == .rightToLeftEmbedding || type == .rightToLeftOverride
          let level = nextLevel(top.level, rightToLeft: rightToLeft)
          if level <= BidiParagraph.maximumDepth && overflowIsolates == 0 && overflowEmbeddings == 0 {
            let override: BidiClass? =
              switch type {
              case .rightToLeftOverride: .rightToLeft
              case .leftToRightOverride: .leftToRight
              default: nil
              }
            stack.append(Status(level: level, override: override, isolate: false))
          } else if overflowIsolates == 0 {
            overflowEmbeddings += 1
          }
        case .rightToLeftIsolate, .leftToRightIsolate, .firstStrongIsolate:
          levels[index] = top.level
          if let override = top.override { classes[index] = override }
          var rightToLeft = type == .rightToLeftIsolate
          if type == .firstStrongIsolate {
            let end = matchingPDI[index] >= 0 ? matchingPDI[index] : classes.count
            rightToLeft = firstStrongLevel(from: index + 1, to: end) == 1
          }
          let level = nextLevel(top.level, rightToLeft: rightToLeft)
          if level <= BidiParagraph.maximumDepth && overflowIsolates == 0 && overflowEmbeddings == 0 {
            validIsolates += 1
            stack.append(Status(level: level, override: nil, isolate: true))
          } else {
            overflowIsolates += 1
          }
        case .popDirectionalIsolate:
          if overflowIsolates > 0 {
            overflowIsolates -= 1
          } else if validIsolates > 0 {
            overflowEmbeddings = 0
            while !stack[stack.count - 1].isolate { stack.removeLast() }
            stack.removeLast()
            validIsolates -= 1
          }
          let now = stack[stack.count - 1]
          levels[index] = now.level
          if let override = now.override { classes[index] = override }
        case .popDirectionalFormat:
          if overflowIsolates > 0 {
          } else if overflowEmbeddings > 0 {
            overflowEmbeddings -= 1
          } else if !top.isolate && stack.count >= 2 {
            stack.removeLast()
          }
          levels[index] = top.level
        case .paragraphSeparator:
          levels[index] = baseLevel
        case .boundaryNeutral:
          levels[index] = top.level
        default:
          levels[index] = top.level
          if let override = top.override { classes[index] = override }
        }
      }
    }

    // MARK: X10: isolating run sequences.

    struct Sequence {
      /// The scalar indices, in order, without removed ones.
      var indices: [Int]
      var level: UInt8
      /// The directions at its start and end (sos, eos).
      var start: BidiClass, end: BidiClass
    }

    /// A level run: positions `start..<end` of the kept characters' indices.
    struct LevelRun {
      var start: Int, end: Int
    }

    func isolatingRunSequences(baseLevel: UInt8) -> [Sequence] {
      // The characters X9 keeps.
      var kept: [Int] = []
      kept.reserveCapacity(classes.count)
      var index = 0
      while index < classes.count {
        if !Resolver.isRemovedByX9(original[index]) { kept.append(index) }
        index += 1
      }
      // Level runs over the kept characters, and (for isolates) the run starting at each index.
      var runs: [LevelRun] = []
      var runStartingAt = hasIsolates ? [Int](repeating: -1, count: classes.count) : []
      var position = 0
      while position < kept.count {
        if position > 0 && levels[kept[position]] == levels[kept[position - 1]] {
          runs[runs.count - 1].end = position + 1
        } else {
          if hasIsolates { runStartingAt[kept[position]] = runs.count }
          runs.append(LevelRun(start: position, end: position + 1))
        }
        position += 1
      }
      var sequences: [Sequence] = []
      var next = 0
      while next < runs.count {
        let run = runs[next]
        next += 1
        // A run that a matched PDI starts continues the sequence of its initiator.
        if hasIsolates && isMatchedPDI[kept[run.start]] { continue }
        var indices: [Int] = []
        indices.reserveCapacity(run.end - run.start)
        Resolver.append(run, of: kept, to: &indices)
        while hasIsolates, case let pdi = matchingPDI[indices[indices.count - 1]], pdi >= 0, runStartingAt[pdi] >= 0 {
          Resolver.append(runs[runStartingAt[pdi]], of: kept, to: &indices)
        }
        let level = levels[indices[0]]
        let last = indices[indices.count - 1]
        let before = keptLevel(before: indices[0]) ?? baseLevel
        let after = Resolver.isIsolateInitiator(original[last]) ? baseLevel : keptLevel(after: last) ?? baseLevel
        sequences.append(
          Sequence(
            indices: indices, level: level,
            start: max(before, level) & 1 == 1 ? .rightToLeft : .leftToRight,
            end: max(after, level) & 1 == 1 ? .rightToLeft : .leftToRight))
      }
      return sequences
    }

    /// Appends the indices of the kept characters of `run` to `indices`.
    static func append(_ run: LevelRun, of kept: [Int], to indices: inout [Int]) {
      var position = run.start
      while position < run.end {
        indices.append(kept[position])
        position += 1
      }
    }

    /// The level of the nearest character before `index` that rule X9 keeps; nil if none.
    func keptLevel(before index: Int) -> UInt8? {
      var other = index - 1
      while other >= 0 {
        if !Resolver.isRemovedByX9(original[other]) { return levels[other] }
        other -= 1
      }
      return nil
    }

    /// The level of the nearest character after `index` that rule X9 keeps; nil if none.
    func keptLevel(after index: Int) -> UInt8? {
      var other = index + 1
      while other < original.count {
        if !Resolver.isRemovedByX9(original[other]) { return levels[other] }
        other += 1
      }
      return nil
    }

    static func isIsolateInitiator(_ type: BidiClass) -> Bool {
      type == .leftToRightIsolate || type == .rightToLeftIsolate || type == .firstStrongIsolate
    }

    // MARK: W1–W7: weak types.

    mutating func resolveWeak(_ sequence: Sequence) {
      let indices = sequence.indices
      let count = indices.count
      // W1: a mark takes the type before it (ON after an isolate initiator or PDI).
      var previous = sequence.start
      var position = 0
      while position < count {
        let index = indices[position]
        if classes[index] == .nonspacingMark {
          classes[index] = Resolver.isIsolateControl(previous) ? .otherNeutral : previous
        }
        previous = classes[index]
        position += 1
      }
      // W2: a European number after an Arabic letter is an Arabic number. W3: AL is R (in the
      // same pass: W2 has seen the letter before W3 changes it).
      var strong = sequence.start
      position = 0
      while position < count {
        let index = indices[position]
        switch classes[index] {
        case .leftToRight, .rightToLeft: strong = classes[index]
        case .arabicLetter:
          strong = .arabicLetter
          classes[index] = .rightToLeft
        case .europeanNumber where strong == .arabicLetter: classes[index] = .arabicNumber
        default: break
        }
        position += 1
      }
      // W4: one separator between two numbers of a kind joins them.
      position = 1
      while position < count - 1 {
        let type = classes[indices[position]]
        let before = classes[indices[position - 1]], after = classes[indices[position + 1]]
        if type == .europeanSeparator && before == .europeanNumber && after == .europeanNumber {
          classes[indices[position]] = .europeanNumber
        } else if type == .commonSeparator && before == after && (before == .europeanNumber || before == .arabicNumber) {
          classes[indices[position]] = before
        }
        position += 1
      }
      // W5: terminators next to a European number are part of it.
      position = 0
      while position < count {
        guard classes[indices[position]] == .europeanTerminator else {
          position += 1
          continue
        }
        var end = position
        while end < count && classes[indices[end]] == .europeanTerminator { end += 1 }
        let touches = (position > 0 && classes[indices[position - 1]] == .europeanNumber)
          || (end < count && classes[indices[end]] == .europeanNumber)
        if touches {
          while position < end {
            classes[indices[position]] = .europeanNumber
            position += 1
          }
        }
        position = end
      }
      // W6: separators and terminators left over are neutral. W7: a European number in
      // left-to-right context is L (W6 makes nothing strong, so one pass does both).
      strong = sequence.start
      position = 0
      while position < count {
        let index = indices[position]
        switch classes[index] {
        case .europeanSeparator, .europeanTerminator, .commonSeparator: classes[index] = .otherNeutral
        case .leftToRight, .rightToLeft: strong = classes[index]
        case .europeanNumber where strong == .leftToRight: classes[index] = .leftToRight
        default: break
        }
        position += 1
      }
    }

    // MARK: N0: paired brackets.

    /// The strong direction a type counts as for N0 and N1 (numbers count as R).
    static func strongDirection(_ type: BidiClass) -> BidiClass? {
      switch type {
      case .leftToRight: .leftToRight
      case .rightToLeft, .europeanNumber, .arabicNumber: .rightToLeft
      default: nil
      }
    }

    /// A bracket's canonical form, so U+2329 pairs with U+3009 (BD16).
    static func canonical(_ code: UInt32) -> UInt32 {
      if let parts = UnicodeTables.decomposition(code), parts.second == nil { return parts.first }
      return code
    }

    mutating func resolveBrackets(_ sequence: Sequence) {
      let indices = sequence.indices
      // BD16: the bracket pairs, by the position of their opening bracket.
      var pairs: [BracketPair] = []
      var stack: [OpenBracket] = []
      var position = 0
      pairing: while position < indices.count {
        defer { position += 1 }
        let index = indices[position]
        guard classes[index] == .otherNeutral, let bracket = UnicodeTables.bracket(scalars[index]) else { continue }
        if bracket.opens {
          guard stack.count < 63 else { break pairing }
          stack.append(OpenBracket(closer: Resolver.canonical(bracket.pair.value), position: position))
        } else {
          let code = Resolver.canonical(scalars[index].value)
          var match = stack.count - 1
          while match >= 0 && stack[match].closer != code { match -= 1 }
          if match >= 0 {
            pairs.append(BracketPair(open: stack[match].position, close: position))
            stack.removeSubrange(match...)
          }
        }
      }
      if pairs.count > 1 { pairs.sort { $0.open < $1.open } }
      let embedding: BidiClass = sequence.level & 1 == 1 ? .rightToLeft : .leftToRight
      var next = 0
      while next < pairs.count {
        let pair = pairs[next]
        next += 1
        var foundEmbedding = false, foundOpposite = false
        var inside = pair.open + 1
        while inside < pair.close {
          defer { inside += 1 }
          guard let direction = Resolver.strongDirection(classes[indices[inside]]) else { continue }
          if direction == embedding {
            foundEmbedding = true
            break
          }
          foundOpposite = true
        }
        var resolved: BidiClass? = nil
        if foundEmbedding {
          resolved = embedding
        } else if foundOpposite {
          // Opposite inside: the brackets follow the text before them (sos if none).
          var context = sequence.start
          var before = pair.open - 1
          while before >= 0 {
            if let direction = Resolver.strongDirection(classes[indices[before]]) {
              context = direction
              break
            }
            before -= 1
          }
          resolved = context
        }
        guard let resolved else { continue }
        setBracket(at: pair.open, indices, to: resolved)
        setBracket(at: pair.close, indices, to: resolved)
      }
    }

    /// Gives the bracket at `position` of a sequence's `indices` the class `resolved`, and
    /// the marks after it that W1 made neutral too: they follow the bracket.
    mutating func setBracket(at position: Int, _ indices: [Int], to resolved: BidiClass) {
      classes[indices[position]] = resolved
      var next = position + 1
      while next < indices.count && original[indices[next]] == .nonspacingMark {
        classes[indices[next]] = resolved
        next += 1
      }
    }

    /// A pair of brackets by their positions in an isolating run sequence (BD16).
    struct BracketPair {
      var open: Int, close: Int
    }

    /// An opening bracket waiting for its closer (canonical code) at `position`.
    struct OpenBracket {
      var closer: UInt32, position: Int
    }

    // MARK: N1, N2: neutrals.

    static func isNeutralOrIsolate(_ type: BidiClass) -> Bool {
      switch type {
      case .paragraphSeparator, .segmentSeparator, .whitespace, .otherNeutral,
        .leftToRightIsolate, .rightToLeftIsolate, .firstStrongIsolate, .popDirectionalIsolate:
        return true
      default: return false
      }
    }

    mutating func resolveNeutral(_ sequence: Sequence) {
      let indices = sequence.indices
      let embedding: BidiClass = sequence.level & 1 == 1 ? .rightToLeft : .leftToRight
      var position = 0
      while position < indices.count {
        guard Resolver.isNeutralOrIsolate(classes[indices[position]]) else {
          position += 1
          continue
        }
        var end = position
        while end < indices.count && Resolver.isNeutralOrIsolate(classes[indices[end]]) { end += 1 }
        let before = position == 0 ? sequence.start : Resolver.strongDirection(classes[indices[position - 1]]) ?? embedding
        let after = end == indices.count ? sequence.end : Resolver.strongDirection(classes[indices[end]]) ?? embedding
        let direction = before == after ? before : embedding
        while position < end {
          classes[indices[position]] = direction
          position += 1
        }
      }
    }

    // MARK: I1, I2: implicit levels.

    mutating func resolveImplicit(_ sequence: Sequence) {
      let indices = sequence.indices
      var position = 0
      while position < indices.count {
        let index = indices[position]
        position += 1
        let level = levels[index]
        if level & 1 == 0 {
          switch classes[index] {
          case .rightToLeft: levels[index] = level + 1
          case .arabicNumber, .europeanNumber: levels[index] = level + 2
          default: break
          }
        } else if classes[index] == .leftToRight || classes[index] == .europeanNumber || classes[index] == .arabicNumber {
          levels[index] = level + 1
        }
      }
    }

    // MARK: L1: separators and trailing white space on the paragraph level.

    mutating func resetWhitespace(baseLevel: UInt8) {
      var trailing = true
      var index = classes.count - 1
      while index >= 0 {
        defer { index -= 1 }
        let type = original[index]
        switch type {
        case .segmentSeparator, .paragraphSeparator:
          levels[index] = baseLevel
          trailing = true
        case .whitespace, .leftToRightIsolate, .rightToLeftIsolate, .firstStrongIsolate, .popDirectionalIsolate:
          if trailing { levels[index] = baseLevel }
        default:
          if Resolver.isRemovedByX9(type) {
            if trailing { levels[index] = baseLevel }
          } else {
            trailing = false
          }
        }
      }
    }
  }
}

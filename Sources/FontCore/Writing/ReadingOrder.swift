/// A line of text made ready to draw: normalised (NFC, CJK compatibility ideographs kept as
/// written), Arabic letters joined, and its
/// characters put in the order they are drawn, left to right, by the bidirectional
/// algorithm, with brackets mirrored in right-to-left runs.
///
/// Each character is a grapheme cluster, base first and marks after, so a mark stays on
/// its letter whichever way the run reads.
public struct ReadingOrder: Sendable {
  /// The characters in drawing order, each as its scalars.
  public var characters: [[Unicode.Scalar]]
  /// The direction the paragraph reads: ``TextDirection/ltr`` or ``TextDirection/rtl``, or
  /// ``TextDirection/auto`` when it was asked to find out and the text has no strong letter
  /// (it is then drawn left to right).
  public var direction: TextDirection
  /// Letters drawn unjoined because no font has the presentation form their place needs.
  public var unshaped: [Unicode.Scalar]

  /// Whether the paragraph reads right to left.
  public var isRightToLeft: Bool { direction == .rtl }

  /// Prepares `text` with the paragraph direction `direction`; `available` says whether a
  /// font can draw a scalar (presentation forms and mirrored brackets are used only then).
  public init(_ text: String, direction: TextDirection = .auto, available: (Unicode.Scalar) -> Bool = { _ in true }) {
    unshaped = []
    let bidiScalars = text.unicodeScalars.contains { ReadingOrder.mayChangeOrder($0) }
    if !bidiScalars && direction != .rtl && text.utf8.allSatisfy({ $0 < 0xCC }) {
      // Below U+0300 and without right-to-left letters: already normalised and in order.
      characters = text.map { Array($0.unicodeScalars) }
      self.direction = direction == .ltr ? .ltr : BidiParagraph.firstStrongDirection(of: Array(text.unicodeScalars))
      return
    }
    var scalars = Normalization.nfc(text.unicodeScalars, keepingIdeographs: true)
    if ArabicJoining.needsJoining(scalars) {
      let joined = ArabicJoining.join(scalars, available: available)
      scalars = joined.scalars
      unshaped = joined.unshaped
    }
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    let clusters = String(view).map { Array($0.unicodeScalars) }
    let paragraph = BidiParagraph(scalars, direction: direction)
    self.direction = paragraph.direction
    // Each cluster reads at the level of its first scalar that the algorithm keeps.
    var levels: [UInt8] = []
    levels.reserveCapacity(clusters.count)
    var start = 0
    for cluster in clusters {
      let kept = paragraph.levels[start..<(start + cluster.count)].first { $0 != BidiParagraph.removed }
      levels.append(kept ?? BidiParagraph.removed)
      start += cluster.count
    }
    characters = BidiParagraph.visualOrder(levels).map { index in
      var cluster = clusters[index]
      // L4: a mirrored glyph for a bracket in a right-to-left run.
      if levels[index] & 1 == 1, let mirror = UnicodeTables.mirror(cluster[0]), available(mirror) {
        cluster[0] = mirror
      }
      return cluster
    }
  }

  /// Whether a scalar can make a line other than left to right in logical order:
  /// right-to-left letters, Arabic digits and the explicit direction controls.
  static func mayChangeOrder(_ scalar: Unicode.Scalar) -> Bool {
    guard scalar.value >= 0x0590 else { return false }
    switch UnicodeTables.bidiClass(scalar) {
    case .rightToLeft, .arabicLetter, .arabicNumber, .rightToLeftEmbedding, .rightToLeftOverride, .rightToLeftIsolate,
      .firstStrongIsolate, .leftToRightEmbedding, .leftToRightOverride, .leftToRightIsolate:
      return true
    default: return false
    }
  }
}

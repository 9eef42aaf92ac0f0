/// Cursive joining for Arabic script (Arabic, Persian, Urdu): each letter takes the shape its
/// neighbours ask for, isolated, initial, medial or final, and lam followed by alef becomes
/// one ligature, as the Unicode joining rules (The Unicode Standard, 9.2) describe them.
///
/// A bitmap font draws each shape as a presentation-form character (U+FB50–U+FDFF,
/// U+FE70–U+FEFF), so joining replaces letters by those characters, in logical order,
/// before the line is put in reading order.
public enum ArabicJoining {
  /// The result of joining one run of text.
  public struct Result: Sendable, Equatable {
    /// The scalars with the joined letters replaced by their presentation forms.
    public var scalars: [Unicode.Scalar]
    /// Letters left in their plain form where they should join: no font has the shape
    /// they need, or Unicode has no presentation form for it.
    public var unshaped: [Unicode.Scalar]
  }

  /// Whether any scalar is in a joining script and may change shape.
  public static func needsJoining(_ scalars: some Sequence<Unicode.Scalar>) -> Bool {
    scalars.contains { (0x0600...0x08FF).contains($0.value) }
  }

  /// Joins the letters of `scalars` (logical order), using a presentation form only where
  /// `available` says a font can draw it.
  public static func join(_ scalars: [Unicode.Scalar], available: (Unicode.Scalar) -> Bool = { _ in true }) -> Result {
    let types = scalars.map(UnicodeTables.joiningType)
    /// The joining type of the nearest non-transparent neighbour, stepping by `step`.
    func neighbour(of index: Int, step: Int) -> JoiningType? {
      var other = index + step
      while other >= 0 && other < scalars.count {
        if types[other] != .transparent { return types[other] }
        other += step
      }
      return nil
    }
    var output: [Unicode.Scalar] = []
    output.reserveCapacity(scalars.count)
    var unshaped: [Unicode.Scalar] = []
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      let type = types[index]
      guard type == .rightJoining || type == .dualJoining || type == .leftJoining else {
        output.append(scalar)
        index += 1
        continue
      }
      let before = neighbour(of: index, step: -1)
      let joinsBefore = (type == .rightJoining || type == .dualJoining)
        && (before == .leftJoining || before == .dualJoining || before == .joinCausing)
      // Lam followed at once by an alef: one ligature, joined to the letter before the lam.
      if scalar == "\u{0644}", index + 1 < scalars.count,
        let ligature = UnicodeTables.lamAlef(scalars[index + 1], final: joinsBefore), available(ligature)
      {
        output.append(ligature)
        index += 2
        continue
      }
      let after = neighbour(of: index, step: 1)
      let joinsAfter = (type == .leftJoining || type == .dualJoining)
        && (after == .rightJoining || after == .dualJoining || after == .joinCausing)
      let form: JoiningForm =
        switch (joinsBefore, joinsAfter) {
        case (true, true): .medial
        case (true, false): .final
        case (false, true): .initial
        case (false, false): .isolated
        }
      let shaped = UnicodeTables.presentationForm(of: scalar, form)
      if let shaped, available(shaped) {
        output.append(shaped)
      } else {
        // A letter whose shape here Unicode has no character for (Pashto's ښ), or no font
        // draws, stays plain; isolated, plain is the right shape.
        if form != .isolated || shaped != nil { unshaped.append(scalar) }
        output.append(scalar)
      }
      index += 1
    }
    return Result(scalars: output, unshaped: unshaped)
  }
}

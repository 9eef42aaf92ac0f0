/// Breaks a message into lines no wider than a width, for signs taller than one line.
///
/// Latin text breaks at spaces and after hyphens; Chinese, Japanese and Korean between any
/// two characters, except that a line never starts with closing punctuation (，。、！？）」…)
/// nor ends with opening punctuation (（「『【《“…), the rule Chinese typesetting calls 避头尾;
/// a word longer than the line is split where it must. Spaces at a break are dropped.
public enum LineBreaker {
  /// Characters that must not start a line: closing brackets and quotes, and the marks that
  /// end a clause or sentence.
  static let noLineStart: Set<Character> = Set("，。、！？；：）」』】〉》〕］｝”’…‥・ー～,.!?;:)]}%‰°")
  /// Characters that must not end a line: opening brackets and quotes.
  static let noLineEnd: Set<Character> = Set("（「『【〈《〔［｛“‘([{")

  /// The lines of `text` for a line `width` pixels wide, as `renderer` measures them.
  public static func lines(_ text: String, width: Int, renderer: TextRenderer) -> [String] {
    var lines: [String] = []
    var line = ""
    for unit in units(text) {
      let candidate = line + unit
      if renderer.measure(candidate.trimmingTrailingSpaces()) <= width {
        line = candidate
        continue
      }
      if !line.trimmingTrailingSpaces().isEmpty {
        lines.append(line.trimmingTrailingSpaces())
      }
      line = String(unit.drop { $0 == " " })
      // A unit wider than the line alone is split at the last character that fits.
      while renderer.measure(line.trimmingTrailingSpaces()) > width, line.count > 1 {
        var head = ""
        for character in line {
          guard renderer.measure(head + String(character)) <= width || head.isEmpty else { break }
          head.append(character)
        }
        lines.append(head)
        line = String(line.dropFirst(head.count))
      }
    }
    if !line.trimmingTrailingSpaces().isEmpty || lines.isEmpty { lines.append(line.trimmingTrailingSpaces()) }
    return lines
  }

  /// The pieces a line may break between: a word with the spaces after it (a hyphen ends a
  /// piece), or one CJK character; closing punctuation joins the piece before it, opening
  /// punctuation the piece after it.
  static func units(_ text: String) -> [String] {
    var units: [String] = []
    var current = ""
    var opening = ""
    func finish() {
      if !current.isEmpty { units.append(current) }
      current = ""
    }
    for character in text {
      if noLineStart.contains(character), !units.isEmpty || !current.isEmpty {
        // Stays with what it closes.
        if current.isEmpty { units[units.count - 1].append(character) } else { current.append(character) }
        continue
      }
      if noLineEnd.contains(character) {
        finish()
        opening.append(character)
        continue
      }
      if character == " " {
        current.append(character)
        continue
      }
      if isIdeographic(character) {
        finish()
        current = opening + String(character)
        opening = ""
        finish()
        continue
      }
      // A word: starts after spaces, ends after a hyphen.
      if current.last == " " { finish() }
      current = opening.isEmpty ? current : (current.isEmpty ? opening : current + opening)
      opening = ""
      current.append(character)
      if character == "-" { finish() }
    }
    current += opening
    finish()
    return units
  }

  /// Whether a line may break before and after this character: Han, kana, Hangul and the
  /// fullwidth forms.
  static func isIdeographic(_ character: Character) -> Bool {
    guard let scalar = character.unicodeScalars.first else { return false }
    switch scalar.value {
    case 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x20000...0x3FFFF: return true
    default: return false
    }
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}

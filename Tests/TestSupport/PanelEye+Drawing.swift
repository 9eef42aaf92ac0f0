import BitmapFonts
import Drivers
import SimpleJSON

extension PanelEye {
  /// A drawing of an emulated panel (``FinderPanel``'s: `.` dark, `#` lit in white, `R`, `G`
  /// or `B` lit in one colour, `+` in two, `@` brighter) as lit weights.
  public static func weights(_ drawing: [String]) -> [[Int]] {
    drawing.map { line in line.map { $0 == "." ? 0 : $0 == "@" ? 2 : 1 } }
  }

  /// The colours of the colour test's three blocks, left to right, as typed (`r g b`): the
  /// letter most of each third's lit pixels show.
  public static func blockColors(_ drawing: [String]) -> String {
    let rows = drawing.map(Array.init)
    let third = (rows.first?.count ?? 0) / 3
    return (0..<3).map { block in
      let letters = rows.flatMap { $0[(block * third)..<((block + 1) * third)] }.filter { "RGB".contains($0) }
      let most = ["R", "G", "B"].max { a, b in letters.filter { String($0) == a }.count < letters.filter { String($0) == b }.count }!
      return most.lowercased()
    }.joined(separator: " ")
  }

  /// Whether "Hello" reads right: the built-in font's word a pixel from the left, in the
  /// middle rows, nothing else lit, all alike.
  public static func readsHello(_ drawing: [String], columns: Int, rows: Int) -> Bool {
    let word = TextRenderer().render("Hello")
    var expected = [[Int]](repeating: [Int](repeating: 0, count: columns), count: rows)
    for y in 0..<word.height { for x in 0..<word.width where word[x, y] { expected[(rows - word.height) / 2 + y][1 + x] = 1 } }
    return weights(drawing) == expected
  }

  /// An answer to a probe as typed: `y`, `n`, `d`, or the numbers seen (`0` for none).
  public static func typed(_ answer: HUB75PanelFinder.Answer) -> String {
    switch answer {
    case .even: "y"
    case .uneven: "n"
    case .dark: "d"
    case .numbers(let numbers), .parts(let numbers): numbers.isEmpty ? "0" : numbers.sorted().map(String.init).joined(separator: " ")
    case .unknown: "0"
    }
  }
}

extension PanelEye {
  /// What a person answers to one of the finder's questions (as a front end gives it: its
  /// step, 0 for the confirmation; its English text; how many choices it offers) on seeing
  /// `drawing`: "Hello" read or not, the blocks' colours, or the probe's answer.
  public static func reply(step: Int, question: String, choices: Int, asksText: Bool = false, drawing: [String], finder: HUB75PanelFinder) -> String {
    if step == 0 { return readsHello(drawing, columns: drawing.first?.count ?? 0, rows: drawing.count) ? "y" : "n" }
    if asksText { return arrangement(drawing, finder: finder) }
    if choices == 6 { return blockColors(drawing) }
    let pattern: HUB75PanelFinder.Pattern = choices > 0 ? .everything : question.contains("parts") ? .part(1) : .numbers
    return typed(answer(pattern, weights: weights(drawing), finder: finder))
  }
}

extension PanelEye {
  /// The chain test as a person reads it: each panel's number (its picture from the finder,
  /// upright) found in the drawing upright, upside down or turned a quarter either way,
  /// typed row by row from the top, each row from the left, rows separated by `/`, with
  /// `v` after a number whose bar is at the bottom, `>` on the right, `<` on the left.
  public static func arrangement(_ drawing: [String], finder: HUB75PanelFinder, count: Int = 96) -> String {
    let lit = drawing.map { $0.map { $0 != "." } }
    let (height, width) = (lit.count, lit.first?.count ?? 0)
    var found: [(x: Int, y: Int, text: String)] = []
    for number in 1...count {
      // The panels' height is the one the finder found: whichever of its heights shows.
      for rows in finder.rowChoices {
      let upright = finder.panelPicture(number, rows: rows)
      let (w, h) = (upright.width, upright.height)
      // Each way a panel may be turned: the box, and where the upright pixel (x, y) lands.
      let turns: [(suffix: String, width: Int, height: Int, at: (Int, Int) -> (Int, Int))] = [
        ("", w, h, { ($0, $1) }), ("v", w, h, { (w - 1 - $0, h - 1 - $1) }),
        (">", h, w, { (h - 1 - $1, $0) }), ("<", h, w, { ($1, w - 1 - $0) }),
      ]
      for turn in turns where turn.width <= width && turn.height <= height {
        var picture = [[Bool]](repeating: [Bool](repeating: false, count: turn.width), count: turn.height)
        for y in 0..<h { for x in 0..<w where upright[x, y] { let (tx, ty) = turn.at(x, y); picture[ty][tx] = true } }
        for top in 0...(height - turn.height) {
          for left in 0...(width - turn.width) where lit[top][left..<(left + turn.width)].elementsEqual(picture[0]) {
            if (0..<turn.height).allSatisfy({ lit[top + $0][left..<(left + turn.width)].elementsEqual(picture[$0]) }) {
              found.append((left, top, "\(number)\(turn.suffix)"))
            }
          }
        }
      }
      }
    }
    // Rows: the panels whose boxes start at the same height, top first.
    let tops = Set(found.map(\.y)).sorted()
    return tops.map { top in found.filter { $0.y == top }.sorted { $0.x < $1.x }.map(\.text).joined(separator: " ") }.joined(separator: " / ")
  }
}

extension PanelEye {
  /// The answer to a question of the finder's API (`/api/panel-finder`: its `step`,
  /// `question`, `choices`, `typed` and the emulated panel's `drawing`), `?` without a drawing.
  public static func reply(to question: JSONValue, finder: HUB75PanelFinder) -> String {
    guard case .array(let lines)? = question["drawing"], case .string(let text)? = question["question"],
      case .array(let choices)? = question["choices"], case .number(let step)? = question["step"]
    else { return "?" }
    let drawing = lines.compactMap { if case .string(let line) = $0 { line } else { nil } }
    return reply(step: Int(step), question: text, choices: choices.count, asksText: question["typed"] == .bool(true), drawing: drawing, finder: finder)
  }
}
